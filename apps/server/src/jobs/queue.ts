import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobs } from '../db/schema/messaging';
import type { DatabaseHealth } from '../db/health';
import type { Logger } from '../logger';
import { startWorker, workDue, type WorkTable } from '../lib/worker';

export type JobHandler = (payload: Record<string, unknown>) => Promise<void>;

const MAX_ATTEMPTS = 5;
const POLL_MS = 5_000;

/**
 * Schedules work in the database. A `uniqueKey` makes a job happen once even when several processes (or
 * repeated requests) schedule it: the second insert is ignored.
 */
export async function enqueueJob(db: Db, job: NewJob): Promise<void> {
  await db
    .insert(jobs)
    .values({
      kind: job.kind,
      payload: job.payload ?? {},
      runAt: job.runAt ?? new Date(),
      uniqueKey: job.uniqueKey,
    })
    .onConflictDoNothing();
}

export type NewJob = { kind: string; payload?: Record<string, unknown>; runAt?: Date; uniqueKey?: string };

/** `enqueueJob` for many jobs in one statement (a notice to a large team is one insert, not one per person). */
export async function enqueueJobs(db: Db, list: NewJob[]): Promise<void> {
  if (list.length === 0) return;
  await db
    .insert(jobs)
    .values(
      list.map((job) => ({
        kind: job.kind,
        payload: job.payload ?? {},
        runAt: job.runAt ?? new Date(),
        uniqueKey: job.uniqueKey,
      })),
    )
    .onConflictDoNothing();
}

/**
 * Records that something happened, once: a finished job under `uniqueKey`. True for the call that recorded
 * it; false when it was recorded before, by this process or any other (the unique key decides, also between
 * concurrent transactions: the second waits for the first and then finds it). Pass the caller's transaction,
 * so a rollback forgets it.
 */
export async function recordOnce(
  db: Db,
  record: { kind: string; uniqueKey: string; payload?: Record<string, unknown> },
): Promise<boolean> {
  const rows = await db
    .insert(jobs)
    .values({
      kind: record.kind,
      uniqueKey: record.uniqueKey,
      payload: record.payload ?? {},
      status: 'done',
      finishedAt: new Date(),
    })
    .onConflictDoNothing()
    .returning({ id: jobs.id });
  return rows.length > 0;
}

type Claimed = { id: string; kind: string; payload: Record<string, unknown>; attempts: number };

const JOBS: WorkTable = {
  table: 'jobs',
  due: 'run_at',
  done: sql`status = 'done', finished_at = now()`,
  lockFor: '5 minutes',
  limit: 20,
  backoff: { maxAttempts: MAX_ATTEMPTS, baseSeconds: 30, what: 'job' },
};

/** Runs due jobs once. Claims use SKIP LOCKED, so each job runs in one process only. */
export async function runDueJobs(options: { db: Db; logger: Logger; handlers: Record<string, JobHandler> }) {
  const { db, logger, handlers } = options;
  return workDue<Claimed>(db, JOBS, {
    logger,
    context: (job) => ({ job: job.kind }),
    run: async (job) => {
      const handler = handlers[job.kind];
      if (!handler) throw new Error(`no handler for job kind ${job.kind}`);
      await handler(job.payload);
    },
  });
}

export function startJobWorker(options: {
  db: Db;
  logger: Logger;
  health?: DatabaseHealth;
  handlers: Record<string, JobHandler>;
}) {
  return startWorker({
    name: 'job',
    intervalMs: POLL_MS,
    logger: options.logger,
    health: options.health,
    work: async (stopped) => {
      while ((await runDueJobs(options)) > 0 && !stopped());
    },
  });
}
