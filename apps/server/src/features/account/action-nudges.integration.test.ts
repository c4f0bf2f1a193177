import type { DashboardResponse } from '@pulsecheck/shared/dashboard/schemas';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { enqueueJob } from '../../jobs/queue';
import { addMember, createAdmin, type Admin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { createCheck, type CheckFixture } from '../../test/health-checks';
import { mailsTo, runNotificationJobs } from '../../test/mail';
import { json } from '../../test/requests';
import { SCHEDULE_JOBS } from './notification-jobs';

const ctx = useTestContext();
const DAY = 24 * 3600_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);
const dateDaysAgo = (days: number) => daysAgo(days).toISOString().slice(0, 10);

async function action(
  check: CheckFixture,
  ownerId: string,
  description: string,
  options: { status: string; dueDate?: string | null; completedAt?: Date | null },
) {
  const [row] = await queryRows<{ id: string }>(
    ctx.deps.db,
    sql`insert into action_items (health_check_id, component_id, description, owner_id, status, due_date, completed_at, created_by)
        values (${check.healthCheckId}, ${check.componentIds[0]}, ${description}, ${ownerId}, ${options.status},
                ${options.dueDate ?? null}::date, ${options.completedAt?.toISOString() ?? null}::timestamptz, ${ownerId})
        returning id`,
  );
  return row!.id;
}

describe("nudges: 'Actions to follow up' (issue 33 item 6)", () => {
  let admin: Admin;
  let check: CheckFixture;
  let memberId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    admin = await createAdmin(ctx, { companyName: 'Nudge Co' });
    const member = await addMember(ctx, admin, { fullName: 'Max Member' });
    memberId = member.userId;
    check = await createCheck(ctx, admin, { phase: 'summarize', title: 'Autumn check' });
    const later = await createCheck(ctx, admin, { phase: 'collect', title: 'Winter check' });
    ids.overdue = await action(check, admin.userId, 'Fix the flaky build', {
      status: 'in-progress',
      dueDate: dateDaysAgo(10),
    });
    ids.memberOverdue = await action(check, memberId, 'Book the retro room', {
      status: 'pending',
      dueDate: dateDaysAgo(8),
    });
    await action(check, admin.userId, 'Recently due', { status: 'pending', dueDate: dateDaysAgo(3) });
    await action(check, admin.userId, 'No due date', { status: 'pending' });
    ids.forgotten = await action(check, admin.userId, 'Pair on reviews', {
      status: 'completed',
      completedAt: daysAgo(40),
    });
    const asked = await action(check, admin.userId, 'Asked already', {
      status: 'completed',
      completedAt: daysAgo(40),
    });
    await ctx.deps.db.execute(
      sql`insert into follow_up_questions (health_check_id, action_item_id, component_id)
          values (${later.healthCheckId}, ${asked}, ${later.componentIds[0]})`,
    );
    await action(check, admin.userId, 'Done lately', { status: 'completed', completedAt: daysAgo(10) });
    // Done before done dates were recorded: no check can ask about it, so it is never nudged.
    await action(check, admin.userId, 'Done long ago, date unknown', { status: 'completed' });
    // Another organisation's overdue action never shows here.
    const stranger = await createAdmin(ctx);
    await action(await createCheck(ctx, stranger), stranger.userId, 'Not yours', {
      status: 'pending',
      dueDate: dateDaysAgo(30),
    });
  }, 60_000);

  it('lists on the dashboard the workspace’s actions overdue by 7 days or done 30 days without a follow-up', async () => {
    const body = await json<DashboardResponse>(
      await ctx.call(admin.jar, 'GET', `/api/dashboard?workspaceId=${admin.workspaceId}`),
    );
    expect(
      body.actionsToFollowUp.map((a) => [a.description, a.reason, a.days, a.ownerName, a.checkTitle]),
    ).toEqual([
      ['Pair on reviews', 'no-follow-up', 40, expect.any(String), 'Autumn check'],
      ['Fix the flaky build', 'overdue', 10, expect.any(String), 'Autumn check'],
      ['Book the retro room', 'overdue', 8, 'Max Member', 'Autumn check'],
    ]);
    expect(body.actionsToFollowUp.map((a) => a.healthCheckId)).toEqual(Array(3).fill(check.healthCheckId));
  });

  it("lists the owner's own actions in their weekly digest, and no one else's", async () => {
    await enqueueJob(ctx.deps.db, {
      kind: SCHEDULE_JOBS.weeklyDigests,
      payload: { at: new Date().toISOString() },
    });
    await runNotificationJobs(ctx);
    const digest = (await mailsTo(ctx, admin.email)).find((m) => m.kind === 'weekly-digest');
    expect(digest).toBeTruthy();
    expect(digest!.text).toContain('Your actions to follow up:');
    expect(digest!.text).toContain(
      'Nudge Co: "Pair on reviews" (Autumn check): Done 40 days ago; no check has asked whether it helped',
    );
    expect(digest!.text).toContain('Nudge Co: "Fix the flaky build" (Autumn check): Overdue by 10 days');
    expect(digest!.text).not.toContain('Book the retro room');
    expect(digest!.text).not.toContain('Not yours');
  });
});
