import { SECURITY_MESSAGES } from '@pulsecheck/shared/auth/security-messages';
import { randomUUID } from 'node:crypto';
import { and, eq, like } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { passkey, verification } from '../../db/schema/auth';
import { passwordResetToken, signedInUser, signIn } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { latestMail, mailsTo } from '../../test/mail';
import { CookieJar, json, type Jar, english } from '../../test/requests';
import { codeAt, codeStep, enrolTwoFactor, passwordStep } from '../../test/security';
import { createPasskey } from '../../test/webauthn';

/**
 * Issue 30, items 5 to 7: a change of sign-in factor ends what it should — trusted devices, other sessions, and on
 * request the passkeys — and adding a passkey takes the proof that deleting the account takes.
 */
const ctx = useTestContext();
const PASSWORD = 'correct-horse-battery';

/** Only `Date` is faked: later time steps come without waiting 30 seconds each. */
function nextStep(steps = 1) {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + steps * 30_000 });
}
afterEach(() => {
  vi.useRealTimers();
});

/** A signed-in person with two-factor sign-in on, and a second browser they trusted for 30 days. */
async function withTrustedBrowser() {
  const person = await signedInUser(ctx);
  const { key, recoveryCodes } = await enrolTwoFactor(ctx, person.jar, PASSWORD);
  nextStep();
  const trusted = new CookieJar();
  await passwordStep(ctx, trusted, person.email, PASSWORD);
  expect((await codeStep(ctx, trusted, codeAt(key), { trustDevice: true })).status).toBe(200);
  // As it is today: that browser signs in with the password alone.
  expect(await (await passwordStep(ctx, trusted, person.email, PASSWORD)).json()).toMatchObject({
    user: { id: person.userId },
  });
  return { ...person, key, recoveryCodes, trusted };
}

/** What a password sign-in on `browser` answers: signed in, or the second step asked. */
async function signInAnswer(browser: CookieJar, email: string, password = PASSWORD): Promise<unknown> {
  return (await passwordStep(ctx, browser, email, password)).json();
}

const trustRecords = (userId: string) =>
  ctx.deps.db
    .select({ id: verification.id })
    .from(verification)
    .where(and(eq(verification.value, userId), like(verification.identifier, 'trust-device-%')));

const signedIn = async (jar: Jar) => (await ctx.call(jar, 'GET', '/api/me')).status === 200;

describe("5. 'Trust this device' ends with every change of factor", () => {
  it('a password change: the trusted browser is asked for the code again', async () => {
    const person = await withTrustedBrowser();
    const changed = person.jar.store(
      await ctx.call(person.jar, 'POST', '/api/account/password', {
        currentPassword: PASSWORD,
        newPassword: 'a-new-password-1',
        confirmPassword: 'a-new-password-1',
      }),
    );
    expect(changed.status).toBe(200);
    expect(await signInAnswer(person.trusted, person.email, 'a-new-password-1')).toEqual({
      twoFactorRequired: true,
    });
    expect(await trustRecords(person.userId)).toEqual([]);
  });

  it('a password reset: the trusted browser is asked for the code again', async () => {
    const person = await withTrustedBrowser();
    const token = await passwordResetToken(ctx, person.email);
    const reset = await ctx.request('POST', '/api/password/reset', {
      body: { token, password: 'a-new-password-2', confirmPassword: 'a-new-password-2' },
    });
    expect(reset.status).toBe(200);
    expect(await signInAnswer(person.trusted, person.email, 'a-new-password-2')).toEqual({
      twoFactorRequired: true,
    });
  });

  it('new recovery codes: the trusted browser is asked for the code again', async () => {
    const person = await withTrustedBrowser();
    const made = await ctx.call(person.jar, 'POST', '/api/account/two-factor/recovery-codes', {
      password: PASSWORD,
    });
    expect(made.status).toBe(200);
    expect(await signInAnswer(person.trusted, person.email)).toEqual({ twoFactorRequired: true });
  });

  it('switching two-factor off deletes every trusted device, not only the browser that switched it off', async () => {
    const person = await withTrustedBrowser();
    nextStep(2);
    const off = person.jar.store(
      await ctx.call(person.jar, 'POST', '/api/account/two-factor/disable', {
        password: PASSWORD,
        code: codeAt(person.key),
      }),
    );
    expect(off.status).toBe(200);
    expect(await trustRecords(person.userId)).toEqual([]);
    // Switched on again with a new key, the browser trusted under the old one is asked for a code.
    await enrolTwoFactor(ctx, person.jar, PASSWORD);
    expect(await signInAnswer(person.trusted, person.email)).toEqual({ twoFactorRequired: true });
  });

  it('switching two-factor on deletes trust records left from before', async () => {
    const person = await signedInUser(ctx);
    // A record as the plugin writes it (`trust-device-<random>`, the user's id), left from an earlier enrolment.
    await ctx.deps.db.insert(verification).values({
      id: randomUUID(),
      identifier: `trust-device-${randomUUID()}`,
      value: person.userId,
      expiresAt: new Date(Date.now() + 86_400_000),
    });
    await enrolTwoFactor(ctx, person.jar, PASSWORD);
    expect(await trustRecords(person.userId)).toEqual([]);
  });
});

