import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import type { Logger } from '../logger';

/**
 * A background worker of this process: runs `work` every `intervalMs` and whenever kicked, never twice at once
 * (a kick during a run makes it run again right after). Used by the e-mail outbox and the job queue, whose rows
 * are claimed with SKIP LOCKED, so several processes share the work.
 */
export function startWorker(options: {
  name: string;
  intervalMs: number;
  logger: Logger;
  work: (stopped: () => boolean) => Promise<void>;
}) {
  let running = false;
  let again = false;
  let stopped = false;
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    try {
      do {
        again = false;
        await options.work(() => stopped);
      } while (again && !stopped);
    } catch (error) {
      options.logger.error({ err: error }, `${options.name} run failed`);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void run(), options.intervalMs);
  timer.unref();
  return {
    kick: () => void run(),
    stop: () => {
      stopped = true;
      clearInterval(timer);
    },
  };
}

/**
 * What becomes of a claimed row whose work failed: retried after an exponential backoff from `baseSeconds`
 * (at most an hour), or failed for good after `maxAttempts`. Logs the outcome.
 */
export function failedAttempt(
  error: unknown,
  options: {
    attempts: number;
    maxAttempts: number;
    baseSeconds: number;
    logger: Logger;
    what: string;
    context: object;
  },
) {
  const message = error instanceof Error ? error.message : String(error);
  const failed = options.attempts >= options.maxAttempts;
  options.logger.warn(
    { ...options.context, attempts: options.attempts, err: message },
    failed ? `${options.what} failed for good` : `${options.what} will be retried`,
  );
  return {
    status: failed ? ('failed' as const) : ('pending' as const),
    lastError: message.slice(0, 1000),
    delaySeconds: Math.min(options.baseSeconds * 2 ** (options.attempts - 1), 3600),
  };
}

export type FailedAttempt = ReturnType<typeof failedAttempt>;

/** When a failed attempt is tried again, for the row's due-time column. */
export const retryAfter = (failure: FailedAttempt) =>
  sql`now() + make_interval(secs => ${failure.delaySeconds})`;

/**
 * Works the claimed rows in turn: `run` each, then `settle` it as done (`null`) or with its failed attempt
 * (retried after a backoff, or failed for good). Answers how many there were.
 */
export async function workClaimed<R extends { attempts: number }>(
  claimed: R[],
  options: {
    run: (row: R) => Promise<void>;
    settle: (row: R, failure: FailedAttempt | null) => Promise<unknown>;
    backoff: {
      maxAttempts: number;
      baseSeconds: number;
      logger: Logger;
      what: string;
      context: (row: R) => object;
    };
  },
): Promise<number> {
  const { context, ...backoff } = options.backoff;
  for (const row of claimed) {
    let failure: FailedAttempt | null = null;
    try {
      await options.run(row);
    } catch (error) {
      failure = failedAttempt(error, { ...backoff, attempts: row.attempts, context: context(row) });
    }
    await options.settle(row, failure);
  }
  return claimed.length;
}

/**
 * Claims up to `limit` due rows of a work table (`status`, `attempts`, `locked_until` and a due-time column),
 * earliest due first, for this process for `lockFor`, counting the attempt. SKIP LOCKED: several processes
 * never claim one row twice, and a row whose process died is claimed again once its lock runs out.
 */
export function claimDue<R>(db: Db, work: { table: string; due: string; lockFor: string; limit: number }) {
  const table = sql.identifier(work.table);
  return queryRows<R>(
    db,
    sql`update ${table} set locked_until = now() + ${work.lockFor}::interval, attempts = attempts + 1
        where id in (
          select id from ${table}
          where status = 'pending' and ${sql.identifier(work.due)} <= now()
            and (locked_until is null or locked_until < now())
          order by ${sql.identifier(work.due)} limit ${work.limit} for update skip locked)
        returning *`,
  );
}
