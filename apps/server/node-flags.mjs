// The Node.js flags the server runs with, in one place: `npm start` (scripts/start.mjs), the browser tests'
// server (e2e/global-setup.ts) and the benchmarks (bench/app-server.mjs) start it with these.
// --max-semi-space-size=2: V8's young generation at 2 MB per semi-space instead of 16, about 45 MB less resident
// memory for a server whose requests make little garbage each (decision 0010 has the figures).
export const SERVER_NODE_FLAGS = ['--enable-source-maps', '--max-semi-space-size=2'];
