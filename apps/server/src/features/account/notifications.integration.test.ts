import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  type NotificationPreferences,
} from '@pulsecheck/shared/account/schemas';
import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { user } from '../../db/schema/auth';
import { participants } from '../../db/schema/health-checks';
import { jobs, notifications } from '../../db/schema/messaging';
import { enqueueJob } from '../../jobs/queue';
import { addMember, createAdmin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { createCheck } from '../../test/health-checks';
import { mailsTo, runNotificationJobs } from '../../test/mail';
import { useStubServer } from '../../test/stub-server';
import { notify } from '../notifications/service';
import { SCHEDULE_JOBS } from './notification-jobs';

const ctx = useTestContext();
// A local stand-in for Slack's incoming webhooks: /ok accepts, /down fails like an outage.
const slack = useStubServer(({ path }) =>
  path === '/down' ? { status: 500, body: 'error' } : { status: 200, body: 'ok' },
);
const received = () =>
  slack.hits.map((hit) => ({ path: hit.path, body: JSON.parse(hit.body) as { text: string } }));

async function setPreferences(userId: string, change: (p: NotificationPreferences) => void) {
  const prefs = structuredClone(DEFAULT_NOTIFICATION_PREFERENCES);
  change(prefs);
  // Written directly so the test webhook may be plain http on loopback (the API accepts https only).
  await ctx.deps.db.update(user).set({ notificationPreferences: prefs }).where(eq(user.id, userId));
}

const bellOf = (userId: string) =>
  ctx.deps.db.select().from(notifications).where(eq(notifications.userId, userId));

describe('notify() honours each recipient', () => {
  it('rings the bell and e-mails only when the setting for that kind is on', async () => {
    const admin = await createAdmin(ctx);
    const { healthCheckId: checkId } = await createCheck(ctx, admin);
    const message = 'All participants have completed "Q4 Health Check"';
    await notify(ctx.deps, {
      userIds: [admin.userId],
      type: 'all-completed',
      message,
      healthCheckId: checkId,
      link: '/x',
    });
    await runNotificationJobs(ctx);
    expect((await bellOf(admin.userId)).map((n) => n.message)).toEqual([message]);
    expect((await mailsTo(ctx, admin.email)).filter((m) => m.subject === message)).toHaveLength(1);

    await setPreferences(admin.userId, (p) => {
      p.emailNotifications.newResponses = false;
      p.pushNotifications.completionMilestones = false;
    });
    await notify(ctx.deps, {
      userIds: [admin.userId],
      type: 'all-completed',
      message,
      healthCheckId: checkId,
    });
    await runNotificationJobs(ctx);
    expect(await bellOf(admin.userId)).toHaveLength(1);
    expect((await mailsTo(ctx, admin.email)).filter((m) => m.subject === message)).toHaveLength(1);
  });

  it('stops an e-mail already queued when the setting is switched off before it goes', async () => {
    const admin = await createAdmin(ctx);
    await setPreferences(admin.userId, (p) => (p.emailNotifications.teamUpdates = true));
    await notify(ctx.deps, { userIds: [admin.userId], type: 'team-update', message: 'Sam joined' });
    await setPreferences(admin.userId, (p) => (p.emailNotifications.teamUpdates = false));
    await runNotificationJobs(ctx);
    expect((await mailsTo(ctx, admin.email)).some((m) => m.subject.includes('Sam joined'))).toBe(false);
  });

  it('summarises new responses in one e-mail per check and hour', async () => {
    const admin = await createAdmin(ctx);
    const { healthCheckId: checkId } = await createCheck(ctx, admin, { title: 'Busy Check' });
    const people = [await addMember(ctx, admin), await addMember(ctx, admin)];
    for (const person of people) {
      await ctx.deps.db.insert(participants).values({
        healthCheckId: checkId,
        userId: person.userId,
        status: 'completed',
        completedAt: new Date(),
      });
      await notify(ctx.deps, {
        userIds: [admin.userId],
        type: 'new-response',
        message: 'A new response',
        healthCheckId: checkId,
      });
    }
    const queued = await ctx.deps.db
      .select()
      .from(jobs)
      .where(like(jobs.uniqueKey, `new-responses-email:${admin.userId}:${checkId}:%`));
    expect(queued).toHaveLength(1);
    expect(queued[0]!.runAt.getTime()).toBeGreaterThan(Date.now());
    await ctx.deps.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, queued[0]!.id));
    await runNotificationJobs(ctx);
    const mails = (await mailsTo(ctx, admin.email)).filter((m) => m.subject.includes('Busy Check'));
    expect(mails.map((m) => m.subject)).toEqual(['2 new responses to "Busy Check"']);
    expect((await bellOf(admin.userId)).filter((n) => n.type === 'new-response')).toHaveLength(2);
  });
});

