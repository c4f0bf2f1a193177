import type { SamlSettings } from '@pulsecheck/shared/auth/security';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin, me } from '../../test/accounts';
import { startDnsServer, type DnsServer } from '../../test/dns-server';
import { useTestContext } from '../../test/harness';
import { CookieJar, json } from '../../test/requests';
import {
  authnRequestId,
  base64,
  idpMetadata,
  responseXml,
  signAssertion,
  testIdpKeys,
} from '../../test/saml-responses';
import { uniqueDomain, verifySsoDomain } from '../../test/security';

// On https, a SAML flow is bound to the browser that started it (features/sso/saml.ts, SAML_BROWSER_COOKIE): a
// response posted from another browser is refused even when it answers a real request (login CSRF).
let dns: DnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
});
afterAll(async () => {
  await dns.stop();
});
const ctx = useTestContext(() => ({ dnsServers: [dns.server], appUrl: 'https://pulsecheck.example' }));

async function postToAcs(acsUrl: string, samlResponse: string, browser: CookieJar) {
  return browser.store(
    await ctx.app.request(new URL(acsUrl).pathname, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://idp.example.net',
        'sec-fetch-site': 'cross-site',
        ...browser.header(),
      },
      body: new URLSearchParams({ SAMLResponse: samlResponse }).toString(),
    }),
  );
}

describe('SAML on https', () => {
  it('binds each flow to the browser that started it', async () => {
    const keys = testIdpKeys();
    const entityId = 'https://idp.bound.example/saml';
    const domain = uniqueDomain();
    const admin = await createAdmin(ctx, { email: `owner@${domain}` });
    const saved = await ctx.call(admin.jar, 'PUT', '/api/organization/saml', {
      metadataXml: idpMetadata({
        entityId,
        ssoUrl: 'https://idp.bound.example/sso',
        certificate: keys.certificate,
      }),
      domains: domain,
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const sp = await json<SamlSettings>(saved);
    expect(sp.spAcsUrl).toMatch(/^https:\/\/pulsecheck\.example\/api\/auth\/saml\/acs\/org-/);
    await verifySsoDomain(ctx, admin, dns, domain);
    const answer = (email: string, requestId: string) =>
      base64(
        signAssertion(
          responseXml({
            issuer: entityId,
            audience: sp.spEntityId,
            acsUrl: sp.spAcsUrl,
            email,
            inResponseTo: requestId,
          }),
          keys,
        ),
      );
    const start = async (browser: CookieJar, path: string, body?: object) => {
      const started = browser.store(
        await ctx.request('POST', path, { ...(body && { body }), headers: browser.header() }),
      );
      expect(started.status, await started.clone().text()).toBe(200);
      const cookie = started.headers.getSetCookie().find((c) => c.startsWith('__Host-pulsecheck-saml='));
      expect(cookie).toMatch(/; Path=\/; Max-Age=600; HttpOnly; Secure; SameSite=None$/);
      return authnRequestId((await json<{ url: string }>(started)).url);
    };

    const tested = await postToAcs(
      sp.spAcsUrl,
      answer(admin.email, await start(admin.jar, '/api/organization/sso/test')),
      admin.jar,
    );
    expect(tested.headers.get('location')).toMatch(/\?sso=tested$/);
    expect(
      (await ctx.call(admin.jar, 'PUT', '/api/organization/sso/switch', { enabled: true, required: false }))
        .status,
    ).toBe(200);

    // The attacker starts a sign-in in their browser and gets their own answer...
    const attacker = new CookieJar();
    const attackerAnswer = answer(
      `attacker@${domain}`,
      await start(attacker, '/api/login/sso', { email: `attacker@${domain}` }),
    );
    // ...and makes the victim's browser (its own cookie of an earlier flow, or none) post it: refused.
    const victim = new CookieJar();
    await start(victim, '/api/login/sso', { email: `victim@${domain}` });
    const csrf = await postToAcs(sp.spAcsUrl, attackerAnswer, victim);
    expect(csrf.headers.get('location')).toBe('https://pulsecheck.example/login?sso_error=state');
    expect(csrf.headers.getSetCookie().some((c) => c.includes('session_token'))).toBe(false);

    // The browser that started the flow is signed in; two flows of one browser (two tabs) both work.
    const person = new CookieJar();
    const first = await start(person, '/api/login/sso', { email: `person@${domain}` });
    const second = await start(person, '/api/login/sso', { email: `person@${domain}` });
    const signedIn = await postToAcs(sp.spAcsUrl, answer(`person@${domain}`, first), person);
    expect(signedIn.headers.get('location')).toBe('https://pulsecheck.example/auth/redirect');
    expect(signedIn.headers.getSetCookie().find((c) => c.includes('session_token'))).toMatch(
      /^__Secure-.*; Secure/,
    );
    expect((await me<{ user: { email: string } }>(ctx, person)).user.email).toBe(`person@${domain}`);
    const again = await postToAcs(sp.spAcsUrl, answer(`person@${domain}`, second), person);
    expect(again.headers.get('location')).toBe('https://pulsecheck.example/auth/redirect');
  });
});
