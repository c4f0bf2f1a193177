import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { loginReturningTo } from '@pulsecheck/shared/auth/links';
import { describe, expect, it, vi } from 'vitest';
import { account, session, signupCredentials, user } from '../../db/schema/auth';
import { participants } from '../../db/schema/health-checks';
import { createAdmin, useAdmin, validParticipantSignup, validSignup } from '../../test/accounts';
import { useForAll, useTestContext } from '../../test/harness';
import { createCheck } from '../../test/health-checks';
import { followLink, latestMail, linkIn, mailsTo } from '../../test/mail';
import { uniqueEmail } from '../../test/unique';

/**
 * Trust item 8: sign-up must not tell whether an address has an account, and an account someone else registered
 * with your address must not keep their password once you verify it through your own link.
 */
const ctx = useTestContext();
const admin = useAdmin(ctx);
const check = useForAll(() => createCheck(ctx, admin, { title: 'Q4 check' }));

const login = (email: string, password: string) =>
  ctx.request('POST', '/api/login', { body: { email, password } });

const participantBody = (overrides: Record<string, unknown> = {}) =>
  validParticipantSignup(check.healthCheckId, overrides);

/** Everything a caller can observe of an answer, except the date. */
async function observable(response: Response) {
  const headers = [...response.headers.entries()].filter(([name]) => name !== 'date');
  return { status: response.status, headers, body: await response.text() };
}

async function userRow(email: string) {
  const [row] = await ctx.deps.db.select().from(user).where(eq(user.email, email));
  return row!;
}

describe('sign-up with the address of a verified account', () => {
  it('answers exactly as for a new address, changes nothing, and warns the owner by e-mail', async () => {
    const owner = await createAdmin(ctx);
    const before = await userRow(owner.email);
    const fresh = await ctx.request('POST', '/api/signup', { body: validSignup() });
    const taken = await ctx.request('POST', '/api/signup', {
      body: validSignup({
        email: owner.email,
        fullName: 'Mallory',
        password: 'attacker-password',
        confirmPassword: 'attacker-password',
        companyName: 'Evil Corp',
      }),
    });
    expect(await observable(taken)).toEqual(await observable(fresh));
    expect(taken.status).toBe(201);

    const warning = await latestMail(ctx, owner.email, 'tried to sign up');
    expect(warning.text).toContain(
      'someone just tried to create a Pulsecheck account with this email address',
    );
    expect(warning.text).toContain('Forgot password?');
    expect(linkIn(warning.text)).toBe('http://localhost:3000/login');
    expect((await mailsTo(ctx, owner.email)).filter((m) => m.subject.includes('Verify'))).toHaveLength(1);

    expect((await login(owner.email, owner.password)).status).toBe(200);
    expect((await login(owner.email, 'attacker-password')).status).toBe(401);
    const after = await userRow(owner.email);
    expect(after).toMatchObject({ name: before.name, companyName: before.companyName, emailVerified: true });
    const [pending] = await ctx.deps.db
      .select()
      .from(signupCredentials)
      .where(eq(signupCredentials.userId, owner.userId));
    expect(pending).toBeUndefined();
  });

  it('answers the participant sign-up the same way, and warns the owner at most once an hour', async () => {
    const owner = await createAdmin(ctx);
    const fresh = await ctx.request('POST', '/api/signup/participant', { body: participantBody() });
    const taken = await ctx.request('POST', '/api/signup/participant', {
      body: participantBody({ email: owner.email }),
    });
    expect(await observable(taken)).toEqual(await observable(fresh));
    const again = await ctx.request('POST', '/api/signup/participant', {
      body: participantBody({ email: owner.email }),
    });
    expect(again.status).toBe(201);
    const warnings = (await mailsTo(ctx, owner.email)).filter((m) => m.kind === 'signup-attempt');
    expect(warnings).toHaveLength(1);
    expect((await userRow(owner.email)).pendingJoinHealthCheckId).toBeNull();
    // The owner's e-mail says the account exists and signs them in back to the check (PRODUCT-DECISIONS 9).
    const joinPath = `/join/${check.healthCheckId}`;
    const mail = await latestMail(ctx, owner.email, 'Someone tried to sign up');
    expect(mail.text).toContain('Your account already exists');
    expect(mail.text).toContain(`${ctx.deps.config.appUrl}${loginReturningTo(joinPath)}`);
    expect(loginReturningTo(joinPath)).toBe(`/login?returnTo=${encodeURIComponent(joinPath)}`);
  });

  it('hashes the password once on every path: new, unverified and verified addresses', async () => {
    const context = await ctx.deps.auth.$context;
    const hash = vi.spyOn(context.password, 'hash');
    try {
      const owner = await createAdmin(ctx);
      const unverified = validSignup();
      await ctx.request('POST', '/api/signup', { body: unverified });
      for (const email of [uniqueEmail(), unverified.email, owner.email]) {
        hash.mockClear();
        const response = await ctx.request('POST', '/api/signup', { body: validSignup({ email }) });
        expect(response.status).toBe(201);
        expect(hash).toHaveBeenCalledTimes(1);
      }
    } finally {
      hash.mockRestore();
    }
  });
});

