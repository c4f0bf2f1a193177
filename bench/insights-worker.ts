// Run by bench/org-insights.mjs through tsx: builds the app in this process on a fresh database, generates an
// organisation of BENCH_WORKSPACES workspaces (500), each with two completed checks of 20 participants rating the 29
// catalogue components (580,000 ratings at full size), by bulk SQL; times the heat map endpoint against the bare SQL
// aggregate it runs; and, with `--page`, serves the built web app and measures the insights page in Chromium (the
// longest main-thread task while it loads, scrolls across every column and re-sorts). Prints one JSON line.
import { serve } from '@hono/node-server';
import { sql } from 'drizzle-orm';
import { chromium } from 'playwright-core';
import { GLOBAL_TEMPLATE_ID } from '../apps/server/src/db/catalogue';
import { queryRows } from '../apps/server/src/db/client';
import { teams } from '../apps/server/src/features/insights/queries';
import { inProcessApp, medians } from './in-process';

const WORKSPACES = Number(process.env.BENCH_WORKSPACES ?? 500);
const PEOPLE = 20;
/** Done action items per workspace, each asked about by its second check (decision 0019, 'Actions that worked'). */
const ACTIONS = 4;
const ROUNDS = 30;

const databaseUrl = process.argv.slice(2).find((arg) => arg.startsWith('postgres')) || undefined;
const measurePage = process.argv.includes('--page');
// The organisation's owner, signed in.
// No statement timeout: the bulk set-up below can outlast the server's 5 s on PostgreSQL on a busy machine.
const {
  db,
  app,
  cookies,
  cookie,
  adminId: ownerId,
  close,
} = await inProcessApp('insights', databaseUrl, {
  DATABASE_STATEMENT_TIMEOUT_MS: '0',
});

const [org] = await queryRows<{ id: string }>(
  db,
  sql`insert into organizations (name, created_by) values ('Bench Org', ${ownerId}) returning id`,
);
const organizationId = org!.id;
const settings = JSON.stringify({
  minResponses: 3,
  allowAnonymous: true,
  enableComments: true,
  votesPerPerson: 5,
  showResultsAfterVoting: true,
});
await db.execute(sql`
  insert into workspaces (name, organization_id, is_default, created_by)
  select 'Team ' || lpad(g::text, 3, '0'), ${organizationId}, g = 1, ${ownerId} from generate_series(1, ${WORKSPACES}) g`);
await db.execute(sql`
  insert into workspace_members (workspace_id, user_id, access, role)
  select id, ${ownerId}, 'admin', 'Admin' from workspaces where organization_id = ${organizationId}`);
// Each workspace: 20 people, two completed checks of the catalogue (40 and 5 days ago), all 20 completed in both.
await db.execute(sql`
  insert into "user" (id, name, email, email_verified)
  select 'bench-' || w.id || '-' || p, 'Person ' || p, 'p' || p || '-' || w.id || '@bench.example', true
  from workspaces w cross join generate_series(1, ${PEOPLE}) p where w.organization_id = ${organizationId}`);
await db.execute(sql`
  insert into workspace_members (workspace_id, user_id, access)
  select w.id, 'bench-' || w.id || '-' || p, 'participant'
  from workspaces w cross join generate_series(1, ${PEOPLE}) p where w.organization_id = ${organizationId}`);
await db.execute(sql`
  insert into health_checks (title, settings, workspace_id, template_id, created_by, phase, status, completed_at)
  select 'Check ' || n, ${settings}::jsonb, w.id, ${GLOBAL_TEMPLATE_ID}, ${ownerId}, 'summarize', 'completed',
         now() - make_interval(days => case n when 1 then 40 else 5 end)
  from workspaces w cross join generate_series(1, 2) n where w.organization_id = ${organizationId}`);
await db.execute(sql`
  insert into participants (health_check_id, user_id, status, completed_at, progress)
  select h.id, 'bench-' || h.workspace_id || '-' || p, 'completed', h.completed_at, 100
  from health_checks h cross join generate_series(1, ${PEOPLE}) p
  join workspaces w on w.id = h.workspace_id where w.organization_id = ${organizationId}`);
await db.execute(sql`
  insert into health_check_ratings (health_check_id, component_id, participant_id, rating)
  select p.health_check_id, c.id, p.id,
         (array['healthy','needs-improvement','fire-warning','dont-know'])[1 + (abs(hashtext(p.id::text || c.id::text)) % 4)]
  from participants p cross join health_check_components c
  where c.template_id = ${GLOBAL_TEMPLATE_ID}`);
// 'Actions that worked': per workspace 4 action items of its first check, done 30 days ago, each asked about by its
// second check and answered by about half its participants.
await db.execute(sql`
  insert into action_items (health_check_id, component_id, description, owner_id, status, completed_at, created_by)
  select h.id, c.id, 'Action ' || g, ${ownerId}, 'completed', now() - interval '30 days', ${ownerId}
  from health_checks h join workspaces w on w.id = h.workspace_id
  cross join generate_series(1, ${ACTIONS}) g
  join health_check_components c on c.template_id = ${GLOBAL_TEMPLATE_ID} and c.order_index = g * 3
  where w.organization_id = ${organizationId} and h.title = 'Check 1'`);
await db.execute(sql`
  insert into follow_up_questions (health_check_id, action_item_id, component_id)
  select n.id, a.id, a.component_id
  from action_items a join health_checks o on o.id = a.health_check_id
  join health_checks n on n.workspace_id = o.workspace_id and n.title = 'Check 2'`);
