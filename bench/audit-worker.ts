// Run by bench/audit-log.mjs through tsx: builds the app in this process on a fresh database (embedded, or the
// PostgreSQL database in argv[2]), makes an organisation owned by the signed-in admin, writes 1,000,000 audit
// entries to it in bulk SQL (a year of them, in time order, ~40 actions, 200 actors, 5,000 targets; plus 100,000
// in another organisation), then times `GET /api/organizations/{id}/audit-log` with each filter the screen offers,
// one call at a time (median). Prints one JSON line.
import { sql } from 'drizzle-orm';
import { AUDIT_ACTION_KEYS } from '@pulsecheck/shared/audit/log';
import { queryRows } from '../apps/server/src/db/client';
import { inProcessApp, medians } from './in-process';

const ENTRIES = Number(process.env.BENCH_AUDIT_ENTRIES ?? 1_000_000);
const ROUNDS = Number(process.env.BENCH_AUDIT_ROUNDS ?? 50);
const YEAR_MS = 365 * 24 * 3600 * 1000;

// The bulk fill takes longer than a request's statement may (DATABASE_STATEMENT_TIMEOUT_MS): no limit here.
const { db, app, cookie, adminId, close } = await inProcessApp('audit', process.argv[2] || undefined, {
  DATABASE_STATEMENT_TIMEOUT_MS: '0',
});
const organizations = await queryRows<{ id: string }>(
  db,
  sql`insert into organizations (name, created_by) values ('Bench', ${adminId}), ('Other', null) returning id`,
);
const [mine, other] = organizations.map((row) => row.id);
await db.execute(
  sql`insert into workspaces (name, organization_id, is_default) values ('Bench', ${mine}, true)`,
);
const actions = sql.param(AUDIT_ACTION_KEYS);
const start = Date.now() - YEAR_MS;
const fill = (organizationId: string, count: number) =>
  db.execute(sql`
    insert into audit_entries (organization_id, seq, at, actor_kind, actor_id, actor_label, ip, action, target_type,
                               target_id, target_label, changes, prev_hash, hash)
    select ${organizationId}, i,
           to_timestamp((${start}::bigint + (i::bigint * ${YEAR_MS}::bigint / ${count}::bigint)) / 1000.0),
           'user', 'actor-' || (i % 200), 'person' || (i % 200) || '@bench.test', '203.0.113.' || (i % 250),
           (${actions}::text[])[1 + (i % ${AUDIT_ACTION_KEYS.length})], 'workspace', 'target-' || (i % 5000),
           'Target ' || (i % 5000), '{"name":{"after":"b","before":"a"}}', md5(i::text) || md5(i::text),
           md5((i + 1)::text) || md5((i + 1)::text)
    from generate_series(1, ${count}) i`);
await fill(mine!, ENTRIES);
await fill(other!, Math.round(ENTRIES / 10));
await db.execute(
  sql`insert into audit_chains (organization_id, last_seq, last_hash, last_at, pruned_hash)
      values (${mine}, ${ENTRIES}, 'x', now(), ${'0'.repeat(64)})`,
);
await db.execute(sql`vacuum analyze audit_entries`);

const month = (monthsAgo: number) =>
  new Date(Date.now() - monthsAgo * 30 * 24 * 3600 * 1000).toISOString().slice(0, 10);
const QUERIES = {
  newest: '',
  action: '?action=webhook.changed',
  actor: '?actor=person17%40bench.test',
  target: '?target=target%204242',
  dateRange: `?from=${month(7)}&to=${month(6)}`,
  dateRangeAndAction: `?from=${month(7)}&to=${month(6)}&action=sso.configured`,
  olderPage: `?before=${Math.round(ENTRIES / 2)}`,
  rareAction: `?action=audit-log.retention-changed&actor=person3%40bench.test`,
} as const;
const call = (query: string) => async () => {
  const response = await app.request(`/api/organizations/${mine}/audit-log${query}`, { headers: { cookie } });
  // A rare combination may match nothing: the worst case, every candidate of one index read and refused.
  if (response.status !== 200)
    throw new Error(`audit-log${query} answered ${response.status}: ${await response.text()}`);
  await response.json();
};
const times = await medians(Object.values(QUERIES).map(call), ROUNDS);
console.log(
  JSON.stringify({
    entries: ENTRIES,
    ms: Object.fromEntries(Object.keys(QUERIES).map((name, i) => [name, times[i]])),
  }),
);
await close();
process.exit(0);
