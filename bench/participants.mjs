// participants: 2,000 and 5,000 simulated participants on PostgreSQL, each autosaving every 2 s for 60 s (1,000
// and 2,500 requests a second), against the real server: achieved req/s, p99 latency and errors; at the largest
// size also against two processes of the server (shown); then the same soak against the same-SQL baseline server,
// whose p99 shows what the machine itself allows. The load generator is bench/http-load.mjs.
// The check is set up through the API; the participants are added in bulk (see addParticipants).
import { randomBytes } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { baseline, withScratchDatabase } from './autosave.mjs';
import { addParticipants, setUpCheck, startApp } from './app-server.mjs';
import { Pool } from './http-load.mjs';
import { result, skippedWithoutPostgres } from './report.mjs';

/** The soak sizes: 2,000 and 5,000 participants (BENCH_PARTICIPANTS runs one size instead). */
const SIZES = process.env.BENCH_PARTICIPANTS ? [Number(process.env.BENCH_PARTICIPANTS)] : [2000, 5000];
const INTERVAL_MS = 2000;
const DURATION_MS = Number(process.env.BENCH_SOAK_SECONDS ?? 60) * 1000;
/** The participants join over the first interval; the figures count from then on, once the load is steady. */
const WARMUP_MS = 5000;

/** Kept-alive connections in all, shared by the servers driven (a load balancer's pool to its backends). */
const SOCKETS = 256;

/**
 * Every participant autosaves every INTERVAL_MS, starting staggered over the first interval, to one of the
 * `origins` (participant n to origin n mod their count). Answers the latencies and errors after the warm-up, the
 * achieved rate over the same span, and the load generator's own event-loop delay (p99), which says whether it
 * kept to its schedule.
 */
async function drive(participants, componentIds, origins, request) {
  const pools = origins.map((origin) => new Pool(origin, Math.floor(SOCKETS / origins.length)));
  const delay = monitorEventLoopDelay({ resolution: 10 });
  // What each step sends: the votes so far, as a participant's autosave grows.
  const bodies = componentIds.map((_, step) =>
    JSON.stringify({
      votes: Object.fromEntries(componentIds.slice(0, 1 + step).map((id) => [id, 'healthy'])),
      comments: {},
      last_component_index: step,
    }),
  );
  const latencies = [];
  let errors = 0;
  /** What each failed request was (status or socket error), so a failure says its cause. */
  const failures = {};
  const started = Date.now();
  delay.enable();
  const participant = async (p, index) => {
    const pool = pools[index % pools.length];
    await new Promise((r) => setTimeout(r, (index / participants.length) * INTERVAL_MS));
    for (let step = 0; Date.now() - started < DURATION_MS; step++) {
      const next = Date.now() + INTERVAL_MS;
      const body = bodies[step % bodies.length];
      const sent = Date.now() - started;
      const { ok, why, ms } = await request(pool, p, body);
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
  delay.disable();
  for (const pool of pools) pool.close();
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / seconds,
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
    errors,
    failures,
    generatorDelayP99: delay.percentile(99) / 1e6,
  };
}

/**
 * The soak against our server, then (`twoProcesses`) against two processes of it on the same database, as
 * docs/operations.md runs several behind a load balancer, then against the same-SQL baseline server on the same
 * rows.
 */
async function soak(databaseUrl, count, twoProcesses) {
  const secret = randomBytes(32).toString('base64url');
  const apps = [await startApp({ databaseUrl, secret })];
  let ours;
  let two;
  let participants;
  let componentIds;
  try {
    const check = await setUpCheck(apps[0].url);
    componentIds = check.componentIds;
    participants = await addParticipants({
      database: databaseUrl,
      healthCheckId: check.healthCheckId,
      secret,
      count,
    });
    const path = `/api/health-checks/${check.healthCheckId}/responses`;
    const save = (pool, p, body) => pool.put(path, body, p.cookie);
    ours = await drive(participants, componentIds, [apps[0].url], save);
    if (twoProcesses) {
      apps.push(await startApp({ databaseUrl, secret }));
      two = await drive(
        participants,
        componentIds,
        apps.map((app) => app.url),
        save,
      );
    }
  } finally {
    for (const app of apps) await app.stop();
  }
  const sameSql = await baseline('sql', databaseUrl);
  try {
    const base = await drive(participants, componentIds, [sameSql.url], (pool, p, body) =>
      pool.put(`/${p.participantId}`, body),
    );
    return { ours, two, base, expected: (count * 1000) / INTERVAL_MS };
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
      results.push(skippedWithoutPostgres(name));
      continue;
    }
    const twoProcesses = count === Math.max(...SIZES);
    const { ours, two, base, expected } = await withScratchDatabase(pgUrl, (url) =>
      soak(url, count, twoProcesses),
    );
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
      result({
        name,
        metric: "load generator's event-loop delay p99 (baseline: the same-SQL soak's)",
        unit: 'ms',
        value: ours.generatorDelayP99,
        baseline: base.generatorDelayP99,
      }),
    );
    if (two)
      results.push(
        result({
          name,
          metric: `two server processes: p99 latency, ${Math.round(two.rps)} req/s served, ${two.errors} errors (baseline: one process)`,
          unit: 'ms',
          value: two.p99,
          baseline: ours.p99,
        }),
      );
  }
  return results;
}
