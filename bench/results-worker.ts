// Run by bench/results.mjs through tsx: builds the app in this process on a fresh database, generates a check
// with 10,000 completed participants × 29 components and 60 follow-up questions by bulk SQL, and times the results endpoint against the
// bare SQL aggregate of its ratings. Prints one JSON line.
import { sql } from 'drizzle-orm';
import { GLOBAL_TEMPLATE_ID } from '../apps/server/src/db/catalogue';
import { queryRows } from '../apps/server/src/db/client';
import { ratingCounts } from '../apps/server/src/features/results/queries';
import { inProcessApp } from './in-process';

const PARTICIPANTS = Number(process.env.BENCH_PARTICIPANTS ?? 10_000);
/** Follow-up questions about done action items (decision 0019), each answered by a fifth of the participants. */
const FOLLOW_UPS = Number(process.env.BENCH_FOLLOW_UPS ?? 60);
const ROUNDS = 30;

// An admin with a session; below, an organisation and a workspace.
// No statement timeout: the bulk set-up below can outlast the server's 5 s on PostgreSQL on a busy machine.
const { db, app, cookie, adminId, close } = await inProcessApp('results', process.argv[2] || undefined, {
  DATABASE_STATEMENT_TIMEOUT_MS: '0',
});
const [ids] = await queryRows<{ workspace_id: string; check_id: string }>(
  db,
  sql`with org as (insert into organizations (name, created_by) values ('Bench', ${adminId}) returning id),
      ws as (insert into workspaces (name, organization_id, is_default) select 'Bench', id, true from org returning id),
      m as (insert into workspace_members (workspace_id, user_id, access, role) select id, ${adminId}, 'admin', 'Admin' from ws),
      hc as (insert into health_checks (title, settings, workspace_id, template_id, created_by, phase, status, completed_at)
             select 'Scale check', '{"minResponses":3,"allowAnonymous":true,"enableComments":true,"votesPerPerson":5,"showResultsAfterVoting":true}'::jsonb,
                    id, ${GLOBAL_TEMPLATE_ID}, ${adminId}, 'summarize', 'completed', now() from ws returning id)
      select (select id from ws) as workspace_id, (select id from hc) as check_id`,
);
const { workspace_id: workspaceId, check_id: checkId } = ids!;

// 10,000 participants, each with a rating of every component, and a comment on a few.
await db.execute(sql`
  insert into "user" (id, name, email, email_verified)
  select 'bench-u-' || g, 'Participant ' || g, 'p' || g || '@bench.example', true from generate_series(1, ${PARTICIPANTS}) g`);
await db.execute(sql`
  insert into workspace_members (workspace_id, user_id, access)
  select ${workspaceId}, 'bench-u-' || g, 'participant' from generate_series(1, ${PARTICIPANTS}) g`);
await db.execute(sql`
  insert into participants (health_check_id, user_id, status, completed_at)
  select ${checkId}, 'bench-u-' || g, 'completed', now() from generate_series(1, ${PARTICIPANTS}) g`);
await db.execute(sql`
  insert into health_check_ratings (health_check_id, component_id, participant_id, rating)
  select ${checkId}, c.id, p.id,
         (array['healthy','needs-improvement','fire-warning','dont-know'])[1 + (abs(hashtext(p.id::text || c.id::text)) % 4)]
  from participants p cross join health_check_components c
  where p.health_check_id = ${checkId} and c.template_id = ${GLOBAL_TEMPLATE_ID}`);
await db.execute(sql`
  insert into comments (participant_id, target_id, health_check_id, component_id, content)
  select r.participant_id, r.id, r.health_check_id, r.component_id, 'Comment ' || left(r.id::text, 8)
  from health_check_ratings r
  where r.health_check_id = ${checkId} and abs(hashtext(r.id::text)) % 100 = 0`);
// 60 done action items (about the 29 components in turn) asked about by this check, and their answers.
await db.execute(sql`
  insert into action_items (health_check_id, component_id, description, owner_id, status, completed_at, created_by)
  select ${checkId}, c.id, 'Action ' || g, ${adminId}, 'completed', now(), ${adminId}
  from generate_series(1, ${FOLLOW_UPS}) g
  join health_check_components c on c.template_id = ${GLOBAL_TEMPLATE_ID} and c.order_index = (g - 1) % 29`);
await db.execute(sql`
  insert into follow_up_questions (health_check_id, action_item_id, component_id)
  select ${checkId}, a.id, a.component_id from action_items a where a.health_check_id = ${checkId}`);
await db.execute(sql`
  insert into follow_up_answers (question_id, health_check_id, participant_id, answer, comment)
  select q.id, ${checkId}, p.id,
         (array['yes','partly','no','too-early'])[1 + (abs(hashtext(p.id::text || q.id::text)) % 4)],
         case when abs(hashtext(q.id::text || p.id::text)) % 100 = 0 then 'Follow-up ' || left(p.id::text, 8) end
  from follow_up_questions q cross join participants p
  where q.health_check_id = ${checkId} and p.health_check_id = ${checkId} and abs(hashtext(p.id::text)) % 5 = 0`);
// What autovacuum (PostgreSQL) or the server's own maintenance (embedded, apps/server/src/db/maintenance.ts)
// does to freshly loaded tables within a minute: without it, index-only scans still visit every row.
await db.execute(sql`vacuum (analyze)`);

// The bare aggregate: every rating of the check counted per component and rating, by the endpoint's own query
// (ratingCounts), so the two cannot drift apart. The endpoint counts so once, on its first read after collection
// ended, and stores the counts (storeRatingCounts); that first call is reported apart.
const aggregate = () => ratingCounts(db, checkId);
const expected = (await aggregate()).reduce((sum, row) => sum + row.n, 0);
const endpoint = async () => {
  const response = await app.request(`/api/health-checks/${checkId}/results`, { headers: { cookie } });
  if (response.status !== 200)
    throw new Error(`results answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as {
    components: { total: number; followUps: { counts: unknown }[] }[] | null;
  };
  if (!body.components || body.components.length !== 29) throw new Error('results without the 29 components');
  const followUps = body.components.flatMap((c) => c.followUps);
  if (followUps.length !== FOLLOW_UPS || followUps.some((f) => !f.counts))
    throw new Error(`results with ${followUps.length} follow-ups, not ${FOLLOW_UPS} released ones`);
  const total = body.components.reduce((sum, c) => sum + c.total, 0);
  if (total !== expected) throw new Error(`results count ${total} ratings, the aggregate ${expected}`);
};

async function median(run: () => Promise<unknown>) {
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const firstStart = performance.now();
await endpoint();
const firstMs = performance.now() - firstStart;
const endpointMs = await median(endpoint);
const aggregateMs = await median(aggregate);
console.log(
  JSON.stringify({ endpointMs, aggregateMs, firstMs, participants: PARTICIPANTS, followUps: FOLLOW_UPS }),
);
await close();
process.exit(0);
