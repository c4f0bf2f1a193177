import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { enqueueJob, type JobHandler } from '../jobs/queue';
import type { Logger } from '../logger';

/**
 * The audit log's retention (decision 0026): once a day, each organisation's entries older than its retention
 * (365 days unless its owner or an organisation admin set another) are deleted. The chain stays verifiable: the
 * hash and number of the last entry deleted are kept on the chain row, and the oldest kept entry must follow them.
 */
export const AUDIT_RETENTION_JOB = 'audit-retention';
const DAY_MS = 24 * 3600 * 1000;
const PRUNE_BATCH = 5000;

/** Deletes what is due in every organisation; answers how many entries went. */
export async function pruneAuditLog(db: Db, now = new Date()): Promise<number> {
  const chains = await queryRows<{ organization_id: string }>(
    db,
    sql`select organization_id from audit_chains c
        where exists (select 1 from audit_entries e where e.organization_id = c.organization_id
                        and e.seq > c.pruned_seq and e.at < ${now.toISOString()}::timestamptz
                                                      - make_interval(days => c.retention_days))`,
  );
  let deleted = 0;
  for (const { organization_id: organizationId } of chains) {
    // In batches, each its own transaction: the chain row (which every audited change of the organisation waits for)
    // is held for one batch at a time, even when a shorter retention makes millions of entries due at once.
    for (;;) {
      const gone = await db.transaction(async (tx) => {
        const [chain] = await queryRows<{ retention_days: number }>(
          tx,
          sql`select retention_days from audit_chains where organization_id = ${organizationId} for update`,
        );
        const cutoff = new Date(now.getTime() - chain!.retention_days * DAY_MS).toISOString();
        const [last] = await queryRows<{ seq: string | number; hash: string }>(
          tx,
          sql`select seq, hash from (
                select seq, hash from audit_entries where organization_id = ${organizationId} and at < ${cutoff}
                order by seq limit ${PRUNE_BATCH}) batch
              order by seq desc limit 1`,
        );
        if (!last) return 0;
        const removed = await queryRows<{ seq: string }>(
          tx,
          sql`delete from audit_entries where organization_id = ${organizationId} and seq <= ${last.seq}
              returning seq`,
        );
        await tx.execute(sql`update audit_chains set pruned_seq = ${last.seq}, pruned_hash = ${last.hash}
                             where organization_id = ${organizationId}`);
        return removed.length;
      });
      deleted += gone;
      if (gone < PRUNE_BATCH) break;
    }
  }
  return deleted;
}

export async function scheduleAuditRetention(db: Db, at = new Date()) {
  await enqueueJob(db, {
    kind: AUDIT_RETENTION_JOB,
    runAt: at,
    uniqueKey: `${AUDIT_RETENTION_JOB}:${at.toISOString().slice(0, 10)}`,
  });
}

/** The job: deletes what is due, then schedules the next day's run. */
export function auditRetentionJobHandlers(deps: { db: Db; logger: Logger }): Record<string, JobHandler> {
  return {
    [AUDIT_RETENTION_JOB]: async () => {
      const deleted = await pruneAuditLog(deps.db);
      if (deleted > 0) deps.logger.info({ deleted }, 'audit log retention: deleted old entries');
      await scheduleAuditRetention(deps.db, new Date(Date.now() + DAY_MS));
    },
  };
}
