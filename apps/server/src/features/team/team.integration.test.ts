import { TEAM_MESSAGES, type Member, type MembersResponse } from '@pulsecheck/shared/team/schemas';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notifications } from '../../db/schema/messaging';
import { invitations, workspaceMembers } from '../../db/schema/organizations';
import { addMember, createAdmin, invite } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { mailsTo, runNotificationJobs } from '../../test/mail';
import { CookieJar, english, json, type Jar } from '../../test/requests';
import { uniqueEmail } from '../../test/unique';

const ctx = useTestContext();

const team = async (jar: Jar, workspaceId: string) =>
  json<MembersResponse>(await ctx.call(jar, 'GET', `/api/workspaces/${workspaceId}/members`));

describe('inviting', () => {
  it('refuses an invalid e-mail and an empty role with the form messages', async () => {
    const admin = await createAdmin(ctx);
    for (const [body, field, message] of [
      [{ email: 'nope', role: 'Engineer' }, 'email', english(TEAM_MESSAGES.emailInvalid)],
      [{ email: '', role: 'Engineer' }, 'email', english(TEAM_MESSAGES.emailRequired)],
      [{ email: uniqueEmail(), role: '  ' }, 'role', english(TEAM_MESSAGES.roleRequired)],
    ] as const) {
      const response = await ctx.request('POST', `/api/workspaces/${admin.workspaceId}/invitations`, {
        body,
        headers: admin.jar.header(),
      });
      expect(response.status).toBe(400);
      expect((await json(response)).error.fields?.[field]).toBe(message);
    }
    expect((await team(admin.jar, admin.workspaceId)).members).toHaveLength(1);
  });

  it('e-mails a link, lists the person as pending, and lets them join through sign-up', async () => {
    const admin = await createAdmin(ctx);
    const email = uniqueEmail('New.Person');
    const invited = await invite(ctx, admin, { email, role: 'Designer', department: 'Product', admin: true });
    const [mail] = await mailsTo(ctx, email);
    expect(mail?.text).toContain(`http://localhost:3000/invite/${invited.token}`);

    const before = await team(admin.jar, admin.workspaceId);
    const pending = before.members.find((m) => m.id === invited.memberId)!;
    expect(pending).toMatchObject({
      status: 'pending',
      name: null,
      email: email.toLowerCase(),
      role: 'Designer',
      access: 'admin',
      department: 'Product',
    });
    expect(pending.invitation?.expired).toBe(false);
    const days = (Date.parse(pending.invitation!.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    // The token is stored hashed, never as sent.
    const stored = await ctx.deps.db
      .select()
      .from(invitations)
      .where(eq(invitations.memberId, invited.memberId));
    expect(stored[0]?.tokenHash).not.toContain(invited.token);

    const info = await json<{ state: string; workspaceName: string; accountExists: boolean }>(
      await ctx.request('GET', `/api/invitations/${invited.token}`),
    );
    expect(info).toMatchObject({ state: 'valid', workspaceName: 'Acme Rockets', accountExists: false });

    const weak = await ctx.request('POST', `/api/invitations/${invited.token}/accept-signup`, {
      body: { fullName: 'Nia', password: 'short', confirmPassword: 'short' },
    });
    expect(weak.status).toBe(400);

    const jar = new CookieJar();
    const accepted = jar.store(
      await ctx.request('POST', `/api/invitations/${invited.token}/accept-signup`, {
        body: { fullName: 'Nia New', password: 'nia-password-1', confirmPassword: 'nia-password-1' },
      }),
    );
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toEqual({ workspaceId: admin.workspaceId, redirectTo: '/admin/dashboard' });
    const me = await json<{ user: { activeWorkspaceId: string; canAdmin: boolean; home: string } }>(
      await ctx.call(jar, 'GET', '/api/me'),
    );
    expect(me.user).toMatchObject({
      activeWorkspaceId: admin.workspaceId,
      canAdmin: true,
      home: '/admin/dashboard',
    });

    const after = await team(admin.jar, admin.workspaceId);
    expect(after.members.find((m) => m.id === invited.memberId)).toMatchObject({
      status: 'active',
      name: 'Nia New',
      invitation: null,
    });
    // The link is spent.
    const again = await ctx.request('POST', `/api/invitations/${invited.token}/accept-signup`, {
      body: { fullName: 'Someone', password: 'other-password-1', confirmPassword: 'other-password-1' },
    });
    expect(again.status).toBe(409);
  });

  it('lets an existing account accept while signed in with the invited address only', async () => {
    const admin = await createAdmin(ctx);
    const other = await createAdmin(ctx, { companyName: 'Other Org' });
    const stranger = await createAdmin(ctx, { companyName: 'Stranger Org' });
    const invited = await invite(ctx, admin, { email: other.email });
    const info = await json<{ accountExists: boolean }>(
      await ctx.request('GET', `/api/invitations/${invited.token}`),
    );
    expect(info.accountExists).toBe(true);
    const signup = await ctx.request('POST', `/api/invitations/${invited.token}/accept-signup`, {
      body: { fullName: 'X', password: 'xxxxxxxx1', confirmPassword: 'xxxxxxxx1' },
    });
    expect(signup.status).toBe(409);
    expect((await json(signup)).error.message).toBe(english(TEAM_MESSAGES.invitationAccountExists));

    expect((await ctx.request('POST', `/api/invitations/${invited.token}/accept`)).status).toBe(401);
    const wrong = await ctx.call(stranger.jar, 'POST', `/api/invitations/${invited.token}/accept`);
    expect(wrong.status).toBe(403);
    expect((await json(wrong)).error.message).toBe(english(TEAM_MESSAGES.invitationWrongUser));

    const ok = await ctx.call(other.jar, 'POST', `/api/invitations/${invited.token}/accept`);
    expect(ok.status).toBe(200);
    const me = await json<{ user: { activeWorkspaceId: string } }>(
      await ctx.call(other.jar, 'GET', '/api/me'),
    );
    expect(me.user.activeWorkspaceId).toBe(admin.workspaceId);
    // Accepting twice is harmless.
    expect((await ctx.call(other.jar, 'POST', `/api/invitations/${invited.token}/accept`)).status).toBe(200);
    const members = (await team(admin.jar, admin.workspaceId)).members;
    expect(members.filter((m) => m.userId === other.userId)).toHaveLength(1);
  });

  it('refuses a second invitation to the same address and an invitation to a member', async () => {
    const admin = await createAdmin(ctx);
    const invited = await invite(ctx, admin);
    const again = await ctx.call(admin.jar, 'POST', `/api/workspaces/${admin.workspaceId}/invitations`, {
      email: invited.email.toUpperCase(),
      role: 'Engineer',
    });
    expect(again.status).toBe(409);
    expect((await json(again)).error.message).toBe(english(TEAM_MESSAGES.alreadyInvited));
    const self = await ctx.call(admin.jar, 'POST', `/api/workspaces/${admin.workspaceId}/invitations`, {
      email: admin.email,
      role: 'Engineer',
    });
    expect(self.status).toBe(409);
    expect((await json(self)).error.message).toBe(english(TEAM_MESSAGES.alreadyMember));
  });
});

describe('invitation expiry, resend and revoke', () => {
  it('shows an expired link as expired, and a resent link works while the old one does not', async () => {
    const admin = await createAdmin(ctx);
    const invited = await invite(ctx, admin);
    await ctx.deps.db
      .update(invitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(invitations.memberId, invited.memberId));
    const info = await json<{ state: string }>(await ctx.request('GET', `/api/invitations/${invited.token}`));
    expect(info.state).toBe('expired');
    const expired = await ctx.request('POST', `/api/invitations/${invited.token}/accept-signup`, {
      body: { fullName: 'Late', password: 'late-password', confirmPassword: 'late-password' },
    });
    expect(expired.status).toBe(409);
    expect((await json(expired)).error.message).toBe(english(TEAM_MESSAGES.invitationExpired));
    const listed = (await team(admin.jar, admin.workspaceId)).members.find((m) => m.id === invited.memberId);
    expect(listed?.invitation?.expired).toBe(true);

    const resend = await ctx.call(
      admin.jar,
      'POST',
      `/api/workspaces/${admin.workspaceId}/invitations/${invited.memberId}/resend`,
    );
    expect(resend.status).toBe(200);
    expect((await json<{ member: Member }>(resend)).member.invitation?.expired).toBe(false);
    const old = await ctx.request('GET', `/api/invitations/${invited.token}`);
    expect(old.status).toBe(404);
    expect((await json(old)).error.message).toBe(english(TEAM_MESSAGES.invitationInvalid));
    const mails = await mailsTo(ctx, invited.email);
    expect(mails).toHaveLength(2);
    const fresh = /\/invite\/([A-Za-z0-9_-]+)/.exec(mails[0]!.text)![1]!;
    expect(fresh).not.toBe(invited.token);
    expect((await ctx.request('GET', `/api/invitations/${fresh}`)).status).toBe(200);
  });

  it('revokes: the member row goes and the link says so', async () => {
    const admin = await createAdmin(ctx);
    const invited = await invite(ctx, admin);
    const revoke = await ctx.call(
      admin.jar,
      'DELETE',
      `/api/workspaces/${admin.workspaceId}/invitations/${invited.memberId}`,
    );
    expect(revoke.status).toBe(200);
    expect((await team(admin.jar, admin.workspaceId)).members.map((m) => m.id)).not.toContain(
      invited.memberId,
    );
    const link = await ctx.request('GET', `/api/invitations/${invited.token}`);
    expect(link.status).toBe(404);
    expect((await json(link)).error.message).toBe(english(TEAM_MESSAGES.invitationInvalid));
  });

  it('shows a failed invitation e-mail to the admin', async () => {
    const admin = await createAdmin(ctx);
    const invited = await invite(ctx, admin);
    const { mailOutbox } = await import('../../db/schema/messaging');
    await ctx.deps.db
      .update(mailOutbox)
      .set({ status: 'failed', lastError: '550 mailbox unavailable' })
      .where(eq(mailOutbox.to, invited.email));
    const listed = (await team(admin.jar, admin.workspaceId)).members.find((m) => m.id === invited.memberId);
    expect(listed?.invitation).toMatchObject({
      delivery: 'failed',
      deliveryError: '550 mailbox unavailable',
    });
  });
});

describe('roles, access and removal', () => {
  it('keeps the last admin: no demotion, no removal, 409 with a clear message', async () => {
    const admin = await createAdmin(ctx);
    const { members } = await team(admin.jar, admin.workspaceId);
    const self = members.find((m) => m.userId === admin.userId)!;
    const demote = await ctx.call(
      admin.jar,
      'PATCH',
      `/api/workspaces/${admin.workspaceId}/members/${self.id}`,
      { access: 'member' },
    );
    expect(demote.status).toBe(409);
    expect((await json(demote)).error.message).toBe(english(TEAM_MESSAGES.lastAdmin));
    const remove = await ctx.call(
      admin.jar,
      'DELETE',
      `/api/workspaces/${admin.workspaceId}/members/${self.id}`,
    );
    expect(remove.status).toBe(409);
    const [row] = await ctx.deps.db.select().from(workspaceMembers).where(eq(workspaceMembers.id, self.id));
    expect(row?.access).toBe('admin');
  });

  it('lets two admins demote each other at once: exactly one succeeds', async () => {
    const admin = await createAdmin(ctx);
    const second = await addMember(ctx, admin, { admin: true });
    const { members } = await team(admin.jar, admin.workspaceId);
    const first = members.find((m) => m.userId === admin.userId)!;
    const results = await Promise.all([
      ctx.call(admin.jar, 'PATCH', `/api/workspaces/${admin.workspaceId}/members/${second.memberId}`, {
        access: 'member',
      }),
      ctx.call(second.jar, 'PATCH', `/api/workspaces/${admin.workspaceId}/members/${first.id}`, {
        access: 'member',
      }),
    ]);
    // The loser is refused either as no longer an admin (403) or as the last admin's target (409).
    const statuses = results.map((r) => r.status).sort();
    expect(statuses[0]).toBe(200);
    expect([403, 409]).toContain(statuses[1]);
    const admins = (await team(admin.jar, admin.workspaceId)).members.filter((m) => m.access === 'admin');
    expect(admins).toHaveLength(1);
  });

  it('changes a role label, access and department, and removes a member', async () => {
    const admin = await createAdmin(ctx);
    const member = await addMember(ctx, admin);
    const patch = await ctx.call(
      admin.jar,
      'PATCH',
      `/api/workspaces/${admin.workspaceId}/members/${member.memberId}`,
      { role: 'Tech Lead', access: 'admin', department: 'Platform' },
    );
    expect(patch.status).toBe(200);
    expect((await json<{ member: Member }>(patch)).member).toMatchObject({
      role: 'Tech Lead',
      access: 'admin',
      department: 'Platform',
    });
    const departments = await json<{ departments: string[] }>(
      await ctx.call(admin.jar, 'GET', `/api/workspaces/${admin.workspaceId}/departments`),
    );
    expect(departments.departments).toEqual(['Platform']);
    const empty = await ctx.call(
      admin.jar,
      'PATCH',
      `/api/workspaces/${admin.workspaceId}/members/${member.memberId}`,
      { role: '' },
    );
    expect(empty.status).toBe(400);

    const removed = await ctx.call(
      admin.jar,
      'DELETE',
      `/api/workspaces/${admin.workspaceId}/members/${member.memberId}`,
    );
    expect(removed.status).toBe(200);
    const gone = await ctx.call(member.jar, 'GET', `/api/workspaces/${admin.workspaceId}/members`);
    expect(gone.status).toBe(404);
    const me = await json<{ user: { activeWorkspaceId: string | null; canAdmin: boolean } }>(
      await ctx.call(member.jar, 'GET', '/api/me'),
    );
    expect(me.user).toMatchObject({ activeWorkspaceId: null, canAdmin: false });
  });

  it('lets members look but not manage, and shows outsiders nothing', async () => {
    const admin = await createAdmin(ctx);
    const member = await addMember(ctx, admin);
    const outsider = await createAdmin(ctx, { companyName: 'Elsewhere' });
    const view = await team(member.jar, admin.workspaceId);
    expect(view.canManage).toBe(false);
    expect(view.members).toHaveLength(2);
    const refused = await ctx.call(member.jar, 'POST', `/api/workspaces/${admin.workspaceId}/invitations`, {
      email: uniqueEmail(),
      role: 'Engineer',
    });
    expect(refused.status).toBe(403);
    expect((await json(refused)).error.message).toBe(english(TEAM_MESSAGES.manageForbidden));
    for (const [method, path] of [
      ['GET', `/api/workspaces/${admin.workspaceId}/members`],
      ['POST', `/api/workspaces/${admin.workspaceId}/invitations`],
      ['DELETE', `/api/workspaces/${admin.workspaceId}/members/${member.memberId}`],
    ] as const) {
      const response = await ctx.request(method, path, {
        headers: outsider.jar.header(),
        ...(method === 'POST' ? { body: { email: uniqueEmail(), role: 'x' } } : {}),
      });
      expect(response.status).toBe(404);
    }
    expect((await ctx.request('GET', `/api/workspaces/${admin.workspaceId}/members`)).status).toBe(401);
  });
});

describe('team updates', () => {
  it('rings the bell by default and e-mails only those who switched team update e-mails on', async () => {
    const admin = await createAdmin(ctx);
    const watcher = await addMember(ctx, admin, { fullName: 'Wendy Watcher' });
    const prefs = await json<{ preferences: { emailNotifications: Record<string, boolean> } }>(
      await ctx.call(watcher.jar, 'GET', '/api/account/notification-preferences'),
    );
    prefs.preferences.emailNotifications.teamUpdates = true;
    expect(
      (await ctx.call(watcher.jar, 'PUT', '/api/account/notification-preferences', prefs.preferences)).status,
    ).toBe(200);

    await addMember(ctx, admin, { fullName: 'Jo Joiner' });
    await runNotificationJobs(ctx);
    const bell = await ctx.deps.db.select().from(notifications).where(eq(notifications.userId, admin.userId));
    expect(bell.map((n) => n.message)).toContain('Jo Joiner joined Acme Rockets');
    expect((await mailsTo(ctx, watcher.email)).map((m) => m.subject)).toContain(
      'Team update: Jo Joiner joined Acme Rockets',
    );
    expect((await mailsTo(ctx, admin.email)).some((m) => m.subject.startsWith('Team update'))).toBe(false);
  });
});
