// participants: 2,000 simulated participants on PostgreSQL, each autosaving every 2 s for 60 s (about
// 1,000 requests a second), against the real server: achieved req/s, p99 latency and errors; then the same
// soak against the same-SQL baseline server, whose p99 shows what the machine itself allows.
// The check is set up through the API; the participants are added in bulk (see addParticipants).
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { baseline, withScratchDatabase } from './autosave.mjs';
import { addParticipants, setUpCheck, startApp } from './app-server.mjs';
import { result } from './report.mjs';

/** The soak sizes: 2,000 and 5,000 participants (BENCH_PARTICIPANTS runs one size instead). */
const SIZES = process.env.BENCH_PARTICIPANTS ? [Number(process.env.BENCH_PARTICIPANTS)] : [2000, 5000];
const INTERVAL_MS = 2000;
const DURATION_MS = Number(process.env.BENCH_SOAK_SECONDS ?? 60) * 1000;
/** The participants join over the first interval; the figures count from then on, once the load is steady. */
const WARMUP_MS = 5000;

export function put(agent, url, cookie, body) {
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
          resolve({
            ok: response.statusCode === 200,
            why: `HTTP ${response.statusCode}`,
            ms: performance.now() - started,
          }),
        );
      },
    );
    request.on('error', (error) =>
      resolve({ ok: false, why: error.code ?? error.message, ms: performance.now() - started }),
    );
    request.end(body);
  });
}

/**
 * Every participant autosaves every INTERVAL_MS, starting staggered over the first interval. Answers the
 * latencies and errors after the warm-up, and the achieved rate over the same span.
 */
async function drive(participants, componentIds, urlOf) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const latencies = [];
  let errors = 0;
  /** What each failed request was (status or socket error), so a failure says its cause. */
  const failures = {};
  const started = Date.now();
  const participant = async (p, index) => {
    await new Promise((r) => setTimeout(r, (index / participants.length) * INTERVAL_MS));
    for (let step = 0; Date.now() - started < DURATION_MS; step++) {
      const next = Date.now() + INTERVAL_MS;
      const votes = Object.fromEntries(
        componentIds.slice(0, 1 + (step % componentIds.length)).map((id) => [id, 'healthy']),
      );
      const body = JSON.stringify({ votes, comments: {}, last_component_index: step % componentIds.length });
      const sent = Date.now() - started;
      const { ok, why, ms } = await put(agent, urlOf(p), p.cookie, body);
      if (!ok) {
        errors += 1;
        failures[why] = (failures[why] ?? 0) + 1;
      }
      if (sent >= WARMUP_MS) latencies.push(ms);
      await new Promise((r) => setTimeout(r, Math.max(0, next - Date.now())));
    }
  };
  await Promise.all(participants.map(participant));
  const seconds = (Date.now() - started - WARMUP_MS) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / seconds,
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
    errors,
    failures,
  };
}

/** The soak against our server, then against the same-SQL baseline server on the same rows. */
async function soak(databaseUrl, count) {
  const secret = randomBytes(32).toString('base64url');
  const app = await startApp({ databaseUrl, secret });
  let ours;
  let participants;
  let componentIds;
  try {
    const check = await setUpCheck(app.url);
    componentIds = check.componentIds;
    participants = await addParticipants({
      database: databaseUrl,
      healthCheckId: check.healthCheckId,
      secret,
      count,
    });
    const url = `${app.url}/api/health-checks/${check.healthCheckId}/responses`;
    ours = await drive(participants, componentIds, () => url);
  } finally {
    await app.stop();
  }
  const sameSql = await baseline('sql', databaseUrl);
  try {
    const base = await drive(participants, componentIds, (p) => `${sameSql.url}/${p.participantId}`);
    return { ours, base, expected: (count * 1000) / INTERVAL_MS };
  } finally {
    await sameSql.stop();
  }
}

export async function benchParticipants() {
  const pgUrl = process.env.BENCH_DATABASE_URL;
  const results = [];
  for (const count of SIZES) {
    const name = `participants (PostgreSQL, ${count} × every 2 s)`;
    if (!pgUrl) {
      results.push(
        result({ name, metric: 'skipped: BENCH_DATABASE_URL not set', value: 0, target: { min: 1 } }),
      );
      continue;
    }
    const { ours, base, expected } = await withScratchDatabase(pgUrl, (url) => soak(url, count));
    const causes = Object.entries(ours.failures).map(([why, n]) => `${why} × ${n}`);
    results.push(
      result({
        name,
        metric: 'achieved req/s (offered load as baseline)',
        unit: 'req/s',
        value: ours.rps,
        baseline: expected,
        target: { minRatio: 0.95 },
      }),
      result({
        name,
        metric: 'p99 latency (baseline: same-SQL node:http under the same soak)',
        unit: 'ms',
        value: ours.p99,
        baseline: base.p99,
        target: { max: 100 },
      }),
      result({
        name,
        metric: `errors and non-2xx${causes.length ? ` (${causes.join(', ')})` : ''}`,
        value: ours.errors,
        target: { max: 0 },
      }),
    );
  }
  return results;
}