describe('7. other sessions end when a factor changes; the current one stays', () => {
  /** Someone signed in twice, with two-factor on (the second session signed in through both steps). */
  async function twoSessions() {
    const person = await signedInUser(ctx);
    const { key } = await enrolTwoFactor(ctx, person.jar, PASSWORD);
    nextStep();
    const other = new CookieJar();
    await passwordStep(ctx, other, person.email, PASSWORD);
    expect((await codeStep(ctx, other, codeAt(key))).status).toBe(200);
    nextStep(2);
    return { ...person, key, other };
  }

  it('two-factor sign-in switched on', async () => {
    const person = await signedInUser(ctx);
    const other = await signIn(ctx, person.email, PASSWORD);
    await enrolTwoFactor(ctx, person.jar, PASSWORD);
    expect(await signedIn(other)).toBe(false);
    expect(await signedIn(person.jar)).toBe(true);
  });

  it('two-factor sign-in switched off', async () => {
    const person = await twoSessions();
    const off = person.jar.store(
      await ctx.call(person.jar, 'POST', '/api/account/two-factor/disable', {
        password: PASSWORD,
        code: codeAt(person.key),
      }),
    );
    expect(off.status).toBe(200);
    expect(await signedIn(person.other)).toBe(false);
    expect(await signedIn(person.jar)).toBe(true);
  });

  it('new recovery codes', async () => {
    const person = await twoSessions();
    const made = await ctx.call(person.jar, 'POST', '/api/account/two-factor/recovery-codes', {
      password: PASSWORD,
    });
    expect(made.status).toBe(200);
    expect(await signedIn(person.other)).toBe(false);
    expect(await signedIn(person.jar)).toBe(true);
  });

  it('a password change', async () => {
    const person = await signedInUser(ctx);
    const other = await signIn(ctx, person.email, PASSWORD);
    person.jar.store(
      await ctx.call(person.jar, 'POST', '/api/account/password', {
        currentPassword: PASSWORD,
        newPassword: 'a-new-password-3',
        confirmPassword: 'a-new-password-3',
      }),
    );
    expect(await signedIn(other)).toBe(false);
    expect(await signedIn(person.jar)).toBe(true);
  });

  it('a passkey removed', async () => {
    const person = await signedInUser(ctx);
    const other = await signIn(ctx, person.email, PASSWORD);
    const id = await addPasskey(person.jar, { method: 'password', password: PASSWORD });
    expect(await signedIn(other)).toBe(true);
    const removed = await ctx.call(person.jar, 'DELETE', `/api/account/passkeys/${id}`);
    expect(removed.status).toBe(200);
    expect(await signedIn(other)).toBe(false);
    expect(await signedIn(person.jar)).toBe(true);
  });
});

/** Asks for creation options with `confirm`; the jar keeps the challenge cookie. */
async function passkeyOptions(jar: CookieJar, confirm?: unknown) {
  return jar.store(
    await ctx.call(jar, 'POST', '/api/account/passkeys/options', confirm === undefined ? {} : { confirm }),
  );
}

/** The browser's answer to the options, and the server's answer to saving it. */
async function savePasskey(
  jar: CookieJar,
  options: { challenge: string; rp: { id?: string } },
  userVerified = true,
) {
  const response = createPasskey(options, { origin: ctx.deps.config.appUrl, userVerified });
  return ctx.call(jar, 'POST', '/api/account/passkeys', { name: 'Work laptop', response });
}

/** Adds a passkey with the given proof through the API; answers its id. */
async function addPasskey(jar: CookieJar, confirm: unknown) {
  const options = await passkeyOptions(jar, confirm);
  expect(options.status).toBe(200);
  const saved = await savePasskey(jar, await json<{ challenge: string; rp: { id?: string } }>(options));
  expect(saved.status, await saved.clone().text()).toBe(201);
  return (await json<{ id: string }>(saved)).id;
}

const passkeysOf = (userId: string) =>
  ctx.deps.db.select({ id: passkey.id }).from(passkey).where(eq(passkey.userId, userId));

