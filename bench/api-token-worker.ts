// Run by bench/api-tokens.mjs through tsx: builds the app in this process on a fresh database (embedded, or the
// PostgreSQL database in argv[2]), makes an organisation, a workspace and a check of the signed-in admin, and an
// API token of theirs, then times the same reads with the token and with the session, one call at a time,
// interleaved (medians). Prints one JSON line.
import { sql } from 'drizzle-orm';
import { GLOBAL_TEMPLATE_ID } from '../apps/server/src/db/catalogue';
import { queryRows } from '../apps/server/src/db/client';
import { inProcessApp, medians } from './in-process';

const ROUNDS = Number(process.env.BENCH_TOKEN_ROUNDS ?? 300);

// The token's rate limit is measured, not reached: 600 a minute × 1,000.
const { db, app, cookie, adminId, close } = await inProcessApp('api-token', process.argv[2] || undefined, {
  RATE_LIMIT_MULTIPLIER: '1000',
});
const [ids] = await queryRows<{ check_id: string }>(
  db,
  sql`with org as (insert into organizations (name, created_by) values ('Bench', ${adminId}) returning id),
      ws as (insert into workspaces (name, organization_id, is_default) select 'Bench', id, true from org returning id),
      m as (insert into workspace_members (workspace_id, user_id, access, role) select id, ${adminId}, 'admin', 'Admin' from ws),
      hc as (insert into health_checks (title, settings, workspace_id, template_id, created_by, phase, status)
             select 'Token check', '{"minResponses":3,"allowAnonymous":true,"enableComments":true,"votesPerPerson":5,"showResultsAfterVoting":true}'::jsonb,
                    id, ${GLOBAL_TEMPLATE_ID}, ${adminId}, 'collect', 'phase_1' from ws returning id)
      select (select id from hc) as check_id`,
);
const checkId = ids!.check_id;
const created = await app.request('/api/account/api-tokens', {
  method: 'POST',
  headers: { cookie, 'content-type': 'application/json' },
  body: JSON.stringify({
    name: 'Bench',
    scopes: ['health-checks:read', 'results:read'],
    expiresInDays: null,
  }),
});
if (created.status !== 201) throw new Error(`token: ${created.status} ${await created.text()}`);
const { secret } = (await created.json()) as { secret: string };

const read = (path: string, headers: Record<string, string>) => async () => {
  const response = await app.request(path, { headers });
  if (response.status !== 200)
    throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
  await response.arrayBuffer();
};
const figures: Record<string, { sessionMs: number; tokenMs: number }> = {};
for (const [label, path] of [
  ['health check', `/api/health-checks/${checkId}`],
  ['results', `/api/health-checks/${checkId}/results`],
] as const) {
  const [sessionMs, tokenMs] = await medians(
    [read(path, { cookie }), read(path, { authorization: `Bearer ${secret}` })],
    ROUNDS,
  );
  figures[label] = { sessionMs: sessionMs!, tokenMs: tokenMs! };
}
console.log(JSON.stringify(figures));
await close();
process.exit(0);
