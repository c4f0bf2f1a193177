import { generateSync } from 'otplib';
import { expect } from 'vitest';
import type { TestContext } from './harness';
import { type CookieJar, json } from './requests';

/**
 * Two-factor sign-in for tests: codes computed from the enrolled key with otplib (an implementation other than
 * the product's), at a time step relative to now.
 */
export const codeAt = (key: string, steps = 0) =>
  generateSync({ secret: key, epoch: Math.floor(Date.now() / 1000) + steps * 30 });

/** Enrols `jar`'s account in two-factor sign-in through the API; the jar keeps the renewed session. */
export async function enrolTwoFactor(ctx: TestContext, jar: CookieJar, password: string) {
  const started = await ctx.call(jar, 'POST', '/api/account/two-factor/enrol', { password });
  expect(started.status).toBe(200);
  const { key, totpUri } = await json<{ key: string; totpUri: string }>(started);
  const confirmed = jar.store(
    await ctx.call(jar, 'POST', '/api/account/two-factor/confirm', { code: codeAt(key) }),
  );
  expect(confirmed.status).toBe(200);
  const { recoveryCodes } = await json<{ recoveryCodes: string[] }>(confirmed);
  return { key, totpUri, recoveryCodes };
}

/** The password step of a sign-in; the jar keeps the challenge cookie (or the session). */
export async function passwordStep(ctx: TestContext, jar: CookieJar, email: string, password: string) {
  return jar.store(await ctx.request('POST', '/api/login', { body: { email, password }, headers: jar.header() }));
}

/** The second step with a code (or a recovery code); the jar keeps the session. */
export async function codeStep(
  ctx: TestContext,
  jar: CookieJar,
  code: string,
  options: { recovery?: boolean; trustDevice?: boolean } = {},
) {
  const path = options.recovery ? '/api/login/recovery-code' : '/api/login/two-factor';
  return jar.store(await ctx.call(jar, 'POST', path, { code, trustDevice: options.trustDevice ?? false }));
}
