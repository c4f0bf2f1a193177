// The Node.js flags the server runs with, in one place: `npm start` (scripts/start.mjs) and the benchmarks
// (bench/app-server.mjs, bench/memory.mjs) start it with these; docs/operations.md gives them for a deployment.
// --max-semi-space-size: V8's young generation, per semi-space, by the database the server uses (decision 0015):
// - embedded (no DATABASE_URL): 2 MB instead of V8's 16, about 45 MB less resident memory for the small server the
//   embedded database is meant for;
// - PostgreSQL: 16 MB. That server is the one many people share: with 2 MB, garbage collection took 35 % of its CPU
//   at 3,000 autosaves a second (10 % with 16 MB, and 72 % more autosaves served), for about 10 MB more idle
//   memory. bench/README has the soak figures.
export const serverNodeFlags = (env = process.env) => [
  '--enable-source-maps',
  `--max-semi-space-size=${env.DATABASE_URL ? 16 : 2}`,
];
