import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  type NotificationPreferences,
} from '@pulsecheck/shared/account/schemas';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { user } from '../../db/schema/auth';
import { jobs } from '../../db/schema/messaging';
import { createAdmin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { runNotificationJobs } from '../../test/mail';
import { useStubServer } from '../../test/stub-server';
import { notify } from '../notifications/service';

/**
 * Trust item 10: a Slack webhook that answers with a redirect must not lead the server's request anywhere else
 * (past the hooks.slack.com allow-list). A local stand-in for the webhook redirects to a second path on the same
 * server, which records whatever reaches it.
 */
const ctx = useTestContext();
const hook = useStubServer(({ path }, url) => {
  const status = /^\/redirect-(\d{3})$/.exec(path)?.[1];
  return status
    ? { status: Number(status), headers: { location: `${url}/elsewhere` } }
    : { status: 200, body: 'ok' };
});
const hits = hook.hits;

async function useWebhook(userId: string, webhookUrl: string) {
  const prefs: NotificationPreferences = structuredClone(DEFAULT_NOTIFICATION_PREFERENCES);
  prefs.slackNotifications.webhookUrl = webhookUrl;
  // Written directly so the webhook may be plain http on loopback (the API accepts https://hooks.slack.com only).
  await ctx.deps.db.update(user).set({ notificationPreferences: prefs }).where(eq(user.id, userId));
}

describe('Slack posts', () => {
  it.each([301, 302, 303, 307, 308])(
    'do not follow a %i redirect, and count it as a failure',
    async (status) => {
      const admin = await createAdmin(ctx);
      await useWebhook(admin.userId, `${hook.url}/redirect-${status}`);
      await notify(ctx.deps, {
        userIds: [admin.userId],
        type: 'completion-milestone',
        message: `Milestone ${status}`,
      });
      await runNotificationJobs(ctx);

      expect(hits.filter((h) => h.path === `/redirect-${status}`)).toHaveLength(1);
      expect(hits.filter((h) => h.path === '/elsewhere')).toEqual([]);
      const [job] = await ctx.deps.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, 'slack-post'), eq(jobs.status, 'pending')));
      expect(job?.lastError).toBe(`Slack webhook answered ${status}: redirects are not followed`);
      // Out of the way of the next case.
      await ctx.deps.db.delete(jobs).where(eq(jobs.id, job!.id));
    },
  );
});
