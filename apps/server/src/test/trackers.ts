import type { ActionItem } from '@pulsecheck/shared/results/schemas';
import type { TrackerConnection } from '@pulsecheck/shared/trackers/rules';
import { expect } from 'vitest';
import { runDueJobs } from '../jobs/queue';
import { pollConnection, trackerJobHandlers } from '../trackers/sync';
import type { Admin } from './accounts';
import type { TestContext } from './harness';
import { addComment, addParticipants, createCheck, rateAll, type CheckFixture } from './health-checks';

/**
 * What every tracker's API test (features/trackers/*.integration.test.ts) stands on: a check with results whose
 * action items go to the tracker, and the calls each test makes. Each file keeps its own stand-in tracker.
 */

/**
 * 'Sprint 12 check' in summarize: three participants' ratings (the first component a fire warning for all) and one
 * anonymous comment, 'A secret anonymous remark', which no issue may ever hold.
 */
export async function checkWithAnonymousComment(ctx: TestContext, admin: Admin): Promise<CheckFixture> {
  const check = await createCheck(ctx, admin, { phase: 'summarize', title: 'Sprint 12 check' });
  const people = await addParticipants(ctx, check, 3);
  const ratings = await rateAll(ctx, check, people, (_, j) => (j === 0 ? 'fire-warning' : 'healthy'));
  await addComment(ctx, {
    participantId: people[0]!.participantId,
    ratingId: ratings.get(`${people[0]!.participantId}:${check.componentIds[0]}`)!,
    content: 'A secret anonymous remark',
  });
  return check;
}

/** The workspace's connection, action items of the check, and the tracker jobs, for the admin `world` names. */
export function trackerCalls(ctx: TestContext, world: () => { admin: Admin; check: CheckFixture }) {
  const connectionPath = () => `/api/workspaces/${world().admin.workspaceId}/tracker-connection`;
  async function connection() {
    const response = await ctx.call(world().admin.jar, 'GET', connectionPath());
    expect(response.status).toBe(200);
    return ((await response.json()) as { connection: TrackerConnection }).connection;
  }
  /** 'Make standups shorter', owned by the admin, on the check's first component. */
  async function newItem(body: Record<string, unknown> = {}) {
    const { admin, check } = world();
    const response = await ctx.call(
      admin.jar,
      'POST',
      `/api/health-checks/${check.healthCheckId}/action-items`,
      {
        description: 'Make standups shorter',
        ownerId: admin.userId,
        componentId: check.componentIds[0],
        ...body,
      },
    );
    expect(response.status).toBe(201);
    return (await response.json()) as ActionItem;
  }
  async function item(id: string) {
    const { admin, check } = world();
    const response = await ctx.call(
      admin.jar,
      'GET',
      `/api/health-checks/${check.healthCheckId}/action-items`,
    );
    const { actionItems } = (await response.json()) as { actionItems: ActionItem[] };
    return actionItems.find((a) => a.id === id)!;
  }
  const jobs = () =>
    runDueJobs({ db: ctx.deps.db, logger: ctx.deps.logger, handlers: trackerJobHandlers(ctx.deps) });
  const poll = async () => pollConnection(ctx.deps, { connectionId: (await connection()).id });
  return { connectionPath, connection, newItem, item, jobs, poll };
}
