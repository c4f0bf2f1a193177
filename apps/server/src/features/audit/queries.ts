import { sql, type SQL } from 'drizzle-orm';
import type { AuditFilter } from '@pulsecheck/shared/audit/log';
import { queryRows, type Db } from '../../db/client';

/** An entry as stored (audit_entries). */
export type EntryRow = {
  seq: string | number;
  at: string | Date;
  actor_kind: string;
  actor_id: string | null;
  actor_label: string;
  ip: string | null;
  action: string;
  target_type: string;
  target_id: string | null;
  target_label: string | null;
  changes: string | null;
  prev_hash: string;
  hash: string;
};

const COLUMNS =
  sql.raw(`seq, at, actor_kind, actor_id, actor_label, ip, action, target_type, target_id, target_label,
  changes, prev_hash, hash`);

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString();

/**
 * The conditions of a filtered list, each one probe of an index in number order. A date range becomes a range of
 * numbers (times never go back within an organisation, audit/record.ts): the first entry at or after `from`, the
 * last before the day after `to`.
 */
function conditions(organizationId: string, filter: AuditFilter, before?: number): SQL {
  const where: SQL[] = [sql`e.organization_id = ${organizationId}`];
  if (filter.from)
    where.push(sql`e.seq >= (select f.seq from audit_entries f where f.organization_id = ${organizationId}
                              and f.at >= ${`${filter.from}T00:00:00Z`} order by f.at, f.seq limit 1)`);
  if (filter.to)
    where.push(sql`e.seq <= (select t.seq from audit_entries t where t.organization_id = ${organizationId}
                              and t.at < ${nextDay(filter.to)} order by t.at desc, t.seq desc limit 1)`);
  if (before !== undefined) where.push(sql`e.seq < ${before}`);
  if (filter.action) where.push(sql`e.action = ${filter.action}`);
  if (filter.actor) where.push(sql`lower(e.actor_label) = lower(${filter.actor})`);
  if (filter.target) where.push(sql`lower(e.target_label) = lower(${filter.target})`);
  return sql.join(where, sql` and `);
}

/** Newest first: `limit` entries before number `before` (all when undefined). */
export const findEntries = (
  db: Db,
  organizationId: string,
  filter: AuditFilter,
  options: { before?: number; limit: number },
) =>
  queryRows<EntryRow>(
    db,
    sql`select ${COLUMNS} from audit_entries e where ${conditions(organizationId, filter, options.before)}
        order by e.seq desc limit ${options.limit}`,
  );

/** Oldest first, after number `after`: the verification's walk. */
export const findEntriesAfter = (db: Db, organizationId: string, after: number, limit: number) =>
  queryRows<EntryRow>(
    db,
    sql`select ${COLUMNS} from audit_entries where organization_id = ${organizationId} and seq > ${after}
        order by seq limit ${limit}`,
  );

export type ChainRow = {
  last_seq: string | number;
  last_hash: string;
  retention_days: number;
  pruned_seq: string | number;
  pruned_hash: string;
};

export async function findChain(db: Db, organizationId: string): Promise<ChainRow | null> {
  const [row] = await queryRows<ChainRow>(
    db,
    sql`select last_seq, last_hash, retention_days, pruned_seq, pruned_hash from audit_chains
        where organization_id = ${organizationId}`,
  );
  return row ?? null;
}
