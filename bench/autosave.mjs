// autosave: PUT /api/health-checks/{id}/responses (real session, real write) under autocannon, 100
// connections for 10 s, against a bare node:http JSON server and a node:http server running the same UPDATE
// on the same database. Run on the embedded database and, with BENCH_DATABASE_URL, on PostgreSQL.
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import autocannon from 'autocannon';
import postgres from 'postgres';
import { addParticipants, freePort, setUpCheck, startApp } from './app-server.mjs';
import { result, skippedWithoutPostgres } from './report.mjs';

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 100);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);

/**
 * autocannon's load; request n goes as participant n mod their count, so the connections write different rows,
 * as real participants do (each client has at most one autosave in flight).
 */
async function load(url, participants, { body, as }) {
  let next = 0;
  const run = await autocannon({
    url,
    method: 'PUT',
    connections: CONNECTIONS,
    duration: DURATION,
    headers: { 'content-type': 'application/json' },
    body,
    requests: [
      {
        setupRequest: (request) => {
          const participant = participants[next++ % participants.length];
          return as === 'cookie'
            ? { ...request, headers: { ...request.headers, cookie: participant.cookie } }
            : { ...request, path: `/${participant.participantId}` };
        },
      },
    ],
  });
  return {
    rps: run.requests.average,
    p50: run.latency.p50,
    p99: run.latency.p99,
    errors: run.errors + run.non2xx,
  };
}

export async function baseline(mode, database) {
  const port = await freePort();
  const child = fork(path.join(import.meta.dirname, 'baseline-server.mjs'), [mode, String(port), database], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  await new Promise((resolve) => child.once('message', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () => new Promise((r) => (child.once('exit', r), child.kill())),
  };
}

export async function benchOne(kind, databaseUrl) {
  const secret = randomBytes(32).toString('base64url');
  let app = await startApp({ databaseUrl, secret });
  const { healthCheckId, componentIds } = await setUpCheck(app.url);
  const database = databaseUrl || path.join(app.dataDir, 'pglite');
  // The embedded database has one owner: the participants go in while the server is stopped.
  if (!databaseUrl) await app.stop();
  const participants = await addParticipants({ database, healthCheckId, secret, count: CONNECTIONS });
  if (!databaseUrl) app = await startApp({ dataDir: app.dataDir, secret });
  const body = JSON.stringify({
    votes: Object.fromEntries(componentIds.slice(0, 3).map((id) => [id, 'healthy'])),
    comments: { [componentIds[0]]: 'Works well for us' },
    last_component_index: 3,
  });
  const ours = await load(`${app.url}/api/health-checks/${healthCheckId}/responses`, participants, {
    body,
    as: 'cookie',
  });
  await app.stop();

  const json = await baseline('json', database);
  const bare = await load(json.url, participants, { body, as: 'path' });
  await json.stop();
  const sqlServer = await baseline('sql', database);
  const sameSql = await load(sqlServer.url, participants, { body, as: 'path' });
  await sqlServer.stop();

  const name = `autosave (${kind})`;
  return [
    result({
      name,
      metric: 'req/s vs same-SQL node:http',
      unit: 'req/s',
      value: ours.rps,
      baseline: sameSql.rps,
      target: { minRatio: 0.7 },
    }),
    result({
      name,
      metric: 'req/s vs bare node:http JSON',
      unit: 'req/s',
      value: ours.rps,
      baseline: bare.rps,
    }),
    result({
      name,
      metric: 'p50 latency (baseline: same SQL)',
      unit: 'ms',
      value: ours.p50,
      baseline: sameSql.p50,
    }),
    result({
      name,
      metric: 'p99 latency (baseline: same SQL)',
      unit: 'ms',
      value: ours.p99,
      baseline: sameSql.p99,
    }),
    result({ name, metric: 'errors and non-2xx', value: ours.errors, target: { max: 0 } }),
  ];
}

/** A fresh database on the PostgreSQL server of BENCH_DATABASE_URL, dropped afterwards. */
export async function withScratchDatabase(adminUrl, run) {
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  const name = `pc_bench_${Date.now().toString(36)}`;
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await run(url.toString());
  } finally {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  }
}

export async function benchAutosave() {
  const results = await benchOne('embedded', '');
  const pgUrl = process.env.BENCH_DATABASE_URL;
  if (pgUrl) results.push(...(await withScratchDatabase(pgUrl, (url) => benchOne('PostgreSQL', url))));
  else results.push(skippedWithoutPostgres('autosave (PostgreSQL)'));
  return results;
}
