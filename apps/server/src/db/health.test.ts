import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDatabaseHealth, RECHECK_MS, SETTLE_MS } from './health';
import type { Logger } from '../logger';

const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

function recordingLogger() {
  const lines: { level: string; msg: string; detail: Record<string, unknown> }[] = [];
  const at = (level: string) => (detail: Record<string, unknown>, msg: string) =>
    void lines.push({ level, msg, detail });
  const logger = {
    error: at('error'),
    warn: at('warn'),
    info: at('info'),
    debug: at('debug'),
  } as unknown as Logger;
  return { logger, lines };
}

describe('database health', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('fails fast at once, and logs an outage that flaps within the settle window as one outage', async () => {
    let up = true;
    const { logger, lines } = recordingLogger();
    const health = createDatabaseHealth({
      ping: async () => (up ? undefined : Promise.reject(refused())),
      logger,
    });
    const recoveries = vi.fn();
    health.onRecovery(recoveries);

    up = false;
    expect(health.report(refused())).toBe('unreachable');
    expect(health.fault()).toBe('unreachable');
    await vi.advanceTimersByTimeAsync(RECHECK_MS * 4);
    up = true;
    await vi.advanceTimersByTimeAsync(RECHECK_MS);
    // Serving again at once, the return not yet logged.
    expect(health.fault()).toBeUndefined();
    expect(recoveries).toHaveBeenCalledTimes(1);
    expect(lines.map((l) => l.msg)).toEqual([expect.stringMatching(/^database unreachable/)]);

    // One free slot, then none: unreachable again, fast, but no new line.
    up = false;
    health.report(refused());
    expect(health.fault()).toBe('unreachable');
    await vi.advanceTimersByTimeAsync(RECHECK_MS * 2);
    up = true;
    await vi.advanceTimersByTimeAsync(RECHECK_MS);
    expect(recoveries).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(lines.map((l) => l.msg)).toEqual([
      expect.stringMatching(/^database unreachable/),
      'database reachable again',
    ]);
    // The whole outage, flap included.
    expect(lines[1]?.detail.downMs).toBeGreaterThanOrEqual(RECHECK_MS * 7);

    // A later outage is a new one.
    up = false;
    health.report(refused());
    up = true;
    await vi.advanceTimersByTimeAsync(RECHECK_MS);
    health.stop();
    expect(lines.map((l) => l.msg)).toHaveLength(4);
  });

  it("logs the driver's cause under the failed query", () => {
    const { logger, lines } = recordingLogger();
    const health = createDatabaseHealth({ ping: async () => undefined, logger });
    health.report(new Error('Failed query: select 1\nparams: ', { cause: refused() }));
    health.stop();
    expect(lines[0]?.detail.err).toBe('Failed query: select 1: connect ECONNREFUSED');
  });
});
