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
