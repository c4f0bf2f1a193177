import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  type NotificationPreferences,
} from '@pulsecheck/shared/account/schemas';
import { HEALTH_CHECK_MESSAGES } from '@pulsecheck/shared/health-checks/messages';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { user } from '../../db/schema/auth';
import { createAdmin, useAdmin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { createCheck } from '../../test/health-checks';
import { english, json } from '../../test/requests';
import { useStubServer } from '../../test/stub-server';

/** The Share dialog's 'Slack' (issue 32 item 8): it posts to the caller's Slack channel when theirs is connected. */
const ctx = useTestContext();
const admin = useAdmin(ctx, { companyName: 'Share Slack Co' });
const hook = useStubServer(({ path }) =>
  path === '/broken' ? { status: 404 } : { status: 200, body: 'ok' },
);

async function connectSlack(userId: string, path: string) {
  const prefs: NotificationPreferences = structuredClone(DEFAULT_NOTIFICATION_PREFERENCES);
  prefs.slackNotifications.channel = '#team-health';
  prefs.slackNotifications.webhookUrl = `${hook.url}${path}`;
  // Written directly so the webhook may be plain http on loopback (the API accepts https://hooks.slack.com only).
  await ctx.deps.db.update(user).set({ notificationPreferences: prefs }).where(eq(user.id, userId));
}

describe("the Share dialog's Slack", () => {
  it('says Slack is not connected and posts nothing until it is; then posts the join link to the channel', async () => {
    const check = await createCheck(ctx, admin, { title: 'Shared on Slack' });
    const path = `/api/health-checks/${check.healthCheckId}/share/slack`;
    expect(await json(await ctx.call(admin.jar, 'GET', path))).toEqual({ connected: false, channel: '' });
    const refused = await ctx.call(admin.jar, 'POST', path);
    expect(refused.status).toBe(409);
    expect((await json<{ error: { message: string } }>(refused)).error.message).toBe(
      english(HEALTH_CHECK_MESSAGES.slackNotConnected),
    );
    expect(hook.hits).toEqual([]);

    await connectSlack(admin.userId, '/hook');
    expect(await json(await ctx.call(admin.jar, 'GET', path))).toEqual({
      connected: true,
      channel: '#team-health',
    });
    const posted = await ctx.call(admin.jar, 'POST', path);
    expect(posted.status).toBe(200);
    expect(hook.hits.map((hit) => JSON.parse(hit.body) as unknown)).toEqual([
      {
        text: english(HEALTH_CHECK_MESSAGES.slackInvitation, {
          title: 'Shared on Slack',
          joinUrl: `${ctx.deps.config.appUrl}/join/${check.healthCheckId}`,
        }),
      },
    ]);

    // A webhook that refuses: the person is told, nothing pretends it went.
    await connectSlack(admin.userId, '/broken');
    const failed = await ctx.call(admin.jar, 'POST', path);
    expect(failed.status).toBe(503);
    expect((await json<{ error: { message: string } }>(failed)).error.message).toBe(
      english(HEALTH_CHECK_MESSAGES.slackFailed),
    );
  });

  it('is nothing to someone outside the workspace', async () => {
    const check = await createCheck(ctx, admin, { title: 'Not yours' });
    const stranger = await createAdmin(ctx);
    await connectSlack(stranger.userId, '/stranger');
    const path = `/api/health-checks/${check.healthCheckId}/share/slack`;
    expect((await ctx.call(stranger.jar, 'GET', path)).status).toBe(404);
    expect((await ctx.call(stranger.jar, 'POST', path)).status).toBe(404);
    expect(hook.hits.filter((hit) => hit.path === '/stranger')).toEqual([]);
  });
});
