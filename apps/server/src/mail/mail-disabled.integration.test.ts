import type { CurrentUser } from '@pulsecheck/shared/auth/schemas';
import type { LaunchResponse } from '@pulsecheck/shared/health-checks/schemas';
import type { Member, MembersResponse } from '@pulsecheck/shared/team/schemas';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger';
import { createAdmin, validParticipantSignup, validSignup } from '../test/accounts';
import { useTestContext, type TestContext } from '../test/harness';
import { createCheck } from '../test/health-checks';
import { mailsTo } from '../test/mail';
import { json } from '../test/requests';
import { uniqueEmail } from '../test/unique';
import { MAIL_DISABLED_REASON } from './mailer';
import { processOutbox } from './outbox';

/**
 * MAIL_DISABLED=true (the only way to run production without SMTP_URL): every e-mail is recorded as failed with
 * the reason, none is ever handed to a sender, and every answer says no e-mail went out ('off'). With e-mail on
 * (development's local outbox included) the same actions answer 'sending' and queue the e-mail as before.
 */

/** Runs the outbox once with a sender that records what it is handed. */
async function drainOutbox(ctx: TestContext) {
  const handed: string[] = [];
  await processOutbox({
    db: ctx.deps.db,
    logger: createLogger('silent'),
    send: async (mail) => {
      handed.push(mail.to);
    },
  });
  return handed;
}

describe('with MAIL_DISABLED=true', () => {
  const ctx = useTestContext({ mailDisabled: true });

  it('answers sign-ups, password reset and resend with mail "off", and records their e-mails as failed', async () => {
    const admin = validSignup();
    const signup = await ctx.request('POST', '/api/signup', { body: admin });
    expect(signup.status).toBe(201);
    expect(await signup.json()).toEqual({ ok: true, mail: 'off' });

    const check = await createCheck(ctx, await createAdmin(ctx));
    const participant = validParticipantSignup(check.healthCheckId);
    const joined = await ctx.request('POST', '/api/signup/participant', { body: participant });
    expect(joined.status).toBe(201);
    expect(await joined.json()).toEqual({ ok: true, mail: 'off' });

    const resend = await ctx.request('POST', '/api/verification/resend', { body: { email: admin.email } });
    expect(await resend.json()).toEqual({ ok: true, mail: 'off' });
    const forgot = await ctx.request('POST', '/api/password/forgot', { body: { email: admin.email } });
    expect(await forgot.json()).toEqual({ ok: true, mail: 'off' });

    for (const email of [admin.email, participant.email]) {
      const mails = await mailsTo(ctx, email);
      expect(mails.length).toBeGreaterThan(0);
      for (const mail of mails) {
        expect(mail).toMatchObject({ status: 'failed', lastError: MAIL_DISABLED_REASON, sentAt: null });
      }
    }
    // Nothing is ever handed to a sender.
    expect(await drainOutbox(ctx)).toEqual([]);
    expect((await mailsTo(ctx, admin.email)).every((mail) => mail.status === 'failed')).toBe(true);
  });

  it("marks an invitation's e-mail failed with the reason, so the team screens show 'Email failed'", async () => {
    const admin = await createAdmin(ctx);
    const email = uniqueEmail('invitee');
    const invited = await ctx.call(admin.jar, 'POST', `/api/workspaces/${admin.workspaceId}/invitations`, {
      email,
      role: 'Engineer',
    });
    expect(invited.status).toBe(201);
    const { member } = await json<{ member: Member }>(invited);
    expect(member.invitation).toMatchObject({ delivery: 'failed', deliveryError: MAIL_DISABLED_REASON });

    const resent = await ctx.call(
      admin.jar,
      'POST',
      `/api/workspaces/${admin.workspaceId}/invitations/${member.id}/resend`,
    );
    expect((await json<{ member: Member }>(resent)).member.invitation?.delivery).toBe('failed');
    const team = await json<MembersResponse>(
      await ctx.call(admin.jar, 'GET', `/api/workspaces/${admin.workspaceId}/members`),
    );
    expect(team.members.find((m) => m.email === email)?.invitation?.delivery).toBe('failed');
    expect(await drainOutbox(ctx)).toEqual([]);
  });

  it('tells the signed-in screens that e-mail is off, and a launch that the team was not e-mailed', async () => {
    const admin = await createAdmin(ctx);
    const { user } = await json<{ user: CurrentUser }>(await ctx.call(admin.jar, 'GET', '/api/me'));
    expect(user.mailEnabled).toBe(false);

    const template = await json<{ template: { id: string; components: { id: string }[] } }>(
      await ctx.call(admin.jar, 'GET', '/api/templates/new'),
    );
    const team = uniqueEmail('team');
    const launched = await ctx.call(admin.jar, 'POST', '/api/health-checks', {
      workspaceId: admin.workspaceId,
      templateId: template.template.id,
      title: 'No mail launch',
      description: '',
      settings: {
        minResponses: 1,
        allowAnonymous: true,
        enableComments: true,
        votesPerPerson: 5,
        showResultsAfterVoting: true,
      },
      enabledComponentIds: template.template.components.slice(0, 2).map((c) => c.id),
      teamEmails: [team],
      launchKey: `launch-${team}`,
    });
    expect(launched.status).toBe(201);
    expect((await json<LaunchResponse>(launched)).mail).toBe('off');
    expect(await mailsTo(ctx, team)).toEqual([
      expect.objectContaining({ status: 'failed', lastError: MAIL_DISABLED_REASON }),
    ]);
  });
});

describe('with e-mail on (no SMTP_URL outside production: the local outbox)', () => {
  const ctx = useTestContext();

  it('answers "sending", tells the screens e-mail is on, and queues the e-mail for the sender', async () => {
    const admin = validSignup();
    const signup = await ctx.request('POST', '/api/signup', { body: admin });
    expect(await signup.json()).toEqual({ ok: true, mail: 'sending' });
    expect(await mailsTo(ctx, admin.email)).toEqual([expect.objectContaining({ status: 'pending' })]);
    expect(await drainOutbox(ctx)).toContain(admin.email.toLowerCase());
    expect(await mailsTo(ctx, admin.email)).toEqual([expect.objectContaining({ status: 'sent' })]);

    const forgot = await ctx.request('POST', '/api/password/forgot', { body: { email: admin.email } });
    expect(await forgot.json()).toEqual({ ok: true, mail: 'sending' });

    const signedIn = await createAdmin(ctx);
    const { user } = await json<{ user: CurrentUser }>(await ctx.call(signedIn.jar, 'GET', '/api/me'));
    expect(user.mailEnabled).toBe(true);
  });
});
