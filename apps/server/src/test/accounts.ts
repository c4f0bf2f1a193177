import { eq } from 'drizzle-orm';
import { user } from '../db/schema/auth';
import { participants } from '../db/schema/health-checks';
import { workspaceMembers } from '../db/schema/organizations';
import { participantRows, type CheckFixture } from './health-checks';
import { useForAll, type TestContext } from './harness';
import { followLink, latestMail, linkIn } from './mail';
import { CookieJar, type Jar } from './requests';
import { unique, uniqueEmail } from './unique';

/**
 * People for tests: admins (through sign-up and set-up), members (invited, or straight in the database),
 * participants (through the join link, or straight in the database), each with a signed-in cookie jar.
 */

export const validSignup = (overrides: Record<string, unknown> = {}) => ({
  fullName: 'Ada Admin',
  email: uniqueEmail('admin'),
  password: 'correct-horse-battery',
  confirmPassword: 'correct-horse-battery',
  companyName: 'Acme Rockets',
  companySize: '11-50',
  role: 'Head of People',
  acceptTerms: true,
  ...overrides,
});

/** A valid participant sign-up from the join link of `healthCheckId`. */
export const validParticipantSignup = (healthCheckId: string, overrides: Record<string, unknown> = {}) => ({
  fullName: 'Pat Participant',
  email: uniqueEmail('participant'),
  password: 'participant-password',
  healthCheckId,
  ...overrides,
});

/** GET /api/me as `jar`. */
export async function me<T = { user: { id: string; activeWorkspaceId: string } }>(
  ctx: TestContext,
  jar: Jar,
) {
  return (await (await ctx.call(jar, 'GET', '/api/me')).json()) as T;
}

/** A new session of the account (a second browser); `extra` goes with the login (`rememberMe`). */
export async function signIn(
  ctx: TestContext,
  email: string,
  password: string,
  extra: { rememberMe?: boolean } = {},
) {
  const jar = new CookieJar();
  const response = jar.store(
    await ctx.request('POST', '/api/login', { body: { email, password, ...extra } }),
  );
  if (response.status !== 200) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return jar;
}

/** Signs an admin up, verifies the e-mail and runs the organisation set-up; returns a signed-in cookie jar. */
export async function createAdmin(ctx: TestContext, overrides: Record<string, unknown> = {}) {
  const body = validSignup(overrides);
  const signup = await ctx.request('POST', '/api/signup', { body });
  if (signup.status !== 201) throw new Error(`sign-up failed: ${signup.status} ${await signup.text()}`);
  const mail = await latestMail(ctx, body.email, 'Verify');
  const { jar } = await followLink(ctx, linkIn(mail.text));
  const setup = await ctx.call(jar, 'POST', '/api/onboarding/setup');
  if (setup.status !== 200) throw new Error(`set-up failed: ${setup.status} ${await setup.text()}`);
  const { user } = await me(ctx, jar);
  return { ...body, jar, userId: user.id, workspaceId: user.activeWorkspaceId };
}

export type Admin = Awaited<ReturnType<typeof createAdmin>>;

/** An admin for the tests of this file, made once `ctx` is ready. */
export const useAdmin = (ctx: TestContext, overrides: Record<string, unknown> = {}) =>
  useForAll(() => createAdmin(ctx, overrides));

/** A user with a password who can sign in, optionally a member of a workspace; returns a signed-in cookie jar. */
export async function signedInUser(
  ctx: TestContext,
  options: {
    workspaceId?: string;
    access?: 'admin' | 'member' | 'participant';
    name?: string;
    email?: string;
  } = {},
) {
  const email = options.email ?? uniqueEmail('member');
  const password = 'correct-horse-battery';
  const name = options.name ?? `Member ${unique('m')}`;
  await ctx.deps.auth.api.signUpEmail({ body: { name, email, password } });
  const [row] = await ctx.deps.db
    .update(user)
    .set({ emailVerified: true })
    .where(eq(user.email, email))
    .returning({ id: user.id });
  const userId = row!.id;
  if (options.workspaceId) {
    await ctx.deps.db.insert(workspaceMembers).values({
      workspaceId: options.workspaceId,
      userId,
      access: options.access ?? 'member',
      status: 'active',
    });
  }
  return { userId, email, name, jar: await signIn(ctx, email, password) };
}