describe('Slack', () => {
  it("posts to the user's webhook with the channel name, and retries a failing webhook without breaking the action", async () => {
    const admin = await createAdmin(ctx);
    await setPreferences(admin.userId, (p) => {
      p.slackNotifications.webhookUrl = `${slack.url}/ok`;
      p.slackNotifications.channel = '#team-health';
    });
    await notify(ctx.deps, {
      userIds: [admin.userId],
      type: 'completion-milestone',
      message: '50% of participants have completed "Q4"',
      link: '/admin/health-check/1/manage',
    });
    await notify(ctx.deps, {
      userIds: [admin.userId],
      type: 'new-response',
      message: 'not for Slack by default',
    });
    await runNotificationJobs(ctx);
    const posts = received().filter((r) => r.path === '/ok');
    expect(posts).toHaveLength(1);
    expect(posts[0]!.body.text).toBe(
      '[#team-health] 50% of participants have completed "Q4" <http://localhost:3000/admin/health-check/1/manage|Open in Pulsecheck>',
    );

    await setPreferences(admin.userId, (p) => (p.slackNotifications.webhookUrl = `${slack.url}/down`));
    await expect(
      notify(ctx.deps, {
        userIds: [admin.userId],
        type: 'completion-milestone',
        message: 'Everyone is done',
      }),
    ).resolves.toBeUndefined();
    await runNotificationJobs(ctx);
    expect(received().filter((r) => r.path === '/down')).toHaveLength(1);
    const [job] = await ctx.deps.db
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, 'slack-post'), eq(jobs.status, 'pending')));
    expect(job).toMatchObject({ attempts: 1, lastError: 'Slack webhook answered 500' });

    await setPreferences(admin.userId, (p) => (p.slackNotifications.enabled = false));
    await ctx.deps.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, job!.id));
    await runNotificationJobs(ctx);
    expect(received().filter((r) => r.path === '/down')).toHaveLength(1);
  });
});

describe('scheduled e-mails', () => {
  it('sends reminders once a day with a working unsubscribe link, the weekly digest on Mondays and the monthly report on the 1st, once each', async () => {
    const admin = await createAdmin(ctx, { companyName: 'Digest Co' });
    const member = await addMember(ctx, admin, { fullName: 'Rita Rater' });
    const { healthCheckId: checkId } = await createCheck(ctx, admin, { title: 'Winter Check' });
    await ctx.deps.db.insert(participants).values({
      healthCheckId: checkId,
      userId: member.userId,
      status: 'in_progress',
      createdAt: new Date(Date.now() - 2 * 86_400_000),
    });
    const tick = async (at: string) => {
      await enqueueJob(ctx.deps.db, {
        kind: SCHEDULE_JOBS.tick,
        payload: { at },
        uniqueKey: `test-tick:${at}`,
      });
      await runNotificationJobs(ctx);
    };
    await tick('2026-11-30T06:00:00.000Z'); // a Monday, before the sending hour
    expect(await mailsTo(ctx, member.email)).toHaveLength(1); // the invitation only
    await tick('2026-11-30T08:00:00.000Z');
    await tick('2026-11-30T09:00:00.000Z');

    const reminders = (await mailsTo(ctx, member.email)).filter((m) => m.kind === 'survey-reminder');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]!.subject).toBe('Reminder: "Winter Check" is waiting for your ratings');
    const digests = (await mailsTo(ctx, admin.email)).filter((m) => m.kind === 'weekly-digest');
    expect(digests).toHaveLength(1);
    expect(digests[0]!.text).toContain('Digest Co: "Winter Check" (collecting responses), 0 of 1 completed');
    const next = await ctx.deps.db
      .select()
      .from(jobs)
      .where(eq(jobs.uniqueKey, 'notifications-tick:2026-11-30T10:00:00.000Z'));
    expect(next).toHaveLength(1);

    const token = /unsubscribe\?token=([A-Za-z0-9_.-]+)/.exec(reminders[0]!.text)?.[1];
    expect(token).toBeTruthy();
    expect(reminders[0]!.html).toContain(`<a href="http://localhost:3000/unsubscribe?token=${token}"`);
    expect((await ctx.request('POST', '/api/account/unsubscribe', { body: { token } })).status).toBe(200);

    await tick('2026-12-01T08:00:00.000Z'); // the 1st: monthly report; reminders are now off for the member
    expect((await mailsTo(ctx, member.email)).filter((m) => m.kind === 'survey-reminder')).toHaveLength(1);
    expect((await mailsTo(ctx, admin.email)).filter((m) => m.kind === 'monthly-report')).toHaveLength(1);
    expect((await mailsTo(ctx, admin.email)).filter((m) => m.kind === 'weekly-digest')).toHaveLength(1);
  });

  it('sends no digest to someone who switched it off', async () => {
    const admin = await createAdmin(ctx, { companyName: 'Quiet Co' });
    await createCheck(ctx, admin);
    await setPreferences(admin.userId, (p) => (p.emailNotifications.weeklyDigest = false));
    await enqueueJob(ctx.deps.db, {
      kind: SCHEDULE_JOBS.weeklyDigests,
      payload: { at: '2026-12-07T08:00:00.000Z' },
    });
    await runNotificationJobs(ctx);
    expect((await mailsTo(ctx, admin.email)).filter((m) => m.kind === 'weekly-digest')).toHaveLength(0);
  });
});
