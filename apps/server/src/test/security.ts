import { generateSync } from 'otplib';
import type { SsoSettings } from '@pulsecheck/shared/auth/security';
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
  return jar.store(
    await ctx.request('POST', '/api/login', { body: { email, password }, headers: jar.header() }),
  );
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

/** A fresh e-mail domain, so that each test's organisation can claim its own. */
export const uniqueDomain = () => `acme-${Math.random().toString(36).slice(2, 10)}.test`;

type Idp = { issuer: string; clientId: string; clientSecret: string; signInAs(user: object): void };

/** Saves `idp` as the SSO provider of `admin`'s organisation, covering `domain`. */
export async function saveSso(ctx: TestContext, admin: { jar: CookieJar }, idp: Idp, domain: string) {
  const saved = await ctx.call(admin.jar, 'PUT', '/api/organization/sso', {
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    domains: domain,
  });
  expect(saved.status, await saved.clone().text()).toBe(200);
  return saved;
}

/** Publishes the domain's verification record (as the Security tab shows it) on `dns`, then 'Verify domain'. */
export async function verifySsoDomain(
  ctx: TestContext,
  admin: { jar: CookieJar },
  dns: { setTxt(name: string, ...values: string[]): void },
  domain: string,
) {
  const settings = await json<SsoSettings>(await ctx.call(admin.jar, 'GET', '/api/organization/sso'));
  const entry = settings.verification.find((d) => d.domain === domain);
  expect(entry, `${domain} is among the saved domains`).toBeDefined();
  dns.setTxt(domain, 'v=spf1 -all', entry!.record);
  const verified = await ctx.call(admin.jar, 'POST', '/api/organization/sso/verify-domain', { domain });
  expect(verified.status, await verified.clone().text()).toBe(200);
  return json<SsoSettings>(verified);
}

/** `saveSso`, the domain verified by DNS, then 'Test connection' passes (as the admin's address) and SSO is on. */
export async function configureSso(
  ctx: TestContext,
  admin: { jar: CookieJar },
  idp: Idp,
  domain: string,
  options: {
    dns: { setTxt(name: string, ...values: string[]): void };
    required?: boolean;
    adminEmail?: string;
  },
) {
  await saveSso(ctx, admin, idp, domain);
  await verifySsoDomain(ctx, admin, options.dns, domain);
  idp.signInAs({
    sub: `admin-${domain}`,
    email: options.adminEmail ?? `owner@${domain}`,
    emailVerified: true,
  });
  const tested = await throughProvider(
    ctx,
    await ctx.call(admin.jar, 'POST', '/api/organization/sso/test'),
    admin.jar,
  );
  expect(tested.headers.get('location')).toMatch(/\?sso=tested$/);
  const switched = await ctx.call(admin.jar, 'PUT', '/api/organization/sso/switch', {
    enabled: true,
    required: options.required ?? false,
  });
  expect(switched.status).toBe(200);
}

/**
 * A browser going through the provider: from our start answer (its URL, and the state cookie kept in `browser`),
 * following the provider's redirects (with cookies of its own) until it sends the browser back to the app, whose
 * callback answer is returned (a redirect) and whose cookies `browser` keeps.
 */
export async function throughProvider(ctx: TestContext, start: Response, browser: CookieJar) {
  return backToApp(ctx, await providerRedirect(ctx, start, browser), browser);
}

/** The app's callback URL the provider sends the browser back to (not yet followed). */
export async function providerRedirect(ctx: TestContext, start: Response, browser: CookieJar) {
  expect(start.status, await start.clone().text()).toBe(200);
  browser.store(start);
  let location = (await json<{ url: string }>(start)).url;
  const idpCookies = new Map<string, string>();
  const appOrigin = ctx.deps.config.appUrl;
  for (let hop = 0; hop < 10 && !location.startsWith(appOrigin); hop += 1) {
    const answer = await fetch(location, {
      redirect: 'manual',
      headers: { cookie: [...idpCookies].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const header of answer.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const index = pair.indexOf('=');
      idpCookies.set(pair.slice(0, index), pair.slice(index + 1));
    }
    const next = answer.headers.get('location');
    if (!next)
      throw new Error(`the provider answered ${answer.status} without a redirect: ${await answer.text()}`);
    location = new URL(next, location).toString();
  }
  return location;
}

/** The browser arriving at the app's callback; the jar keeps what it sets. */
export async function backToApp(ctx: TestContext, url: string, browser: CookieJar) {
  const back = new URL(url);
  return browser.store(await ctx.call(browser, 'GET', `${back.pathname}${back.search}`));
}
