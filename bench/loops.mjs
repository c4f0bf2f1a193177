// loop-insights: the insights endpoint of a loop with a 10,000-member audience, 52 rounds and 5 questions (2.6
// million answers), timed in the same process against the bare SQL aggregate of those answers, both databases.
// loop-round-open: 'Start Next Round Now' for 10,000 members (their personal links, e-mails and bell notices
// queued) on the production server, while 50 participants autosave health-check answers against it.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { addParticipants, call, openQuery, setUpCheck, startApp } from './app-server.mjs';
import { withScratchDatabase } from './autosave.mjs';
import { Pool } from './http-load.mjs';
import { result } from './report.mjs';

const AUDIENCE = Number(process.env.BENCH_LOOP_AUDIENCE ?? 10_000);
const AUTOSAVERS = 50;
/** Each autosaving participant saves every 250 ms: 200 a second in all, well above what 50 people typing send. */
const AUTOSAVE_INTERVAL_MS = 250;
const AUTOSAVE_RATE = (AUTOSAVERS * 1000) / AUTOSAVE_INTERVAL_MS;

/**
 * The autosaving participants until the time `end()` answers (Infinity while not known yet). Each saves every
 * AUTOSAVE_INTERVAL_MS over a connection of its own, kept open (`pools`, one per participant, as each person's
 * browser keeps one), their turns spread evenly over the interval as people's are. (autocannon's `overallRate`
 * lets every connection send its share at the start of each second, a burst of 200 at once, and its p99 then
 * measures how fast a burst drains; one pool of connections for everyone opens new ones whenever the server is
 * slow for a moment, which measures how fast it accepts connections.) A save slower than the interval makes its
 * participant skip the turns it missed, so `answered`, the share of the turns due before the end that were
 * answered, shows a server that kept people waiting.
 */
async function autosaving(path, savers, pools, body, end) {
  const latencies = [];
  let errors = 0;
  let due = 0;
  const start = performance.now();
  await Promise.all(
    savers.map(async (saver, index) => {
      const first = start + (index / savers.length) * AUTOSAVE_INTERVAL_MS;
      for (let at = first; at < end();) {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - performance.now())));
        const { ok, ms } = await pools[index].put(path, body, saver.cookie);
        if (!ok) errors += 1;
        latencies.push(ms);
        do at += AUTOSAVE_INTERVAL_MS;
        while (at < performance.now());
      }
      due += Math.max(0, Math.ceil((end() - first) / AUTOSAVE_INTERVAL_MS));
    }),
  );
  latencies.sort((a, b) => a - b);
  return {
    p99: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
    answered: latencies.length / due,
    errors,
  };
}