await db.execute(sql`
  insert into follow_up_answers (question_id, health_check_id, participant_id, answer)
  select q.id, q.health_check_id, p.id,
         (array['yes','partly','no','too-early'])[1 + (abs(hashtext(q.id::text || p.id::text)) % 4)]
  from follow_up_questions q join participants p on p.health_check_id = q.health_check_id
  where abs(hashtext(p.id::text || q.id::text)) % 2 = 0`);
const [{ ratings } = { ratings: 0 }] = await queryRows<{ ratings: number }>(
  db,
  sql`select count(*)::int as ratings from health_check_ratings`,
);
await db.execute(sql`vacuum (analyze)`);

const path_ = `/api/organizations/${organizationId}/insights?period=all`;
// Server time: until the whole answer is read (the client parsing its JSON is not the server's time).
const endpoint = async () => {
  const response = await app.request(path_, { headers: { cookie } });
  if (response.status !== 200)
    throw new Error(`insights answered ${response.status}: ${await response.text()}`);
  return response.text();
};
// The bare SQL the endpoint runs: its own query function, so the two cannot drift apart.
const aggregate = () => teams(db, organizationId);
// The bare SQL aggregate of the ratings the heat map stands for (every completed check's counts per component and
// rating): what each read would run without the per-check sums of decision 0011.
const ratingsAggregate = () =>
  db.execute(sql`
    select h.workspace_id, h.id, r.component_id, r.rating, count(*)::int as n
    from health_checks h join workspaces w on w.id = h.workspace_id
    join health_check_ratings r on r.health_check_id = h.id
    where w.organization_id = ${organizationId} and h.status = 'completed'
    group by h.workspace_id, h.id, r.component_id, r.rating`);

// The first call sums every completed check once (decision 0011); it is timed on its own.
const firstStart = performance.now();
const first = JSON.parse(await endpoint()) as { teams: unknown[] };
const firstCallMs = performance.now() - firstStart;
if (first.teams.length !== WORKSPACES) throw new Error(`${first.teams.length} teams, not ${WORKSPACES}`);
await aggregate();
const [endpointMs = 0, aggregateMs = 0, ratingsAggregateMs = 0] = await medians(
  [endpoint, aggregate, ratingsAggregate],
  ROUNDS,
);
// 'Actions that worked' (decision 0019): its first call stores the questions' answer counts once; then timed alone.
const actionsPath = `/api/organizations/${organizationId}/insights/actions?period=all`;
const actionsEndpoint = async () => {
  const response = await app.request(actionsPath, { headers: { cookie } });
  if (response.status !== 200)
    throw new Error(`actions answered ${response.status}: ${await response.text()}`);
  return response.text();
};
const actionsFirstStart = performance.now();
const actionsFirst = JSON.parse(await actionsEndpoint()) as {
  teams: unknown[];
  organisation: { done: number; answered: number };
};
const actionsFirstCallMs = performance.now() - actionsFirstStart;
if (actionsFirst.teams.length !== WORKSPACES || actionsFirst.organisation.done !== WORKSPACES * ACTIONS)
  throw new Error(`actions: ${actionsFirst.teams.length} teams, ${actionsFirst.organisation.done} done`);
if (actionsFirst.organisation.answered === 0) throw new Error('actions: no answers counted');
const [actionsEndpointMs = 0] = await medians([actionsEndpoint], ROUNDS);

/** The insights page in Chromium: the longest main-thread task while it loads, scrolls every column and re-sorts. */
async function pageLongestTask() {
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  const address = server.address();
  const origin = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addCookies(
      cookies.map((pair) => {
        const [name = '', ...value] = pair.split('=');
        return { name, value: value.join('='), url: origin };
      }),
    );
    // Every long task of the page from its first script on, with when it started and what the page was doing.
    await context.addInitScript({
      content: `window.longTasks = [];
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries())
            window.longTasks.push({ ms: entry.duration, phase: document.documentElement.dataset.phase || 'load' });
        }).observe({ type: 'longtask', buffered: true });`,
    });
    const page = await context.newPage();
    await page.goto(`${origin}/admin/insights?period=all`);
    const map = page.getByTestId('heat-map');
    await map.getByTestId('team-column').first().waitFor();
    const phase = (name: string) => page.evaluate(`document.documentElement.dataset.phase = '${name}'`);
    await phase('scroll');
    // Browser-side code as text: this file is type-checked for Node, without the DOM's types.
    const scrollTo = (left: string) =>
      page.evaluate(`document.querySelector('[data-testid="heat-map"]').scrollTo({ left: ${left} })`);
    const width = Number(
      await page.evaluate(`document.querySelector('[data-testid="heat-map"]').scrollWidth`),
    );
    for (let left = 0; left <= width; left += 800) {
      await scrollTo(String(left));
      await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 30)))');
    }
    await phase('sort');
    const lastTeam = `Team ${String(WORKSPACES).padStart(3, '0')}`;
    await page.getByLabel('Sort teams by').selectOption('name');
    await scrollTo('1e9');
    await map.getByTestId('team-column').filter({ hasText: lastTeam }).waitFor();
    const tasks = await page.evaluate<{ ms: number; phase: string }[]>('window.longTasks');
    const longest = tasks.reduce((a, b) => (b.ms > a.ms ? b : a), { ms: 0, phase: 'none' });
    return { longestTaskMs: longest.ms, longestTaskPhase: longest.phase, longTasks: tasks.length };
  } finally {
    await browser.close();
    server.close();
  }
}

const page = measurePage ? await pageLongestTask() : null;
console.log(
  JSON.stringify({
    endpointMs,
    aggregateMs,
    ratingsAggregateMs,
    firstCallMs,
    actionsEndpointMs,
    actionsFirstCallMs,
    ratings,
    workspaces: WORKSPACES,
    ...(page ?? {}),
  }),
);
await close();
process.exit(0);
