// Run by bench/loops.mjs through tsx: builds the app in this process on a fresh database, generates a loop with a
// 10,000-member audience, 52 closed rounds and 5 questions (2.6 million answers) by bulk SQL, counts each round as
// closing does, and times the insights endpoint against the bare SQL it needs. Prints one JSON line.
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client';
import { insightsData, storeRoundCounts } from '../apps/server/src/features/loops/queries';
import { benchApp, median, pairedMedians } from './worker-support';

const AUDIENCE = Number(process.env.BENCH_LOOP_AUDIENCE ?? 10_000);
const ROUNDS = Number(process.env.BENCH_LOOP_ROUNDS ?? 52);
const RUNS = 30;

const { db, app, cookie, adminId, close } = await benchApp(process.argv[2] || undefined, 'insights');
const [ids] = await queryRows<{ workspace_id: string; loop_id: string }>(
  db,
  sql`with org as (insert into organizations (name, created_by) values ('Bench', ${adminId}) returning id),
      ws as (insert into workspaces (name, organization_id, is_default) select 'Bench', id, true from org returning id),
      m as (insert into workspace_members (workspace_id, user_id, access, role) select id, ${adminId}, 'admin', 'Admin' from ws),
      l as (insert into loops (workspace_id, title, audience_kind, cadence, weekday, time, time_zone, anchor_date,
                               round_days, anonymous, min_responses, reminder, created_by)
            select id, 'Weekly pulse', 'all', 'weekly', 'monday', '09:00', 'Europe/Berlin', '2025-01-06', 3, true, 3,
                   true, ${adminId} from ws returning id)
      select (select id from ws) as workspace_id, (select id from l) as loop_id`,
);
const { workspace_id: workspaceId, loop_id: loopId } = ids!;

// The audience, four scale questions and an eNPS question, 52 closed weekly rounds sent to everyone.
await db.execute(sql`
  insert into "user" (id, name, email, email_verified)
  select 'bench-u-' || g, 'Member ' || g, 'm' || g || '@bench.example', true from generate_series(1, ${AUDIENCE}) g`);
await db.execute(sql`
  insert into workspace_members (workspace_id, user_id, access)
  select ${workspaceId}, 'bench-u-' || g, 'participant' from generate_series(1, ${AUDIENCE}) g`);
await db.execute(sql`
  insert into loop_questions (loop_id, kind, text, low_label, high_label, position)
  select ${loopId}, case when g = 5 then 'enps' else 'scale' end, 'Question ' || g,
         case when g = 5 then null else 'Low' end, case when g = 5 then null else 'High' end, g - 1
  from generate_series(1, 5) g`);
await db.execute(sql`
  insert into loop_rounds (loop_id, number, status, opened_at, closes_at, closed_at, audience, answered, anonymous,
                           min_responses, question_ids)
  select ${loopId}, n, 'closed', timestamptz '2025-01-06 08:00Z' + (n - 1) * interval '7 days',
         timestamptz '2025-01-09 08:00Z' + (n - 1) * interval '7 days',
         timestamptz '2025-01-09 08:00Z' + (n - 1) * interval '7 days',
         ${AUDIENCE}, ${AUDIENCE}, true, 3,
         (select array_agg(id order by position) from loop_questions where loop_id = ${loopId})
  from generate_series(1, ${ROUNDS}) n`);
// Each round: a response per respondent, an answer to each question (as sealing leaves them: random ids).
await db.execute(sql`
  insert into loop_responses (round_id, anonymous)
  select r.id, true from loop_rounds r cross join lateral generate_series(1, r.answered) g
  where r.loop_id = ${loopId}`);
await db.execute(sql`
  insert into loop_answers (response_id, question_id, score)
  select p.id, q.id,
         case when q.kind = 'enps' then abs(hashtext(p.id::text || q.id::text)) % 11
              else 1 + abs(hashtext(p.id::text || q.id::text)) % 5 end
  from loop_responses p join loop_rounds r on r.id = p.round_id
  cross join loop_questions q
  where r.loop_id = ${loopId} and q.loop_id = ${loopId}`);
// What closing stores for each round (its GROUP BY), then what autovacuum (or the embedded database's maintenance)
// does to freshly loaded tables.
const rounds = await queryRows<{ id: string }>(db, sql`select id from loop_rounds where loop_id = ${loopId}`);
for (const round of rounds) await storeRoundCounts(db, round.id);
await db.execute(sql`vacuum (analyze)`);
const [{ answers } = { answers: 0 }] = await queryRows<{ answers: number }>(
  db,
  sql`select count(*)::int as answers from loop_answers`,
);

// The bare SQL the endpoint needs: its own query function, so the two cannot drift apart.
const aggregate = () => insightsData(db, loopId);
const endpoint = async () => {
  const response = await app.request(`/api/loops/${loopId}/insights`, { headers: { cookie } });
  if (response.status !== 200)
    throw new Error(`insights answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { lines: { points: unknown[] }[]; participation: unknown[] };
  if (body.lines.length !== 5 || body.lines[0]?.points.length !== ROUNDS)
    throw new Error('insights incomplete');
};

const [endpointMs, aggregateMs] = await pairedMedians(endpoint, aggregate, RUNS);
// For scale: the GROUP BY over every answer that the stored counts spare each call.
const liveMs = await median(
  () =>
    queryRows(
      db,
      sql`select p.round_id, a.question_id, a.score, count(*)
          from loop_rounds r join loop_responses p on p.round_id = r.id join loop_answers a on a.response_id = p.id
          where r.loop_id = ${loopId} group by p.round_id, a.question_id, a.score`,
    ),
  3,
);
console.log(JSON.stringify({ endpointMs, aggregateMs, liveMs, answers, rounds: ROUNDS, audience: AUDIENCE }));
await close();
process.exit(0);
