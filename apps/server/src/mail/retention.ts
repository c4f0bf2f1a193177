import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import { enqueueJob, type JobHandler } from '../jobs/queue';
import type { Logger } from '../logger';

/** The daily job that deletes old e-mails and the shared bodies nothing uses any more. */
export const MAIL_RETENTION_JOB = 'mail-retention';

const DAY_MS = 24 * 3600 * 1000;

/**
 * A shared body (`storeBody`) is written before the e-mails that use it, in batches that can take a while: one no
 * e-mail refers to is deleted only once it is this old, so a round still inviting its audience keeps it.
 */
const ORPHAN_BODY_GRACE = '1 day';

/**
 * Deletes the e-mails that left (`sent`) or gave up (`failed`, also every e-mail under MAIL_DISABLED) more than
 * `retentionDays` ago, counted from when they were sent, or written for a failed one; a pending e-mail stays until
 * it is sent or fails. Then the shared bodies that no e-mail refers to, older than ORPHAN_BODY_GRACE (those of
 * deleted e-mails, and of a round whose invitations failed before any e-mail was written). One statement: answers
 * how many of each went.
 */
export async function deleteOldMail(
  db: Db,
  retentionDays: number,
): Promise<{ mails: number; bodies: number }> {
  const [row] = await queryRows<{ mails: number; bodies: number }>(
    db,
    sql`with mails as (
          delete from mail_outbox
          where (status = 'sent' and sent_at < now() - make_interval(days => ${retentionDays}))
             or (status = 'failed' and created_at < now() - make_interval(days => ${retentionDays}))
          returning id),
        -- The statement sees mail_outbox as it was before: the e-mails deleted above still show there.
        bodies as (
          delete from mail_bodies b
          where b.created_at < now() - interval '${sql.raw(ORPHAN_BODY_GRACE)}'
            and not exists (select 1 from mail_outbox o
                            where o.body_id = b.id and o.id not in (select id from mails))
          returning 1)
        select (select count(*)::int from mails) as mails, (select count(*)::int from bodies) as bodies`,
  );
  return { mails: row?.mails ?? 0, bodies: row?.bodies ?? 0 };
}

const dayOf = (at: Date) => at.toISOString().slice(0, 10);

/** Schedules the run of `day` (once across processes: the unique key is the day). */
export async function scheduleMailRetention(db: Db, at = new Date()) {
  await enqueueJob(db, {
    kind: MAIL_RETENTION_JOB,
    runAt: at,
    uniqueKey: `${MAIL_RETENTION_JOB}:${dayOf(at)}`,
  });
}

/** The job: deletes what is due, then schedules the next day's run. */
export function mailRetentionJobHandlers(deps: {
  db: Db;
  logger: Logger;
  config: { mailRetentionDays: number };
}): Record<string, JobHandler> {
  return {
    [MAIL_RETENTION_JOB]: async () => {
      const deleted = await deleteOldMail(deps.db, deps.config.mailRetentionDays);
      if (deleted.mails + deleted.bodies > 0)
        deps.logger.info(deleted, 'mail retention: deleted old e-mails');
      await scheduleMailRetention(deps.db, new Date(Date.now() + DAY_MS));
    },
  };
}
