import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobs } from '../db/schema/messaging';
import { createLogger } from '../logger';
import { useTestContext } from '../test/harness';
import { enqueueJob, enqueueJobs, recordOnce, runDueJobs } from './queue';

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

  it('schedules many jobs in one insert, skipping a unique key already taken', async () => {
    await enqueueJob(ctx.deps.db, { kind: 'batch', uniqueKey: 'batch-1', payload: { n: 0 } });
    await enqueueJobs(ctx.deps.db, [
      { kind: 'batch', uniqueKey: 'batch-1', payload: { n: 1 } },
      { kind: 'batch', payload: { n: 2 } },
      { kind: 'batch', payload: { n: 3 } },
    ]);
    const runs: unknown[] = [];
    await runDueJobs({ db: ctx.deps.db, logger, handlers: { batch: async (p) => void runs.push(p) } });
    expect(runs).toHaveLength(3);
    expect(runs).toContainEqual({ n: 0 });
    expect(runs).not.toContainEqual({ n: 1 });
  });

  it('records something once under concurrent calls, as a finished job no worker runs', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        ctx.deps.db.transaction((tx) => recordOnce(tx, { kind: 'record', uniqueKey: 'record-once' })),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const rows = await ctx.deps.db.select().from(jobs).where(eq(jobs.uniqueKey, 'record-once'));
    expect(rows).toMatchObject([{ status: 'done' }]);
    // A rolled-back record is forgotten.
    await ctx.deps.db
      .transaction(async (tx) => {
        expect(await recordOnce(tx, { kind: 'record', uniqueKey: 'record-rolled-back' })).toBe(true);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect(await recordOnce(ctx.deps.db, { kind: 'record', uniqueKey: 'record-rolled-back' })).toBe(true);
  });
});
