// participants: 2,000 simulated participants on PostgreSQL, each autosaving every 2 s for 60 s (about
// 1,000 requests a second), against the real server: achieved req/s, p99 latency and errors.
// The check is set up through the API; the participants are added in bulk (see addParticipants).
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { withScratchDatabase } from './autosave.mjs';
import { addParticipants, setUpCheck, startApp } from './app-server.mjs';
import { result } from './report.mjs';

const PARTICIPANTS = Number(process.env.BENCH_PARTICIPANTS ?? 2000);
const INTERVAL_MS = 2000;
const DURATION_MS = Number(process.env.BENCH_SOAK_SECONDS ?? 60) * 1000;

function put(agent, url, cookie, body) {
  return new Promise((resolve) => {
    const started = performance.now();
    const request = http.request(
      url,
      {
        method: 'PUT',
        agent,
        headers: { cookie, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          resolve({ ok: response.statusCode === 200, ms: performance.now() - started }),
        );
      },
    );
    request.on('error', () => resolve({ ok: false, ms: performance.now() - started }));
    request.end(body);
  });
}

async function soak(databaseUrl) {
  const secret = randomBytes(32).toString('base64url');
  const app = await startApp({ databaseUrl, secret });
  try {
    const { healthCheckId, componentIds } = await setUpCheck(app.url);
    const cookies = (
      await addParticipants({ database: databaseUrl, healthCheckId, secret, count: PARTICIPANTS })
    ).map((p) => p.cookie);
    const url = `${app.url}/api/health-checks/${healthCheckId}/responses`;
    const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
    const latencies = [];
    let errors = 0;
    const started = Date.now();
    const participant = async (cookie, index) => {
      await new Promise((r) => setTimeout(r, (index / cookies.length) * INTERVAL_MS));
      for (let step = 0; Date.now() - started < DURATION_MS; step++) {
        const next = Date.now() + INTERVAL_MS;
        const votes = Object.fromEntries(
          componentIds.slice(0, 1 + (step % componentIds.length)).map((id) => [id, 'healthy']),
        );
        const body = JSON.stringify({
          votes,
          comments: {},
          last_component_index: step % componentIds.length,
        });
        const { ok, ms } = await put(agent, url, cookie, body);
        latencies.push(ms);
        if (!ok) errors += 1;
        await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
      }
    };
    await Promise.all(cookies.map(participant));
    const seconds = (Date.now() - started) / 1000;
    agent.destroy();
    latencies.sort((a, b) => a - b);
    return {
      rps: latencies.length / seconds,
      p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
      errors,
      expected: (PARTICIPANTS * 1000) / INTERVAL_MS,
    };
  } finally {
    await app.stop();
  }
}

export async function benchParticipants() {
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const name = `participants (PostgreSQL, ${PARTICIPANTS} × every 2 s)`;
  if (!pgUrl)
    return [result({ name, metric: 'skipped: BENCH_DATABASE_URL not set', value: 0, target: { min: 1 } })];
  const run = await withScratchDatabase(pgUrl, soak);
  return [
    result({
      name,
      metric: 'achieved req/s (offered load as baseline)',
      unit: 'req/s',
      value: run.rps,
      baseline: run.expected,
      target: { minRatio: 0.95 },
    }),
    result({ name, metric: 'p99 latency', unit: 'ms', value: run.p99, target: { max: 100 } }),
    result({ name, metric: 'errors and non-2xx', value: run.errors, target: { max: 0 } }),
  ];
}
