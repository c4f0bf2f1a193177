import { statfs } from 'node:fs/promises';
import type { Logger } from '../logger';

/**
 * What keeps the database from serving a request (decision 0017):
 * - `unreachable`: it does not answer, is shutting down or starting, or refuses connections (too many clients);
 * - `busy`: a statement waited past the lock timeout or ran past the statement timeout (the database answers);
 * - `storage_full`: the embedded database's disk is full.
 */
export type DatabaseFault = 'unreachable' | 'busy' | 'storage_full';

/** postgres.js's own codes for a connection that failed, closed or timed out, and the socket's. */
const CONNECTION_CODES = new Set([
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
  'CONNECT_TIMEOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * PostgreSQL's SQLSTATEs for the same: admin_shutdown, crash_shutdown, cannot_connect_now (starting or stopping),
 * too_many_connections; and every connection_exception (class 08).
 */
const UNREACHABLE_STATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** The fault an error of a query means, looking through the causes Drizzle wraps it in; undefined for the rest. */
export function faultOf(error: unknown): DatabaseFault | undefined {
  let current = error;
  for (let depth = 0; depth < 5 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') {
      if (CONNECTION_CODES.has(code) || UNREACHABLE_STATES.has(code) || /^08...$/.test(code))
        return 'unreachable';
      // lock_not_available (lock_timeout), query_canceled (statement_timeout).
      if (code === '55P03' || code === '57014') return 'busy';
      // disk_full, or the file system's own error.
      if (code === '53100' || code === 'ENOSPC') return 'storage_full';
    }
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** How often a database judged unreachable is pinged until it answers again. */
export const RECHECK_MS = 250;
/** How long a ping may take before the database counts as unreachable. */
export const PING_DEADLINE_MS = 900;
/**
 * How long the database must keep answering after it returns before 'database reachable again' is logged. A
 * database that fails again within it (one free connection slot, then none) is the same outage in the log: it
 * still fails requests fast, but writes no new pair of lines.
 */
export const SETTLE_MS = 2_000;
/**
 * The free space the embedded database's disk must keep (64 MiB). PostgreSQL adds its write-ahead log in
 * 16 MiB files and cannot work on when one cannot be written (measured in decision 0017: PGlite then stops
 * answering altogether), so writes stop well before the disk is full, while a new WAL file still fits.
 */
export const STORAGE_RESERVE_BYTES = 64 * 1024 * 1024;
/** How often the embedded database's free disk space is read. */
export const STORAGE_CHECK_MS = 1_000;

/** An error's message with its cause's (a failed query wraps the driver's error). */
const describe = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message.split('\n')[0]}${cause}`;
};

/** A promise that rejects after `ms`. */
const deadline = (ms: number, what: string) =>
  new Promise<never>((_, reject) => {
    setTimeout(
      () => reject(Object.assign(new Error(`${what} took over ${ms} ms`), { code: 'ETIMEDOUT' })),
      ms,
    ).unref();
  });

/**
 * The database's state as this process sees it, kept cheaply so that requests fail fast instead of waiting on a
 * database that is gone: a query that fails for want of a connection marks it unreachable at once (`report`),
 * and a ping every RECHECK_MS then watches for its return. On the embedded database the free space of
 * `DATA_DIR`'s disk is read every STORAGE_CHECK_MS. Each change is logged once, not once per request.
 */
export type DatabaseHealth = {
  /** What keeps requests from the database now: `unreachable`, `storage_full` (writes only), or undefined. */
  fault(): Exclude<DatabaseFault, 'busy'> | undefined;
  /** The fault of a failed query's error (undefined for others); an unreachable or full database is marked so. */
  report(error: unknown): DatabaseFault | undefined;
  /** A round trip within PING_DEADLINE_MS; false (and marked unreachable) when there is none. */
  check(): Promise<boolean>;
  /** Called each time the database serves again after a fault (background work resumes at once). */
  onRecovery(listener: () => void): void;
  /** Calls `listener` when the database is next found unreachable; the returned function unsubscribes. */
  onUnreachable(listener: () => void): () => void;
  stop(): void;
};

export function createDatabaseHealth(options: {
  ping: () => Promise<void>;
  logger: Logger;
  /** The embedded database's folder, whose disk is watched; unset on PostgreSQL. */
  storageDir?: string;
  reserveBytes?: number;
}): DatabaseHealth {
  const { logger } = options;
  const reserve = options.reserveBytes ?? STORAGE_RESERVE_BYTES;
  let unreachableSince: number | undefined;
  let full = false;
  let stopped = false;
  let recheck: NodeJS.Timeout | undefined;
  const listeners: (() => void)[] = [];
  const recovered = () => {
    for (const listener of listeners) listener();
  };
  const outageListeners = new Set<() => void>();

  const ping = () => Promise.race([options.ping(), deadline(PING_DEADLINE_MS, 'database ping')]);

  /** When the outage being logged began; kept through the settle window after a return. */
  let outageStart: number | undefined;
  let settle: NodeJS.Timeout | undefined;
  let returnedAt = 0;
  const logReturn = () => {
    if (settle === undefined || outageStart === undefined) return;
    clearTimeout(settle);
    settle = undefined;
    logger.warn({ downMs: returnedAt - outageStart }, 'database reachable again');
    outageStart = undefined;
  };

  const markUnreachable = (error: unknown) => {
    if (unreachableSince !== undefined || stopped) return;
    unreachableSince = Date.now();
    for (const listener of outageListeners) listener();
    if (settle !== undefined) {
      // It went away again within the settle window: the same outage, already logged.
      clearTimeout(settle);
      settle = undefined;
    } else {
      outageStart = unreachableSince;
      logger.error(
        { err: describe(error) },
        'database unreachable: requests that need it are answered 503 until it answers again',
      );
    }
    const tick = async () => {
      recheck = undefined;
      if (stopped) return;
      try {
        await ping();
      } catch {
        recheck = setTimeout(() => void tick(), RECHECK_MS);
        return;
      }
      unreachableSince = undefined;
      returnedAt = Date.now();
      settle = setTimeout(logReturn, SETTLE_MS);
      settle.unref();
      recovered();
    };
    recheck = setTimeout(() => void tick(), RECHECK_MS);
  };

  const setFull = (now: boolean, detail: object) => {
    if (now === full) return;
    full = now;
    if (now)
      logger.error(
        detail,
        'embedded database: the disk is full; writes are refused (507) until space is freed, reads go on',
      );
    else {
      logger.warn(detail, 'embedded database: disk space available again; writes accepted');
      recovered();
    }
  };
  const storageDir = options.storageDir;
  const readSpace = async () => {
    if (!storageDir) return;
    try {
      const space = await statfs(storageDir);
      const free = space.bavail * space.bsize;
      setFull(free < reserve, { freeBytes: free, reserveBytes: reserve });
    } catch (error) {
      logger.warn({ err: error }, 'embedded database: reading the free disk space failed');
    }
  };
  const storageTimer = storageDir ? setInterval(() => void readSpace(), STORAGE_CHECK_MS) : undefined;
  storageTimer?.unref();
  void readSpace();

  return {
    fault: () => (unreachableSince !== undefined ? 'unreachable' : full ? 'storage_full' : undefined),
    report(error) {
      const fault = faultOf(error);
      if (fault === 'unreachable') markUnreachable(error);
      if (fault === 'storage_full') {
        setFull(true, { err: error instanceof Error ? error.message : String(error) });
        void readSpace();
      }
      return fault;
    },
    async check() {
      if (unreachableSince !== undefined) return false;
      try {
        await ping();
        return true;
      } catch (error) {
        markUnreachable(error);
        return false;
      }
    },
    onRecovery: (listener) => void listeners.push(listener),
    onUnreachable(listener) {
      outageListeners.add(listener);
      return () => outageListeners.delete(listener);
    },
    stop() {
      logReturn();
      stopped = true;
      clearTimeout(recheck);
      clearInterval(storageTimer);
    },
  };
}
