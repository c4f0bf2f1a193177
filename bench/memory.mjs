// memory and start-up: what a self-hoster's small server feels first.
// - memory (embedded): resident memory (RSS) of the server process idle after its first start on a new data
//   folder, against a bare PGlite process holding the same database; then the peak RSS under the autosave
//   load, against that idle figure.
// - memory (PostgreSQL): idle RSS of the server process on a PostgreSQL server (its memory is then the app's).
// - start-up (embedded): from process start to a ready server on an existing data folder (/api/ready: migrations
//   checked, database answering; /api/health, the liveness probe, answers as soon as the process listens), against
//   the time a bare PGlite process takes to open the same folder and answer a query.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { addParticipants, freePort, setUpCheck, spawnServer, startApp } from './app-server.mjs';
import { withScratchDatabase } from './autosave.mjs';
import { result, skippedWithoutPostgres } from './report.mjs';

const root = path.join(import.meta.dirname, '..');
const IDLE_MS = 5000;

/** Resident memory of a process in MiB, from /proc (Linux). */
const rssMiB = (pid) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Idle RSS: the largest of a few readings after the process has settled for IDLE_MS. */
async function idleRss(pid) {
  await sleep(IDLE_MS);
  let max = 0;
  for (let i = 0; i < 10; i++) {
    max = Math.max(max, rssMiB(pid));
    await sleep(100);
  }
  return max;
}

/** A bare PGlite process that opens `folder` and answers one query: its open time and its idle RSS. */
async function barePglite(folder) {
  const script = `
    import { PGlite } from '@electric-sql/pglite';
    const started = performance.now();
    // The server's own settings (PGLITE_START_PARAMS in apps/server/src/db/client.ts).
    const db = await PGlite.create(process.argv[1], {
      startParams: [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'],
    });
    await db.query('select count(*) from health_checks');
    process.send({ openMs: performance.now() - started });
    process.on('message', async () => { await db.close(); process.exit(0); });`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, folder], {
    cwd: path.join(root, 'apps/server'),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const { openMs } = await new Promise((resolve) => child.once('message', resolve));
  const rss = await idleRss(child.pid);
  child.send('stop');
  await new Promise((r) => child.once('exit', r));
  return { openMs, rss };
}

/** Milliseconds from spawning the built server on `dataDir` to its first 200 from /api/ready. */
async function startUpMs(dataDir, secret) {
  const port = await freePort();
  const started = performance.now();
  const { child, url } = await spawnServer({ port, dataDir, secret });
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/api/ready`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    await sleep(10);
  }
  const ms = performance.now() - started;
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return ms;
}

/** Peak RSS of `pid` while autocannon autosaves as `participants` for 10 s. */
async function peakUnderAutosave(pid, url, participants, componentIds) {
  let peak = rssMiB(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMiB(pid))), 50);
  let next = 0;
  const body = JSON.stringify({
    votes: Object.fromEntries(componentIds.slice(0, 3).map((id) => [id, 'healthy'])),
    comments: { [componentIds[0]]: 'Works well for us' },
    last_component_index: 3,
  });
  await autocannon({
    url,
    method: 'PUT',
    connections: 100,
    duration: 10,
    headers: { 'content-type': 'application/json' },
    body,
    requests: [
      {
        setupRequest: (request) => ({
          ...request,
          headers: { ...request.headers, cookie: participants[next++ % participants.length].cookie },
        }),
      },
    ],
  });
  clearInterval(sampler);
  return peak;
}

async function embedded() {
  const secret = randomBytes(32).toString('base64url');
  // First start: a new data folder, created, migrated and seeded by the server itself.
  let app = await startApp({ secret });
  const idle = await idleRss(app.pid);
  const { healthCheckId, componentIds } = await setUpCheck(app.url);
  await app.stop();
  const folder = path.join(app.dataDir, 'pglite');
  const participants = await addParticipants({ database: folder, healthCheckId, secret, count: 100 });
  const bare = await barePglite(folder);
  const startUp = [];
  for (let i = 0; i < 3; i++) startUp.push(await startUpMs(app.dataDir, secret));
  startUp.sort((a, b) => a - b);
  app = await startApp({ dataDir: app.dataDir, secret });
  const restartIdle = await idleRss(app.pid);
  const peak = await peakUnderAutosave(
    app.pid,
    `${app.url}/api/health-checks/${healthCheckId}/responses`,
    participants,
    componentIds,
  );
  await app.stop();
  return { idle, restartIdle, peak, bare, startUp: startUp[1] };
}

/** The idle limit: 300 MiB, or the bare figure + 100 where a bare PGlite process already needs more. */
const idleLimit = (bare) => (bare > 300 ? Math.round(bare + 100) : 300);

export async function benchMemory() {
  const e = await embedded();
  const results = [
    result({
      name: 'memory (embedded) idle RSS MiB',
      metric: 'after the first start on a new data folder (baseline: bare PGlite holding the same database)',
      unit: 'MiB',
      value: e.idle,
      baseline: e.bare.rss,
      target: { max: idleLimit(e.bare.rss) },
    }),
    result({
      name: 'memory (embedded) idle RSS MiB',
      metric: 'after a restart on the same data folder',
      unit: 'MiB',
      value: e.restartIdle,
      baseline: e.bare.rss,
      target: { max: idleLimit(e.bare.rss) },
    }),
    result({
      name: 'memory (embedded) peak RSS under autosave MiB',
      metric: 'peak during 10 s of autosaves, 100 connections (baseline: idle after restart)',
      unit: 'MiB',
      value: e.peak,
      baseline: e.restartIdle,
      target: { maxRatio: 2 },
    }),
    result({
      name: 'start-up (embedded)',
      metric: 'process start to /api/ready, existing data folder, median of 3 (baseline: bare PGlite open)',
      unit: 'ms',
      value: e.startUp,
      baseline: e.bare.openMs,
      target: { max: 2000 },
    }),
  ];
  const pgUrl = process.env.BENCH_DATABASE_URL;
  if (!pgUrl) {
    results.push(skippedWithoutPostgres('memory (PostgreSQL) idle RSS MiB'));
    return results;
  }
  const pgIdle = await withScratchDatabase(pgUrl, async (databaseUrl) => {
    const app = await startApp({ databaseUrl, secret: randomBytes(32).toString('base64url') });
    try {
      return await idleRss(app.pid);
    } finally {
      await app.stop();
    }
  });
  results.push(
    result({
      name: 'memory (PostgreSQL) idle RSS MiB',
      metric: 'after start-up, no traffic',
      unit: 'MiB',
      value: pgIdle,
      target: { max: 150 },
    }),
  );
  return results;
}