describe('6. adding a passkey', () => {
  it('asks for the password first; a missing or wrong one gets no options', async () => {
    const person = await signedInUser(ctx);
    const none = await passkeyOptions(person.jar);
    expect(none.status).toBe(400);
    const wrong = await passkeyOptions(person.jar, { method: 'password', password: 'not-my-password' });
    expect(wrong.status).toBe(400);
    // A password account cannot use a recent sign-in instead.
    expect((await passkeyOptions(person.jar, { method: 'recent-sign-in' })).status).toBe(400);
    expect(await passkeysOf(person.userId)).toEqual([]);
  });

  it('with the password: options that require user verification, the passkey saved, its owner e-mailed', async () => {
    const person = await signedInUser(ctx);
    const answer = await passkeyOptions(person.jar, { method: 'password', password: PASSWORD });
    expect(answer.status).toBe(200);
    const options = await json<{
      challenge: string;
      rp: { id?: string };
      authenticatorSelection: { userVerification: string };
    }>(answer);
    expect(options.authenticatorSelection.userVerification).toBe('required');
    const saved = await savePasskey(person.jar, options);
    expect(saved.status, await saved.clone().text()).toBe(201);
    expect(await passkeysOf(person.userId)).toHaveLength(1);
    const mail = await latestMail(ctx, person.email, 'A passkey was added to your account');
    expect(mail.subject).toBe('A passkey was added to your account');
    expect(mail.text).toContain('Work laptop');
  });

  it('refuses a passkey whose device did not verify the user (no UV flag)', async () => {
    const person = await signedInUser(ctx);
    const answer = await passkeyOptions(person.jar, { method: 'password', password: PASSWORD });
    const refused = await savePasskey(person.jar, await json(answer), false);
    expect(refused.status).toBe(400);
    expect((await json(refused)).error.message).toBe(english(SECURITY_MESSAGES.passkeyUserVerification));
    expect(await passkeysOf(person.userId)).toEqual([]);
    expect(await mailsTo(ctx, person.email)).toEqual([]);
  });

  it('with two-factor on, a current code is proof too, used once', async () => {
    const person = await signedInUser(ctx);
    const { key } = await enrolTwoFactor(ctx, person.jar, PASSWORD);
    nextStep();
    const code = codeAt(key);
    await addPasskey(person.jar, { method: 'authenticator', code });
    expect((await passkeyOptions(person.jar, { method: 'authenticator', code })).status).toBe(400);
    expect(await passkeysOf(person.userId)).toHaveLength(1);
  });

  it("saves nothing for options that skipped the proof (the plugin's own endpoint, with a stolen session)", async () => {
    const person = await signedInUser(ctx);
    const { headers, response } = await ctx.deps.auth.api.generatePasskeyRegistrationOptions({
      headers: new Headers(person.jar.header()),
      returnHeaders: true,
    });
    person.jar.store(new Response(null, { headers }));
    const refused = await savePasskey(person.jar, response);
    expect(refused.status).toBe(403);
    expect((await json(refused)).error.message).toBe(english(SECURITY_MESSAGES.passkeyProofRequired));
    expect(await passkeysOf(person.userId)).toEqual([]);
  });
});

describe("6. 'Also remove my passkeys and sign out everywhere else'", () => {
  it('a password change removes the passkeys when asked, and keeps them otherwise', async () => {
    const person = await signedInUser(ctx);
    await addPasskey(person.jar, { method: 'password', password: PASSWORD });
    const change = (from: string, to: string, removePasskeys?: boolean) =>
      ctx.call(person.jar, 'POST', '/api/account/password', {
        currentPassword: from,
        newPassword: to,
        confirmPassword: to,
        ...(removePasskeys === undefined ? {} : { removePasskeys }),
      });
    expect(person.jar.store(await change(PASSWORD, 'a-new-password-4')).status).toBe(200);
    expect(await passkeysOf(person.userId)).toHaveLength(1);
    expect(person.jar.store(await change('a-new-password-4', 'a-new-password-5', true)).status).toBe(200);
    expect(await passkeysOf(person.userId)).toEqual([]);
    expect(await signedIn(person.jar)).toBe(true);
  });

  it('a password reset removes the passkeys when asked', async () => {
    const person = await signedInUser(ctx);
    await addPasskey(person.jar, { method: 'password', password: PASSWORD });
    const token = await passwordResetToken(ctx, person.email);
    const reset = await ctx.request('POST', '/api/password/reset', {
      body: {
        token,
        password: 'a-new-password-6',
        confirmPassword: 'a-new-password-6',
        removePasskeys: true,
      },
    });
    expect(reset.status).toBe(200);
    expect(await passkeysOf(person.userId)).toEqual([]);
    expect(await signedIn(person.jar)).toBe(false);
  });
});
