import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';
import type { DatabaseHealth } from '../db/health';
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
  /**
   * The database's state (db/health.ts): no run while it cannot serve, a failure for that reason is its to log
   * (once, not at every run), and a run starts as soon as it serves again.
   */
  health?: Pick<DatabaseHealth, 'fault' | 'report' | 'onRecovery'>;
  work: (stopped: () => boolean) => Promise<void>;
}) {
  const { health } = options;
  let running = false;
  let again = false;
  let stopped = false;
  const run = async () => {
    if (running) {
      again = true;
      return;
    }
    if (health?.fault()) return;
    running = true;
    try {
      do {
        again = false;
        await options.work(() => stopped);
      } while (again && !stopped);
    } catch (error) {
      const fault = health?.report(error);
      if (fault !== 'unreachable' && fault !== 'storage_full')
        options.logger.error({ err: error }, `${options.name} run failed`);
    } finally {
      running = false;
    }
  };
  const timer = setInterval(() => void run(), options.intervalMs);
  timer.unref();
  health?.onRecovery(() => {
    if (!stopped) void run();
  });
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
function failedAttempt(
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

/**
 * A table of work rows: `id`, `status` ('pending' until done or failed for good), `attempts`, `locked_until`,
 * `last_error`, the due-time column `due`, and what `done` sets on success. A claim locks a row for `lockFor`.
 */
export type WorkTable = {
  table: string;
  due: string;
  done: SQL;
  lockFor: string;
  limit: number;
  backoff: { maxAttempts: number; baseSeconds: number; what: string };
};

/**
 * Works what is due in `work.table` once: claims up to `limit` rows, earliest due first, counting the attempt
 * (SKIP LOCKED: several processes never claim one row twice, and a row whose process died is claimed again once
 * its lock runs out); then `run`s each and marks it done, or, when it throws, retries it after a backoff or
 * fails it for good. Answers how many rows it claimed.
 */
export async function workDue<R extends { id: string; attempts: number }>(
  db: Db,
  work: WorkTable,
  options: { logger: Logger; run: (row: R) => Promise<void>; context: (row: R) => object },
): Promise<number> {
  const table = sql.identifier(work.table);
  const due = sql.identifier(work.due);
  const claimed = await queryRows<R>(
    db,
    sql`update ${table} set locked_until = now() + ${work.lockFor}::interval, attempts = attempts + 1
        where id in (
          select id from ${table}
          where status = 'pending' and ${due} <= now() and (locked_until is null or locked_until < now())
          order by ${due} limit ${work.limit} for update skip locked)
        returning *`,
  );
  for (const row of claimed) {
    // The embedded database answers in promises alone: without a turn of the event loop between rows, a full
    // outbox would keep the server from reading any request until it is empty.
    await nextTurn();
    try {
      await options.run(row);
      await db.execute(sql`update ${table} set ${work.done}, locked_until = null where id = ${row.id}`);
    } catch (error) {
      const failure = failedAttempt(error, {
        ...work.backoff,
        logger: options.logger,
        attempts: row.attempts,
        context: options.context(row),
      });
      await db.execute(
        sql`update ${table} set status = ${failure.status}, last_error = ${failure.lastError}, locked_until = null,
              ${due} = now() + make_interval(secs => ${failure.delaySeconds})
            where id = ${row.id}`,
      );
    }
  }
  return claimed.length;
}
