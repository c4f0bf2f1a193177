// Run by bench/scim.mjs through tsx: builds the app in this process on a fresh database (embedded, or the
// PostgreSQL database in argv[2]), makes an organisation with a verified domain and its SCIM token (through the
// card's own route), provisions 10,000 people in bulk SQL (each an account and its SCIM row, as POST /Users leaves
// them), then times `GET /scim/v2/Users?filter=userName eq "…"` as an identity provider sends it before each
// create, one call at a time (median), and the same by externalId. Also prints the plan of the filtered lookup, so
// the figure is known to come from the index. Prints one JSON line.
import { sql } from 'drizzle-orm';
import { queryRows } from '../apps/server/src/db/client';
import { inProcessApp, medians } from './in-process';

const USERS = Number(process.env.BENCH_SCIM_USERS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_SCIM_ROUNDS ?? 200);
const DOMAIN = 'bench-scim.test';

const { db, app, cookie, adminId, close } = await inProcessApp('scim', process.argv[2] || undefined);
const [org] = await queryRows<{ id: string }>(
  db,
  sql`with org as (insert into organizations (name, created_by) values ('Bench', ${adminId}) returning id),
      ws as (insert into workspaces (name, organization_id, is_default) select 'Bench', id, true from org returning id),
      m as (insert into workspace_members (workspace_id, user_id, access, role) select id, ${adminId}, 'admin', 'Admin' from ws)
      select id from org`,
);
const organizationId = org!.id;
await db.execute(
  sql`insert into sso_provider (id, issuer, provider_id, organization_id, domain)
      values ('org-bench', 'https://idp.bench.test', 'org-bench', ${organizationId}, ${DOMAIN})`,
);
await db.execute(
  sql`insert into organization_sso (organization_id, provider_id) values (${organizationId}, 'org-bench')`,
);
await db.execute(
  sql`insert into sso_domains (domain, organization_id, token, status) values (${DOMAIN}, ${organizationId}, 'bench', 'verified')`,
);
const created = await app.request('/api/organization/scim/token', { method: 'POST', headers: { cookie } });
if (created.status !== 200) throw new Error(`token: ${created.status} ${await created.text()}`);
const { secret } = (await created.json()) as { secret: string };

await db.execute(
  sql`insert into "user" (id, name, email, email_verified)
      select 'bench-scim-' || i, 'Person ' || i, 'person' || i || '@' || ${DOMAIN}, true
      from generate_series(1, ${USERS}) i`,
);
await db.execute(
  sql`insert into scim_users (organization_id, user_id, user_name, external_id, given_name, family_name, created_account)
      select ${organizationId}, 'bench-scim-' || i, 'Person' || i || '@' || ${DOMAIN}, 'ext-' || i, 'Person', i::text, true
      from generate_series(1, ${USERS}) i`,
);
await db.execute(
  sql`insert into workspace_members (workspace_id, user_id, access, status)
      select w.id, 'bench-scim-' || i, 'member', 'active'
      from generate_series(1, ${USERS}) i cross join workspaces w where w.organization_id = ${organizationId}`,
);
await db.execute(sql`vacuum analyze scim_users`);
await db.execute(sql`vacuum analyze workspace_members`);
await db.execute(sql`vacuum analyze "user"`);

const headers = { authorization: `Bearer ${secret}` };
let n = 0;
const lookup = (attribute: string, value: (i: number) => string) => async () => {
  const i = (n++ % USERS) + 1;
  const filter = encodeURIComponent(`${attribute} eq "${value(i)}"`);
  const response = await app.request(`/scim/v2/Users?filter=${filter}`, { headers });
  const body = (await response.json()) as { totalResults: number };
  if (response.status !== 200 || body.totalResults !== 1)
    throw new Error(`${attribute} lookup answered ${response.status}: ${JSON.stringify(body)}`);
};
const [userNameMs, externalIdMs] = await medians(
  [lookup('userName', (i) => `person${i}@${DOMAIN}`), lookup('externalId', (i) => `ext-${i}`)],
  ROUNDS,
);
const plan = await queryRows<{ 'QUERY PLAN': string }>(
  db,
  sql`explain select s.id from scim_users s
      where s.organization_id = ${organizationId} and lower(s.user_name) = lower(${`person5000@${DOMAIN}`})`,
);
const planText = plan.map((row) => row['QUERY PLAN']).join(' | ');
console.log(
  JSON.stringify({
    users: USERS,
    userNameMs,
    externalIdMs,
    usesIndex:
      /Index (Only )?Scan|Bitmap Index Scan/.test(planText) && !/Seq Scan on scim_users/.test(planText),
    plan: planText,
  }),
);
await close();
process.exit(0);