function runInsightsWorker(databaseUrl = '') {
  const run = spawnSync(
    'npx',
    ['tsx', path.join(import.meta.dirname, 'loop-insights-worker.ts'), databaseUrl],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  if (run.status !== 0 || !line.startsWith('{')) throw new Error(`insights worker failed:\n${run.stdout}`);
  return JSON.parse(line);
}

function insightsFigures(kind, { endpointMs, aggregateMs, storedMs, answers, rounds }) {
  const name = `loop-insights (${kind}, ${answers.toLocaleString('en-US')} answers, ${rounds} rounds)`;
  return [
    result({ name, metric: 'endpoint time (median)', unit: 'ms', value: endpointMs, target: { max: 100 } }),
    result({
      name,
      metric: 'endpoint vs the bare SQL aggregate of the answers',
      unit: 'ms',
      value: endpointMs,
      baseline: aggregateMs,
      target: { maxRatio: 2 },
    }),
    result({
      name,
      metric: 'endpoint vs its own read of the counts stored at close',
      unit: 'ms',
      value: endpointMs,
      baseline: storedMs,
    }),
  ];
}

export async function benchLoopInsights() {
  const results = insightsFigures('embedded', runInsightsWorker());
  const pgUrl = process.env.BENCH_DATABASE_URL;
  if (pgUrl)
    results.push(
      ...insightsFigures(
        'PostgreSQL',
        await withScratchDatabase(pgUrl, async (url) => runInsightsWorker(url)),
      ),
    );
  return results;
}

/** The workspace's other members, straight in the database (accounts without passwords), up to `total`. */
async function addMembers(database, healthCheckId, count) {
  const query = await openQuery(database);
  const stamp = randomBytes(3).toString('hex');
  await query(
    `insert into "user" (id, name, email, email_verified)
     select 'bench-m-' || $1 || '-' || g, 'Member ' || g, 'bench-m-' || $1 || '-' || g || '@example.com', true
     from generate_series(1, $2::int) g`,
    [stamp, count],
  );
  await query(
    `insert into workspace_members (workspace_id, user_id, access)
     select (select workspace_id from health_checks where id = $3), 'bench-m-' || $1 || '-' || g, 'participant'
     from generate_series(1, $2::int) g`,
    [stamp, count, healthCheckId],
  );
  // What autovacuum (PostgreSQL) or the server's own maintenance (embedded, db/maintenance.ts) does within a
  // minute of a bulk insert: without it the planner would still think the tables were nearly empty.
  await query('vacuum (analyze)');
  await query.close();
}

async function roundFigures(database, loopId) {
  const query = await openQuery(database);
  const [row] = await query(
    `select r.audience,
            (select count(*) from loop_round_recipients c where c.round_id = r.id)::int as invited,
            (select count(*) from mail_outbox where kind = 'loop-round')::int as mails
     from loop_rounds r where r.loop_id = $1 order by r.number desc limit 1`,
    [loopId],
  );
  await query.close();
  return row;
}

async function benchRoundOpen(kind, databaseUrl) {
  const secret = randomBytes(32).toString('base64url');
  let app = await startApp({ databaseUrl, secret });
  const { healthCheckId, adminCookie, componentIds } = await setUpCheck(app.url);
  const database = databaseUrl || path.join(app.dataDir, 'pglite');
  if (!databaseUrl) await app.stop();
  const savers = await addParticipants({ database, healthCheckId, secret, count: AUTOSAVERS });
  // The admin, the participant of the set-up and the autosaving participants are members too.
  await addMembers(database, healthCheckId, AUDIENCE - AUTOSAVERS - 2);
  if (!databaseUrl) app = await startApp({ dataDir: app.dataDir, secret });

  const me = await (await call(app.url, 'GET', '/api/me', { cookie: adminCookie })).json();
  const start = new Date(Date.now() + 21 * 86_400_000).toISOString().slice(0, 10);
  const loop = await (
    await call(app.url, 'POST', '/api/loops', {
      cookie: adminCookie,
      body: {
        title: 'Benchmark pulse',
        description: '',
        questions: [
          { kind: 'scale', text: 'How was your week?', lowLabel: 'Rough', highLabel: 'Great' },
          { kind: 'enps', text: 'How likely are you to recommend the team?' },
          { kind: 'text', text: 'Anything else?' },
        ],
        audience: { kind: 'all' },
        cadence: 'weekly',
        weekday: 'monday',
        time: '09:00',
        timeZone: 'Europe/Berlin',
        roundDays: 3,
        start,
        workspaceId: me.user.activeWorkspaceId,
        launchKey: `bench-${randomBytes(4).toString('hex')}`,
      },
    })
  ).json();

  const body = JSON.stringify({
    votes: Object.fromEntries(componentIds.slice(0, 3).map((id) => [id, 'healthy'])),
    comments: {},
    last_component_index: 3,
  });
  const pools = savers.map(() => new Pool(app.url, 1));
  const autosaves = (end) =>
    autosaving(`/api/health-checks/${healthCheckId}/responses`, savers, pools, body, end);
  const forSeconds = (seconds) => {
    const end = performance.now() + seconds * 1000;
    return () => end;
  };
  // A server that just started compiles its code paths on the first requests: warm it as traffic would.
  await autosaves(forSeconds(3));
  // The same load without a round opening: what the machine gives at the time.
  const quiet = await autosaves(forSeconds(5));
  // The load from a second before the opening until a second after it ended.
  let ended = Infinity;
  const load = autosaves(() => ended + 1000);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const opening = performance.now();
  await call(app.url, 'POST', `/api/loops/${loop.id}/rounds`, { cookie: adminCookie });
  ended = performance.now();
  const openMs = ended - opening;
  const saves = await load;
  for (const pool of pools) pool.close();
  await app.stop();
  const round = await roundFigures(database, loop.id);
  if (round.audience !== AUDIENCE || round.invited !== AUDIENCE || round.mails < AUDIENCE)
    throw new Error(`round not fully opened: ${JSON.stringify(round)}`);

  const name = `loop-round-open (${kind}, ${AUDIENCE.toLocaleString('en-US')} members)`;
  return [
    result({
      name,
      metric: 'round opened, links and e-mails queued',
      unit: 'ms',
      value: openMs,
      target: { max: 5000 },
    }),
    result({
      name,
      metric: `p99 of autosaves meanwhile (${AUTOSAVERS} participants, ${AUTOSAVE_RATE}/s; baseline: no round opening)`,
      unit: 'ms',
      value: saves.p99,
      baseline: quiet.p99,
      target: { max: 100 },
    }),
    result({
      name,
      metric: 'share of the autosaves due meanwhile that were answered (baseline: no round opening)',
      value: Number(saves.answered.toFixed(3)),
      baseline: Number(quiet.answered.toFixed(3)),
      target: { min: 0.95 },
    }),
    result({
      name,
      metric: 'autosave errors and non-2xx',
      value: saves.errors + quiet.errors,
      target: { max: 0 },
    }),
  ];
}

export async function benchLoopRoundOpen() {
  const results = await benchRoundOpen('embedded', '');
  const pgUrl = process.env.BENCH_DATABASE_URL;
  if (pgUrl) results.push(...(await withScratchDatabase(pgUrl, (url) => benchRoundOpen('PostgreSQL', url))));
  return results;
}
