import { and, eq, inArray, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobs, mailBodies, mailOutbox } from '../db/schema/messaging';
import { runDueJobs } from '../jobs/queue';
import { createLogger } from '../logger';
import { createAdmin } from '../test/accounts';
import { useTestContext } from '../test/harness';
import { storeBody } from './outbox';
import {
  deleteOldMail,
  MAIL_RETENTION_JOB,
  mailRetentionJobHandlers,
  scheduleMailRetention,
} from './retention';

const ctx = useTestContext();
const logger = createLogger('silent');
const DAY_MS = 24 * 3600 * 1000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS);

/** One outbox row, `days` old: sent then, or written then when it failed or still waits. */
async function mail(
  to: string,
  status: 'sent' | 'failed' | 'pending',
  days: number,
  bodyId?: string,
): Promise<string> {
  const [row] = await ctx.deps.db
    .insert(mailOutbox)
    .values({
      kind: 'test',
      to,
      subject: 'Kept or not',
      ...(bodyId ? { bodyId, personal: 'token' } : { html: '<p>Hi</p>', text: 'Hi' }),
      status,
      createdAt: daysAgo(days + (status === 'sent' ? 0.01 : 0)),
      sentAt: status === 'sent' ? daysAgo(days) : null,
      lastError: status === 'failed' ? 'refused' : null,
    })
    .returning({ id: mailOutbox.id });
  return row!.id;
}

const remaining = async (prefix: string) =>
  (
    await ctx.deps.db
      .select({ to: mailOutbox.to })
      .from(mailOutbox)
      .where(like(mailOutbox.to, `${prefix}%`))
  )
    .map((row) => row.to)
    .sort();

async function body(workspaceId: string, days: number): Promise<string> {
  const id = await storeBody(ctx.deps.db, workspaceId, { html: '<p>Shared</p>', text: 'Shared' });
  await ctx.deps.db
    .update(mailBodies)
    .set({ createdAt: daysAgo(days) })
    .where(eq(mailBodies.id, id));
  return id;
}

const bodiesLeft = async (ids: string[]) =>
  (await ctx.deps.db.select({ id: mailBodies.id }).from(mailBodies).where(inArray(mailBodies.id, ids))).map(
    (row) => row.id,
  );

describe('mail retention', () => {
  it('deletes sent and failed e-mails older than the retention, keeps younger ones and every pending one', async () => {
    await mail('age-sent-31@example.com', 'sent', 31);
    await mail('age-sent-29@example.com', 'sent', 29);
    await mail('age-failed-31@example.com', 'failed', 31);
    await mail('age-failed-29@example.com', 'failed', 29);
    await mail('age-pending-40@example.com', 'pending', 40);

    expect(await deleteOldMail(ctx.deps.db, 30)).toMatchObject({ mails: 2 });
    expect(await remaining('age-')).toEqual([
      'age-failed-29@example.com',
      'age-pending-40@example.com',
      'age-sent-29@example.com',
    ]);
  });

  it('deletes the shared bodies no e-mail refers to, and keeps those still used or just written', async () => {
    const admin = await createAdmin(ctx);
    const used = await body(admin.workspaceId, 40);
    const usedByOld = await body(admin.workspaceId, 40);
    const orphan = await body(admin.workspaceId, 2);
    const justWritten = await body(admin.workspaceId, 0);
    await mail('body-recent@example.com', 'sent', 29, used);
    await mail('body-old@example.com', 'sent', 31, usedByOld);

    expect(await deleteOldMail(ctx.deps.db, 30)).toEqual({ mails: 1, bodies: 2 });
    expect((await bodiesLeft([used, usedByOld, orphan, justWritten])).sort()).toEqual(
      [used, justWritten].sort(),
    );
    expect(await remaining('body-')).toEqual(['body-recent@example.com']);
  });

  it('runs as a daily job with MAIL_RETENTION_DAYS, and schedules the next day', async () => {
    await mail('job-sent-8@example.com', 'sent', 8);
    await mail('job-sent-6@example.com', 'sent', 6);
    await scheduleMailRetention(ctx.deps.db);
    // A second process starting the same day schedules nothing more.
    await scheduleMailRetention(ctx.deps.db);
    const handlers = mailRetentionJobHandlers({ ...ctx.deps, logger, config: { mailRetentionDays: 7 } });
    while ((await runDueJobs({ db: ctx.deps.db, logger, handlers })) > 0);

    expect(await remaining('job-')).toEqual(['job-sent-6@example.com']);
    const scheduled = await ctx.deps.db
      .select({ status: jobs.status, runAt: jobs.runAt })
      .from(jobs)
      .where(and(eq(jobs.kind, MAIL_RETENTION_JOB)))
      .orderBy(jobs.runAt);
    expect(scheduled.map((job) => job.status)).toEqual(['done', 'pending']);
    expect(scheduled[1]!.runAt.getTime() - Date.now()).toBeGreaterThan(DAY_MS - 60_000);
  });
});
