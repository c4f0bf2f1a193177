import { AUTH_MESSAGES } from '@pulsecheck/shared/auth/messages';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { session, user, verification } from '../../db/schema/auth';
import { mailOutbox } from '../../db/schema/messaging';
import { createAdmin, signIn, validSignup } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { followLink, latestMail, linkIn } from '../../test/mail';
import { english, json } from '../../test/requests';
import { uniqueEmail } from '../../test/unique';

const ctx = useTestContext();

describe('admin sign-up validation', () => {
  it.each([
    [{ fullName: '   ' }, 'fullName', english(AUTH_MESSAGES.fullNameRequired)],
    [{ email: '' }, 'email', english(AUTH_MESSAGES.emailRequired)],
    [{ email: 'not-an-email' }, 'email', english(AUTH_MESSAGES.emailInvalid)],
    [{ email: 'a@b' }, 'email', english(AUTH_MESSAGES.emailInvalid)],
    [{ password: '', confirmPassword: '' }, 'password', english(AUTH_MESSAGES.passwordRequired)],
    [{ password: 'short', confirmPassword: 'short' }, 'password', english(AUTH_MESSAGES.passwordTooShort)],
    [{ confirmPassword: 'something-else' }, 'confirmPassword', english(AUTH_MESSAGES.passwordsDoNotMatch)],
    [{ companyName: '' }, 'companyName', english(AUTH_MESSAGES.companyNameRequired)],
    [{ companySize: '' }, 'companySize', english(AUTH_MESSAGES.companySizeRequired)],
    [{ companySize: '1000+' }, 'companySize', english(AUTH_MESSAGES.companySizeRequired)],
    [{ role: ' ' }, 'role', english(AUTH_MESSAGES.roleRequired)],
    [{ acceptTerms: false }, 'acceptTerms', english(AUTH_MESSAGES.termsRequired)],
  ])('refuses %o with "%s: %s"', async (override, field, message) => {
    const response = await ctx.request('POST', '/api/signup', { body: validSignup(override) });
    expect(response.status).toBe(400);
    const body = await json(response);
    expect(body.error.code).toBe('invalid');
    expect(body.error.fields?.[field]).toBe(message);
  });

  it('refuses missing, wrong-typed, oversized and extra fields with 400, never 500', async () => {
    const cases = [
      {},
      { ...validSignup(), fullName: 42 },
      { ...validSignup(), fullName: 'x'.repeat(10_000) },
      { ...validSignup(), isAdmin: true },
      { ...validSignup(), acceptTerms: 'yes' },
    ];
    for (const body of cases) {
      const response = await ctx.request('POST', '/api/signup', { body });
      expect(response.status).toBe(400);
      expect((await json(response)).error.message).toBeTruthy();
    }
    const malformed = await ctx.request('POST', '/api/signup', {
      headers: { 'Content-Type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
  });
});

describe('sign-up, verification and set-up', () => {
  it('sends a verification e-mail with an APP_URL link that signs the user in', async () => {
    const body = validSignup();
    const response = await ctx.request('POST', '/api/signup', { body });
    expect(response.status).toBe(201);

    const mail = await latestMail(ctx, body.email, 'Verify');
    expect(mail.html).toContain('Verify email');
    const link = linkIn(mail.text);
    expect(link.startsWith('http://localhost:3000/api/auth/verify-email?token=')).toBe(true);

    const beforeVerify = await ctx.request('POST', '/api/login', {
      body: { email: body.email, password: body.password },
    });
    expect(beforeVerify.status).toBe(403);
    expect(await json(beforeVerify)).toMatchObject({
      error: { code: 'email_not_confirmed', message: english(AUTH_MESSAGES.emailNotConfirmed) },
    });

    const { response: verified, jar } = await followLink(ctx, link);
    expect(verified.status).toBe(302);
    expect(verified.headers.get('location')).toContain('/auth/redirect');
    const me = await json<{ user: { setupStatus: string; home: string; canAdmin: boolean } }>(
      await ctx.call(jar, 'GET', '/api/me'),
    );
    expect(me.user).toMatchObject({
      setupStatus: 'pending_setup',
      home: '/auth/admin-confirmation',
      canAdmin: false,
    });

    const setup = await ctx.call(jar, 'POST', '/api/onboarding/setup');
    expect(setup.status).toBe(200);
    expect(await setup.json()).toEqual({ redirectTo: '/admin/dashboard' });
    const after = await json<{
      user: { setupStatus: string; home: string; activeWorkspaceId: string | null };
    }>(await ctx.call(jar, 'GET', '/api/me'));
    expect(after.user).toMatchObject({ setupStatus: 'completed', home: '/admin/dashboard' });
    expect(after.user.activeWorkspaceId).toBeTruthy();

    const again = await ctx.call(jar, 'POST', '/api/onboarding/setup');
    expect(again.status).toBe(409);
    expect((await json(again)).error.message).toBe(english(AUTH_MESSAGES.orgExists));
  });

  it('never makes a second account for the same address, and answers as for a new one', async () => {
    const body = validSignup();
    const first = await ctx.request('POST', '/api/signup', { body });
    expect(first.status).toBe(201);
    const again = await ctx.request('POST', '/api/signup', {
      body: { ...body, email: body.email.toUpperCase() },
    });
    expect(again.status).toBe(201);
    expect(await again.json()).toEqual(await first.json());
    expect(await ctx.deps.db.select().from(user).where(eq(user.email, body.email))).toHaveLength(1);
  });

  it('sets up the organisation exactly once under two concurrent requests', async () => {
    const body = validSignup();
    await ctx.request('POST', '/api/signup', { body });
    const { jar } = await followLink(ctx, linkIn((await latestMail(ctx, body.email, 'Verify')).text));
    const results = await Promise.all([
      ctx.call(jar, 'POST', '/api/onboarding/setup'),
      ctx.call(jar, 'POST', '/api/onboarding/setup'),
    ]);
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 409]);
    const refused = results.find((r) => r.status === 409)!;
    expect([english(AUTH_MESSAGES.orgExists), english(AUTH_MESSAGES.setupInProgress)]).toContain(
      (await json(refused)).error.message,
    );
    const [row] = await ctx.deps.db.select().from(user).where(eq(user.email, body.email));
    expect(row?.setupStatus).toBe('completed');
  });

  it('shows an expired or reused verification link as an error, with a way to get a new one', async () => {
    const body = validSignup();
    await ctx.request('POST', '/api/signup', { body });
    const link = linkIn((await latestMail(ctx, body.email, 'Verify')).text);
    const bad = new URL(link);
    bad.searchParams.set('token', 'not-a-real-token');
    const { response } = await followLink(ctx, bad.toString());
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toMatch(/\/auth\/redirect\?error=/);

    const resend = await ctx.request('POST', '/api/verification/resend', { body: { email: body.email } });
    expect(resend.status).toBe(200);
    const mails = await ctx.deps.db.select().from(mailOutbox).where(eq(mailOutbox.to, body.email));
    expect(mails.filter((m) => m.subject.includes('Verify'))).toHaveLength(2);
  });
});

describe('login and logout', () => {
  it('refuses wrong credentials with a clear message, the same for unknown addresses', async () => {
    const admin = await createAdmin(ctx);
    for (const body of [
      { email: admin.email, password: 'wrong-password' },
      { email: uniqueEmail(), password: 'whatever-password' },
    ]) {
      const response = await ctx.request('POST', '/api/login', { body });
      expect(response.status).toBe(401);
      expect((await json(response)).error.message).toBe(english(AUTH_MESSAGES.invalidCredentials));
    }
  });

  it('remember me keeps the session for 30 days; without it the cookie ends with the browser', async () => {
    const admin = await createAdmin(ctx);
    const remembered = await ctx.request('POST', '/api/login', {
      body: { email: admin.email, password: admin.password, rememberMe: true },
    });
    expect(remembered.status).toBe(200);
    const rememberedCookie = remembered.headers.getSetCookie().find((c) => c.includes('session_token'))!;
    expect(rememberedCookie).toMatch(/Max-Age=2592000/);
    expect(rememberedCookie).toMatch(/HttpOnly/);
    expect(rememberedCookie).toMatch(/SameSite=Lax/i);
    expect(((await remembered.json()) as { user: { home: string } }).user.home).toBe('/admin/dashboard');

    const forgetful = await ctx.request('POST', '/api/login', {
      body: { email: admin.email, password: admin.password, rememberMe: false },
    });
    const sessionCookie = forgetful.headers.getSetCookie().find((c) => c.includes('session_token'))!;
    expect(sessionCookie).not.toMatch(/Max-Age/);
    const rows = await ctx.deps.db.select().from(session).where(eq(session.userId, admin.userId));
    const shortest = Math.min(...rows.map((r) => r.expiresAt.getTime() - Date.now()));
    expect(shortest).toBeLessThanOrEqual(24 * 3600 * 1000);
  });

  it("logout ends all of the user's sessions", async () => {
    const admin = await createAdmin(ctx);
    const other = await signIn(ctx, admin.email, admin.password);
    expect((await ctx.call(other, 'GET', '/api/me')).status).toBe(200);

    const logout = admin.jar.store(await ctx.call(admin.jar, 'POST', '/api/logout'));
    expect(logout.status).toBe(200);
    expect((await ctx.call(admin.jar, 'GET', '/api/me')).status).toBe(401);
    const stale = await ctx.call(other, 'GET', '/api/me');
    expect(stale.status).toBe(401);
    expect((await json(stale)).error.message).toBe(english(AUTH_MESSAGES.noSession));
  });
});

describe('password reset', () => {
  it('answers the same whether or not the address has an account', async () => {
    const unknown = await ctx.request('POST', '/api/password/forgot', { body: { email: uniqueEmail() } });
    const admin = await createAdmin(ctx);
    const known = await ctx.request('POST', '/api/password/forgot', { body: { email: admin.email } });
    expect(unknown.status).toBe(200);
    expect(known.status).toBe(200);
    expect(await unknown.json()).toEqual(await known.json());
    const empty = await ctx.request('POST', '/api/password/forgot', { body: { email: '' } });
    expect((await json(empty)).error.fields?.email).toBe(english(AUTH_MESSAGES.forgotEmailRequired));
  });

  it('resets the password from the e-mailed link, once', async () => {
    const admin = await createAdmin(ctx);
    await ctx.request('POST', '/api/password/forgot', { body: { email: admin.email } });
    const { response } = await followLink(ctx, linkIn((await latestMail(ctx, admin.email, 'Reset')).text));
    expect(response.status).toBe(302);
    const location = new URL(response.headers.get('location')!, 'http://localhost:3000');
    expect(location.pathname).toBe('/reset-password');
    const token = location.searchParams.get('token')!;

    const mismatch = await ctx.request('POST', '/api/password/reset', {
      body: { token, password: 'new-password-1', confirmPassword: 'new-password-2' },
    });
    expect((await json(mismatch)).error.fields?.confirmPassword).toBe(
      english(AUTH_MESSAGES.passwordsDoNotMatch),
    );
    const short = await ctx.request('POST', '/api/password/reset', {
      body: { token, password: 'short', confirmPassword: 'short' },
    });
    expect((await json(short)).error.fields?.password).toBe(english(AUTH_MESSAGES.passwordTooShort));

    const reset = await ctx.request('POST', '/api/password/reset', {
      body: { token, password: 'brand-new-password', confirmPassword: 'brand-new-password' },
    });
    expect(reset.status).toBe(200);
    const reused = await ctx.request('POST', '/api/password/reset', {
      body: { token, password: 'another-password', confirmPassword: 'another-password' },
    });
    expect(reused.status).toBe(400);
    expect((await json(reused)).error.message).toBe(english(AUTH_MESSAGES.resetLinkInvalid));

    const oldLogin = await ctx.request('POST', '/api/login', {
      body: { email: admin.email, password: admin.password },
    });
    expect(oldLogin.status).toBe(401);
    const newLogin = await ctx.request('POST', '/api/login', {
      body: { email: admin.email, password: 'brand-new-password' },
    });
    expect(newLogin.status).toBe(200);
    const tokens = await ctx.deps.db
      .select()
      .from(verification)
      .where(eq(verification.identifier, `reset-password:${token}`));
    expect(tokens).toHaveLength(0);
  });
});

describe('rate limits', () => {
  const fromOneAddress = { 'x-forwarded-for': '203.0.113.7' };

  it('refuses a sixth sign-up from one address within ten minutes', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const response = await ctx.request('POST', '/api/signup', {
        body: validSignup(),
        headers: fromOneAddress,
      });
      statuses.push(response.status);
      if (response.status === 429) {
        expect((await json(response)).error.message).toBe(english(AUTH_MESSAGES.tooManyAttempts));
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      }
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });

  it('limits login, forgot password and resend attempts', async () => {
    const headers = { 'x-forwarded-for': '203.0.113.8' };
    const logins = [];
    for (let i = 0; i < 11; i++) {
      logins.push(
        (await ctx.request('POST', '/api/login', { body: { email: uniqueEmail(), password: 'x' }, headers }))
          .status,
      );
    }
    expect(logins.at(-1)).toBe(429);
    const forgot = [];
    for (let i = 0; i < 6; i++) {
      forgot.push(
        (await ctx.request('POST', '/api/password/forgot', { body: { email: uniqueEmail() }, headers }))
          .status,
      );
    }
    expect(forgot).toEqual([200, 200, 200, 200, 200, 429]);
    const email = uniqueEmail();
    const resend = [];
    for (let i = 0; i < 4; i++) {
      resend.push(
        (await ctx.request('POST', '/api/verification/resend', { body: { email }, headers })).status,
      );
    }
    expect(resend).toEqual([200, 200, 200, 429]);
  });
});

describe('session lookup', () => {
  it('refuses a session cookie whose signature is wrong', async () => {
    const admin = await createAdmin(ctx);
    const cookie = admin.jar
      .header()
      .cookie!.replace(/(session_token=[^.;]+\.)[^;]+/, '$1AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA%3D');
    const response = await ctx.request('GET', '/api/me', { headers: { cookie } });
    expect(response.status).toBe(401);
  });

  it('slides the expiry of a remembered session forward once a day is left behind', async () => {
    const admin = await createAdmin(ctx);
    const jar = await signIn(ctx, admin.email, admin.password, { rememberMe: true });
    const soon = new Date(Date.now() + 20 * 86_400_000);
    await ctx.deps.db.update(session).set({ expiresAt: soon }).where(eq(session.userId, admin.userId));
    const response = await ctx.call(jar, 'GET', '/api/me');
    expect(response.status).toBe(200);
    expect(response.headers.getSetCookie().some((c) => c.includes('session_token'))).toBe(true);
    const rows = await ctx.deps.db.select().from(session).where(eq(session.userId, admin.userId));
    expect(Math.max(...rows.map((r) => r.expiresAt.getTime()))).toBeGreaterThan(Date.now() + 29 * 86_400_000);
  });
});