/** A signed-in participant of the check straight in the database (a 'participant' membership and a row). */
export async function signedInParticipant(
  ctx: TestContext,
  check: Pick<CheckFixture, 'healthCheckId' | 'workspaceId'>,
  status: 'pending' | 'in_progress' | 'completed' = 'completed',
) {
  const person = await signedInUser(ctx, { workspaceId: check.workspaceId, access: 'participant' });
  const [row] = await ctx.deps.db
    .insert(participants)
    .values(participantRows(check.healthCheckId, [person.userId], status))
    .returning({ id: participants.id });
  return { ...person, participantId: row!.id };
}

/**
 * A verified, signed-in account made through the participant sign-up of `healthCheckId` (so its pending
 * join points there), not yet registered as a participant.
 */
export async function signUpParticipant(ctx: TestContext, healthCheckId: string, name = 'Pat Participant') {
  const body = validParticipantSignup(healthCheckId, { fullName: name });
  const response = await ctx.request('POST', '/api/signup/participant', { body });
  if (response.status !== 201) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const mail = await latestMail(ctx, body.email, 'Verify');
  const { jar } = await followLink(ctx, linkIn(mail.text));
  const { user } = await me(ctx, jar);
  return { email: body.email, jar, userId: user.id };
}

/** A participant of the check through the API: the participant sign-up, then the join endpoint. */
export async function joinedParticipant(ctx: TestContext, healthCheckId: string, name?: string) {
  const person = await signUpParticipant(ctx, healthCheckId, name);
  const join = await ctx.call(person.jar, 'POST', `/api/health-checks/${healthCheckId}/join`);
  if (join.status !== 200) throw new Error(`join failed: ${join.status} ${await join.text()}`);
  const { participantId } = (await join.json()) as { participantId: string };
  return { ...person, participantId };
}

type WorkspaceAdmin = { jar: Jar; workspaceId: string };

/** The token of the newest invitation e-mailed to `email`. */
export async function invitationToken(ctx: TestContext, email: string) {
  const mail = await latestMail(ctx, email, 'invited');
  const match = /\/invite\/([A-Za-z0-9_-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error('no invitation link in the e-mail');
  return match[1];
}

/** Invites someone to the admin's workspace through the API; returns the pending member and the e-mailed token. */
export async function invite(
  ctx: TestContext,
  admin: WorkspaceAdmin,
  overrides: { email?: string; role?: string; department?: string; admin?: boolean } = {},
) {
  const email = overrides.email ?? uniqueEmail('invitee');
  const response = await ctx.call(admin.jar, 'POST', `/api/workspaces/${admin.workspaceId}/invitations`, {
    email,
    role: 'Engineer',
    ...overrides,
  });
  if (response.status !== 201) throw new Error(`invite failed: ${response.status} ${await response.text()}`);
  const { member } = (await response.json()) as { member: { id: string } };
  return { email, memberId: member.id, token: await invitationToken(ctx, email) };
}

/** Invites a new person and accepts as them through sign-up; returns their signed-in cookie jar. */
export async function addMember(
  ctx: TestContext,
  admin: WorkspaceAdmin,
  overrides: { admin?: boolean; fullName?: string } = {},
) {
  const invited = await invite(ctx, admin, { admin: overrides.admin ?? false });
  const password = 'member-password-1';
  const jar = new CookieJar();
  const response = jar.store(
    await ctx.request('POST', `/api/invitations/${invited.token}/accept-signup`, {
      body: { fullName: overrides.fullName ?? 'Mia Member', password, confirmPassword: password },
    }),
  );
  if (response.status !== 200) throw new Error(`accept failed: ${response.status} ${await response.text()}`);
  const { user } = await me(ctx, jar);
  return { ...invited, jar, password, userId: user.id };
}

/** Asks for a password reset of `email` and follows the e-mailed link; returns the token it carries. */
export async function passwordResetToken(ctx: TestContext, email: string) {
  await ctx.request('POST', '/api/password/forgot', { body: { email } });
  const { response } = await followLink(ctx, linkIn((await latestMail(ctx, email, 'Reset')).text));
  return new URL(response.headers.get('location')!, 'http://localhost:3000').searchParams.get('token');
}