describe('pre-registration of someone else’s address', () => {
  it("the mailbox owner's verification leaves only their password working and ends every earlier session", async () => {
    const victim = uniqueEmail('victim');
    const attacker = validSignup({
      email: victim,
      fullName: 'Mallory',
      password: 'attacker-password',
      confirmPassword: 'attacker-password',
      companyName: 'Evil Corp',
    });
    const first = await ctx.request('POST', '/api/signup', { body: attacker });
    const owner = participantBody({ email: victim, fullName: 'Victoria', password: 'victim-password' });
    const second = await ctx.request('POST', '/api/signup/participant', { body: owner });
    expect(await observable(second)).toEqual(await observable(first));
    expect((await login(victim, 'attacker-password')).status).toBe(403);

    // A session of the account from before (however it came to be) must not outlive the owner's verification.
    const account0 = await userRow(victim);
    await ctx.deps.db.insert(session).values({
      id: randomUUID(),
      token: randomUUID(),
      userId: account0.id,
      expiresAt: new Date(Date.now() + 86_400_000),
    });

    // The newest verification e-mail is the owner's own (the earlier one came from the attacker's sign-up).
    const ownLink = linkIn((await latestMail(ctx, victim, 'Verify')).text);
    const { response, jar } = await followLink(ctx, ownLink);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe('/auth/redirect');

    expect((await login(victim, 'attacker-password')).status).toBe(401);
    expect((await login(victim, 'victim-password')).status).toBe(200);
    const sessions = await ctx.deps.db.select().from(session).where(eq(session.userId, account0.id));
    expect(sessions).toHaveLength(2); // the link's and the login's
    const me = (await (await ctx.call(jar, 'GET', '/api/me')).json()) as {
      user: { name: string; setupStatus: string | null; pendingJoinHealthCheckId: string | null };
    };
    // The owner's sign-up won: their name, no admin set-up, and their check, joined at the login above (the
    // pending join it left is completed at login).
    expect(me.user).toMatchObject({ name: 'Victoria', setupStatus: null, pendingJoinHealthCheckId: null });
    const joined = await ctx.deps.db
      .select({ id: participants.id })
      .from(participants)
      .where(and(eq(participants.userId, account0.id), eq(participants.healthCheckId, check.healthCheckId)));
    expect(joined).toHaveLength(1);
    expect((await userRow(victim)).companyName).toBeNull();

    // The attacker's own link, had it been followed later, changes nothing any more.
    const attackerMail = (await mailsTo(ctx, victim))
      .filter((m) => m.subject.includes('Verify'))
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())[0]!;
    await followLink(ctx, linkIn(attackerMail.text));
    expect((await login(victim, 'attacker-password')).status).toBe(401);
    expect((await login(victim, 'victim-password')).status).toBe(200);
  });

  it("the first sign-up's link, when it is the owner's, still wins over a later sign-up", async () => {
    const victim = uniqueEmail('victim');
    await ctx.request('POST', '/api/signup', {
      body: validSignup({ email: victim, password: 'victim-password', confirmPassword: 'victim-password' }),
    });
    const ownLink = linkIn((await latestMail(ctx, victim, 'Verify')).text);
    await ctx.request('POST', '/api/signup', {
      body: validSignup({
        email: victim,
        password: 'attacker-password',
        confirmPassword: 'attacker-password',
      }),
    });
    await followLink(ctx, ownLink);
    expect((await login(victim, 'victim-password')).status).toBe(200);
    expect((await login(victim, 'attacker-password')).status).toBe(401);
  });

  it('a link that names no sign-up (a resend) keeps no contested password', async () => {
    const victim = uniqueEmail('victim');
    await ctx.request('POST', '/api/signup', {
      body: validSignup({
        email: victim,
        password: 'attacker-password',
        confirmPassword: 'attacker-password',
      }),
    });
    await ctx.request('POST', '/api/signup', {
      body: validSignup({ email: victim, password: 'victim-password', confirmPassword: 'victim-password' }),
    });
    expect((await ctx.request('POST', '/api/verification/resend', { body: { email: victim } })).status).toBe(
      200,
    );
    const resent = linkIn((await latestMail(ctx, victim, 'Verify')).text);
    expect(resent).not.toContain('signup=');
    const { jar } = await followLink(ctx, resent);
    expect((await ctx.call(jar, 'GET', '/api/me')).status).toBe(200);
    expect((await login(victim, 'attacker-password')).status).toBe(401);
    expect((await login(victim, 'victim-password')).status).toBe(401);
    const row = await userRow(victim);
    const [credential] = await ctx.deps.db
      .select()
      .from(account)
      .where(and(eq(account.userId, row.id), eq(account.providerId, 'credential')));
    expect(credential?.password).toBeNull();

    // The owner, signed in by the link, chooses a password through "forgot password".
    await ctx.request('POST', '/api/password/forgot', { body: { email: victim } });
    const resetLink = new URL(linkIn((await latestMail(ctx, victim, 'Reset')).text));
    const redirect = await ctx.request('GET', `${resetLink.pathname}${resetLink.search}`);
    const token = new URL(redirect.headers.get('location')!, 'http://localhost').searchParams.get('token')!;
    const reset = await ctx.request('POST', '/api/password/reset', {
      body: { token, password: 'victim-new-password', confirmPassword: 'victim-new-password' },
    });
    expect(reset.status).toBe(200);
    expect((await login(victim, 'victim-new-password')).status).toBe(200);
  });

  it('a tampered sign-up token in the link is treated as none', async () => {
    const email = uniqueEmail('solo');
    await ctx.request('POST', '/api/signup', {
      body: validSignup({ email, password: 'only-password', confirmPassword: 'only-password' }),
    });
    const link = new URL(linkIn((await latestMail(ctx, email, 'Verify')).text));
    link.searchParams.set('signup', 'x'.repeat(43));
    const { response } = await followLink(ctx, link.toString());
    expect(response.status).toBe(302);
    // One sign-up only, the one that created the account: its password stays.
    expect((await login(email, 'only-password')).status).toBe(200);
  });
});
