import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobs } from '../db/schema/messaging';
import { createLogger } from '../logger';
import { useTestContext } from '../test/harness';
import { enqueueJob, runDueJobs } from './queue';

const ctx = useTestContext();
const logger = createLogger('silent');

describe('job queue', () => {
  it('runs a due job once, even when scheduled twice with one unique key and run by two workers', async () => {
    const runs: unknown[] = [];
    const handlers = { 'test-job': async (payload: Record<string, unknown>) => void runs.push(payload) };
    await enqueueJob(ctx.deps.db, { kind: 'test-job', payload: { n: 1 }, uniqueKey: 'once-only' });
    await enqueueJob(ctx.deps.db, { kind: 'test-job', payload: { n: 2 }, uniqueKey: 'once-only' });
    await Promise.all([
      runDueJobs({ db: ctx.deps.db, logger, handlers }),
      runDueJobs({ db: ctx.deps.db, logger, handlers }),
    ]);
    expect(runs).toEqual([{ n: 1 }]);
  });

  it('keeps a job for later when it is not due, and retries a failing one with backoff', async () => {
    await enqueueJob(ctx.deps.db, {
      kind: 'later',
      runAt: new Date(Date.now() + 3600_000),
      uniqueKey: 'later',
    });
    await enqueueJob(ctx.deps.db, { kind: 'flaky', uniqueKey: 'flaky' });
    const handlers = {
      later: () => Promise.reject(new Error('should not run')),
      flaky: () => Promise.reject(new Error('SMTP down')),
    };
    await runDueJobs({ db: ctx.deps.db, logger, handlers });
    const [flaky] = await ctx.deps.db.select().from(jobs).where(eq(jobs.uniqueKey, 'flaky'));
    expect(flaky).toMatchObject({ status: 'pending', attempts: 1, lastError: 'SMTP down' });
    expect(flaky!.runAt.getTime()).toBeGreaterThan(Date.now());
    const [later] = await ctx.deps.db.select().from(jobs).where(eq(jobs.uniqueKey, 'later'));
    expect(later).toMatchObject({ status: 'pending', attempts: 0 });
  });
});
