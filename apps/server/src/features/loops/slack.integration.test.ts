import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  type NotificationPreferences,
} from '@pulsecheck/shared/account/schemas';
import type { LoopDetail } from '@pulsecheck/shared/loops/contract';
import { LOOP_MESSAGES } from '@pulsecheck/shared/loops/rules';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { user } from '../../db/schema/auth';
import { useAdmin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { addPeople, answerByLink, answerToken, launchLoop } from '../../test/loops';
import { runNotificationJobs } from '../../test/mail';
import { english, json } from '../../test/requests';
import { useStubServer } from '../../test/stub-server';

/**
 * Loops tell Slack as health checks do (issue 32 item 9): the loop's creator hears each round open and close, with
 * the response rate, where their Slack card is on (Completion Milestones). A local stand-in plays the webhook.
 */
const ctx = useTestContext();
const admin = useAdmin(ctx, { companyName: 'Slack Loops Co' });
const hook = useStubServer(() => ({ status: 200, body: 'ok' }));

async function slackOn(userId: string, on: boolean) {
  const prefs: NotificationPreferences = structuredClone(DEFAULT_NOTIFICATION_PREFERENCES);
  prefs.slackNotifications.channel = '#team-pulse';
  prefs.slackNotifications.webhookUrl = `${hook.url}/hook`;
  prefs.slackNotifications.completionMilestones = on;
  // Written directly so the webhook may be plain http on loopback (the API accepts https://hooks.slack.com only).
  await ctx.deps.db.update(user).set({ notificationPreferences: prefs }).where(eq(user.id, userId));
}

const posted = () => hook.hits.map((hit) => (JSON.parse(hit.body) as { text: string }).text);

describe('loops on Slack', () => {
  it("posts a round's opening and its closing with the response rate to the creator's channel", async () => {
    await slackOn(admin.userId, true);
    const people = await addPeople(ctx, admin.workspaceId, 3);
    const audience = { kind: 'members' as const, memberIds: people.map((p) => p.memberId) };
    const launched = await launchLoop(ctx, admin.jar, admin.workspaceId, { audience, title: 'Slack pulse' });
    for (const [index, person] of people.slice(0, 2).entries()) {
      const token = await answerToken(ctx, person.email);
      expect((await answerByLink(ctx, token, { scale: index + 3, enps: 9 })).status).toBe(201);
    }
    const { loop } = await json<{ loop: LoopDetail }>(
      await ctx.call(admin.jar, 'GET', `/api/loops/${launched.id}`),
    );
    const closed = await ctx.call(
      admin.jar,
      'POST',
      `/api/loops/${launched.id}/rounds/${loop.currentRound!.id}/close`,
    );
    expect(closed.status).toBe(200);
    await runNotificationJobs(ctx);

    const opened = english(LOOP_MESSAGES.roundOpenedNotice, { title: 'Slack pulse', number: 1, count: 3 });
    const ended = english(LOOP_MESSAGES.roundClosedNotice, {
      title: 'Slack pulse',
      number: 1,
      rate: '67%',
      answered: 2,
      audience: 3,
    });
    expect(ended).toBe('Round 1 of "Slack pulse" closed with a response rate of 67% (2 of 3)');
    const texts = posted();
    expect(texts.find((text) => text.includes(opened))).toMatch(
      /^\[#team-pulse\] Round 1 of "Slack pulse" opened/,
    );
    expect(texts.find((text) => text.includes(ended))).toContain('/admin/loop-results/');
    // Counts only: nobody's answer or name.
    for (const person of people) expect(texts.join('\n')).not.toContain(person.name);
  });

  it('posts nothing when the creator switched Completion Milestones off for Slack', async () => {
    await slackOn(admin.userId, false);
    hook.hits.length = 0;
    await addPeople(ctx, admin.workspaceId, 3);
    await launchLoop(ctx, admin.jar, admin.workspaceId, { title: 'Quiet Slack pulse' });
    await runNotificationJobs(ctx);
    expect(posted().filter((text) => text.includes('Quiet Slack pulse'))).toEqual([]);
  });
});
