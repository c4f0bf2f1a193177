import type { SamlSettings, SsoSettings } from '@pulsecheck/shared/auth/security';
import { SECURITY_MESSAGES } from '@pulsecheck/shared/auth/security-messages';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { account, user } from '../../db/schema/auth';
import { createAdmin, me, signedInUser } from '../../test/accounts';
import { startDnsServer, type DnsServer } from '../../test/dns-server';
import { useTestContext } from '../../test/harness';
import { CookieJar, json, english } from '../../test/requests';
import {
  authnRequestId,
  base64,
  idpMetadata,
  responseXml,
  signAssertion,
  testIdpKeys,
  type ResponseFields,
} from '../../test/saml-responses';
import { simpleSamlPhpMissing, startSamlIdp, type SamlIdp } from '../../test/saml-idp';
import { uniqueDomain, verifySsoDomain } from '../../test/security';

let dns: DnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
});
afterAll(async () => {
  await dns.stop();
});
const ctx = useTestContext(() => ({ dnsServers: [dns.server] }));

/** Posts an identity provider's answer to the ACS as its page would: a cross-site form post. */
async function postToAcs(
  acsUrl: string,
  fields: { SAMLResponse: string; RelayState?: string },
  browser = new CookieJar(),
) {
  const url = new URL(acsUrl);
  const response = await ctx.app.request(url.pathname, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'https://idp.example.net',
      'sec-fetch-site': 'cross-site',
      ...browser.header(),
    },
    body: new URLSearchParams(fields).toString(),
  });
  return browser.store(response);
}

const locationOf = (response: Response) => response.headers.get('location') ?? '';
const sessionCookieOf = (response: Response) =>
  response.headers.getSetCookie().find((cookie) => cookie.includes('session_token'));

async function saveSaml(jar: CookieJar, body: Record<string, unknown>) {
  return ctx.call(jar, 'PUT', '/api/organization/saml', body);
}

describe('SAML with crafted responses (a test key signs them)', () => {
  const keys = testIdpKeys();
  const entityId = 'https://idp.acme.example/saml';

  /**
   * An organisation with SAML on (metadata pasted, domain verified by DNS, 'Test connection' passed through a
   * response the test signs), and what its identity provider must sign.
   */
  async function samlOrganization(options: { allowIdpInitiated?: boolean } = {}) {
    const domain = uniqueDomain();
    const admin = await createAdmin(ctx, { email: `owner@${domain}` });
    const saved = await saveSaml(admin.jar, {
      metadataXml: idpMetadata({
        entityId,
        ssoUrl: 'https://idp.acme.example/sso',
        certificate: keys.certificate,
      }),
      domains: domain,
      allowIdpInitiated: options.allowIdpInitiated ?? false,
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const sp = await json<SamlSettings>(saved);
    await verifySsoDomain(ctx, admin, dns, domain);
    const fields = (email: string, inResponseTo: string | null): ResponseFields => ({
      issuer: entityId,
      audience: sp.spEntityId,
      acsUrl: sp.spAcsUrl,
      email,
      inResponseTo,
    });
    const test = await ctx.call(admin.jar, 'POST', '/api/organization/sso/test');
    expect(test.status, await test.clone().text()).toBe(200);
    const testId = authnRequestId((await json<{ url: string }>(test)).url);
    const tested = await postToAcs(sp.spAcsUrl, {
      SAMLResponse: base64(signAssertion(responseXml(fields(`owner@${domain}`, testId)), keys)),
    });
    expect(locationOf(tested)).toMatch(/\/admin\/account-settings\/security\?sso=tested$/);
    const on = await ctx.call(admin.jar, 'PUT', '/api/organization/sso/switch', {
      enabled: true,
      required: false,
    });
    expect(on.status, await on.clone().text()).toBe(200);
    /** 'Sign in with SSO' for `email`: the request id our AuthnRequest carries. */
    const start = async (email: string) => {
      const started = await ctx.request('POST', '/api/login/sso', { body: { email } });
      expect(started.status, await started.clone().text()).toBe(200);
      const { url } = await json<{ url: string }>(started);
      expect(url.startsWith('https://idp.acme.example/sso?SAMLRequest=')).toBe(true);
      return authnRequestId(url);
    };
    return { admin, domain, sp, fields, start };
  }

  it('signs a new address of a verified domain in just in time, bound to the request, and keeps the metadata sealed', async () => {
    const org = await samlOrganization();
    const email = `new.person@${org.domain}`;
    const requestId = await org.start(email);
    const browser = new CookieJar();
    const answer = await postToAcs(
      org.sp.spAcsUrl,
      {
        SAMLResponse: base64(signAssertion(responseXml(org.fields(email, requestId)), keys)),
      },
      browser,
    );
    expect(answer.status).toBe(302);
    expect(locationOf(answer)).toBe(`${ctx.deps.config.appUrl}/auth/redirect`);
    expect(sessionCookieOf(answer)).toMatch(/HttpOnly; SameSite=Lax/);
    const signedIn = await me<{ user: { email: string } }>(ctx, browser);
    expect(signedIn.user.email).toBe(email);

    const [row] = await queryRows<{ saml_config: string; oidc_config: string | null }>(
      ctx.deps.db,
      sql`select saml_config, oidc_config from sso_provider where provider_id = ${`org-${org.sp.spAcsUrl.split('/org-')[1]}`}`,
    );
    expect(row!.saml_config).toMatch(/^v1\./);
    expect(row!.saml_config).not.toContain(entityId);
    expect(row!.oidc_config).toBeNull();

    const settings = await json<SsoSettings>(await ctx.call(org.admin.jar, 'GET', '/api/organization/sso'));
    expect(settings).toMatchObject({ configured: true, protocol: 'saml', enabled: true, issuer: null });
    const metadata = await ctx.request('GET', new URL(org.sp.spMetadataUrl).pathname);
    expect(metadata.status).toBe(200);
    const spXml = await metadata.text();
    expect(spXml).toContain(`entityID="${org.sp.spEntityId}"`);
    expect(spXml).toContain(`Location="${org.sp.spAcsUrl}"`);
  });

  it('refuses an unsigned response', async () => {
    const org = await samlOrganization();
    const email = `unsigned@${org.domain}`;
    const answer = await postToAcs(org.sp.spAcsUrl, {
      SAMLResponse: base64(responseXml(org.fields(email, await org.start(email)))),
    });
    expect(locationOf(answer)).toMatch(/\/login\?sso_error=token$/);
    expect(sessionCookieOf(answer)).toBeUndefined();
    expect(await ctx.deps.db.select().from(user).where(eq(user.email, email))).toHaveLength(0);
  });

  it('refuses a signature by another key, and RSA-SHA1', async () => {
    const org = await samlOrganization();
    const email = `forged@${org.domain}`;
    const otherKey = await postToAcs(org.sp.spAcsUrl, {
      SAMLResponse: base64(
        signAssertion(responseXml(org.fields(email, await org.start(email))), testIdpKeys()),
      ),
    });
    expect(locationOf(otherKey)).toMatch(/sso_error=token$/);
    const sha1 = await postToAcs(org.sp.spAcsUrl, {
      SAMLResponse: base64(
        signAssertion(responseXml(org.fields(email, await org.start(email))), keys, 'sha1'),
      ),
    });
    expect(locationOf(sha1)).toMatch(/sso_error=token$/);
    expect(await ctx.deps.db.select().from(user).where(eq(user.email, email))).toHaveLength(0);
  });

  it('refuses a wrong audience and a wrong recipient', async () => {
    const org = await samlOrganization();
    const email = `audience@${org.domain}`;
    const audience = await postToAcs(org.sp.spAcsUrl, {
      SAMLResponse: base64(
        signAssertion(
          responseXml({
            ...org.fields(email, await org.start(email)),
            audience: 'https://other-sp.example/metadata',
          }),
          keys,
        ),
      ),
    });
    expect(locationOf(audience)).toMatch(/sso_error=token$/);
    const recipient = await postToAcs(org.sp.spAcsUrl, {
      SAMLResponse: base64(
        signAssertion(
          responseXml({
            ...org.fields(email, await org.start(email)),
            recipient: 'https://other-sp.example/acs',
          }),
          keys,
        ),
      ),
    });
    expect(locationOf(recipient)).toMatch(/sso_error=token$/);
    expect(await ctx.deps.db.select().from(user).where(eq(user.email, email))).toHaveLength(0);
  });

  it('refuses an expired assertion and one not valid yet (beyond a minute of clock skew)', async () => {
    const org = await samlOrganization();
    const email = `late@${org.domain}`;
    const now = Date.now();
    const expired = await postToAcs(org.sp.spAcsUrl, {
      SAMLResponse: base64(
        signAssertion(
          responseXml({
            ...org.fields(email, await org.start(email)),
            notBefore: new Date(now - 10 * 60_000),
            notOnOrAfter: new Date(now - 2 * 60_000),
          }),
          keys,
        ),
      ),
    });
    expect(locationOf(expired)).toMatch(/sso_error=expired$/);
    const early = await postToAcs(org.sp.spAcsUrl, {
      SAMLResponse: base64(
        signAssertion(
          responseXml({
            ...org.fields(email, await org.start(email)),
            notBefore: new Date(now + 5 * 60_000),
          }),
          keys,
        ),
      ),
    });
    expect(locationOf(early)).toMatch(/sso_error=expired$/);
    // Within the skew: accepted.
    const skewed = await postToAcs(org.sp.spAcsUrl, {
      SAMLResponse: base64(
        signAssertion(
          responseXml({ ...org.fields(email, await org.start(email)), notBefore: new Date(now + 20_000) }),
          keys,
        ),
      ),
    });
    expect(locationOf(skewed)).toMatch(/\/auth\/redirect$/);
  });

  it('accepts each response and each assertion id once, across requests', async () => {
    const org = await samlOrganization();
    const email = `once@${org.domain}`;
    const fields = { ...org.fields(email, await org.start(email)), assertionId: '_same-assertion-id' };
    const response = base64(signAssertion(responseXml(fields), keys));
    expect(locationOf(await postToAcs(org.sp.spAcsUrl, { SAMLResponse: response }))).toMatch(
      /\/auth\/redirect$/,
    );
    // The same response again: its request was answered already.
    const again = await postToAcs(org.sp.spAcsUrl, { SAMLResponse: response });
    expect(locationOf(again)).toMatch(/sso_error=state$/);
    expect(sessionCookieOf(again)).toBeUndefined();
    // A new request, answered by an assertion with an id already used: refused by the database's record.
    const reused = await postToAcs(org.sp.spAcsUrl, {
      SAMLResponse: base64(
        signAssertion(responseXml({ ...fields, inResponseTo: await org.start(email) }), keys),
      ),
    });
    expect(locationOf(reused)).toMatch(/sso_error=replayed$/);
    const [stored] = await queryRows<{ n: number }>(
      ctx.deps.db,
      sql`select count(*)::int as n from saml_assertions where assertion_id = '_same-assertion-id'`,
    );
    expect(stored!.n).toBe(1);
  });

  it("refuses an InResponseTo that is unknown, missing, or names another organisation's request", async () => {
    const org = await samlOrganization();
    const other = await samlOrganization();
    const email = `bound@${org.domain}`;
    const unknown = await postToAcs(org.sp.spAcsUrl, {
      SAMLResponse: base64(signAssertion(responseXml(org.fields(email, '_not-a-request-of-ours')), keys)),
    });
    expect(locationOf(unknown)).toMatch(/sso_error=state$/);
    const missing = await postToAcs(org.sp.spAcsUrl, {
      SAMLResponse: base64(signAssertion(responseXml(org.fields(email, null)), keys)),
    });
    expect(locationOf(missing)).toMatch(/sso_error=(state|unsolicited)$/);
    const foreign = await postToAcs(org.sp.spAcsUrl, {
      SAMLResponse: base64(
        signAssertion(responseXml(org.fields(email, await other.start(`x@${other.domain}`))), keys),
      ),
    });
    expect(locationOf(foreign)).toMatch(/sso_error=state$/);
    expect(await ctx.deps.db.select().from(user).where(eq(user.email, email))).toHaveLength(0);
  });

  it('lets RelayState lead only into this app', async () => {
    const org = await samlOrganization();
    const email = `relay@${org.domain}`;
    for (const relayState of [
      'https://evil.example/phish',
      '//evil.example/x',
      '/\\evil.example',
      'javascript:alert(1)',
    ]) {
      const answer = await postToAcs(org.sp.spAcsUrl, {
        SAMLResponse: base64(signAssertion(responseXml(org.fields(email, await org.start(email))), keys)),
        RelayState: relayState,
      });
      expect(locationOf(answer), relayState).toMatch(/\/login\?sso_error=relay_state$/);
      expect(sessionCookieOf(answer)).toBeUndefined();
    }
    const inside = await postToAcs(org.sp.spAcsUrl, {
      SAMLResponse: base64(signAssertion(responseXml(org.fields(email, await org.start(email))), keys)),
      RelayState: '/admin/dashboard',
    });
    expect(locationOf(inside)).toBe(`${ctx.deps.config.appUrl}/admin/dashboard`);
  });

  it('refuses XML signature wrapping', async () => {
    const org = await samlOrganization();
    const attacker = `attacker@${org.domain}`;
    const victim = `victim@${org.domain}`;
    // The victim has an account bound to this organisation's SSO (signed in once).
    const victimBrowser = new CookieJar();
    await postToAcs(
      org.sp.spAcsUrl,
      {
        SAMLResponse: base64(signAssertion(responseXml(org.fields(victim, await org.start(victim))), keys)),
      },
      victimBrowser,
    );
    expect(await ctx.deps.db.select().from(user).where(eq(user.email, victim))).toHaveLength(1);

    const signed = signAssertion(responseXml(org.fields(attacker, await org.start(attacker))), keys);
    const signedAssertion = /<saml:Assertion[\s\S]*<\/saml:Assertion>/.exec(signed)![0];
    const forged = signedAssertion
      .replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '')
      .replace(attacker, victim);
    const wrappings = {
      // The forged assertion first, the signed one hidden inside it.
      nested: signed.replace(
        signedAssertion,
        forged.replace('</saml:Subject>', `</saml:Subject>${signedAssertion}`),
      ),
      // Both side by side, the forged one first.
      sibling: signed.replace(signedAssertion, `${forged}${signedAssertion}`),
      // The signed one moved into the Status, the forged one in its place.
      status: signed
        .replace(signedAssertion, forged)
        .replace(
          '</samlp:Status>',
          `<samlp:StatusDetail>${signedAssertion}</samlp:StatusDetail></samlp:Status>`,
        ),
      // Only the value changed in the signed assertion.
      tampered: signed.replace(`>${attacker}<`, `>${victim}<`),
    };
    for (const [name, xml] of Object.entries(wrappings)) {
      const browser = new CookieJar();
      const answer = await postToAcs(org.sp.spAcsUrl, { SAMLResponse: base64(xml) }, browser);
      expect(locationOf(answer), name).toMatch(/sso_error=/);
      expect(sessionCookieOf(answer), name).toBeUndefined();
    }
  });

  it('accepts sign-in started at the identity provider only when switched on, each assertion once', async () => {
    const off = await samlOrganization();
    const refused = await postToAcs(off.sp.spAcsUrl, {
      SAMLResponse: base64(signAssertion(responseXml(off.fields(`portal@${off.domain}`, null)), keys)),
    });
    expect(locationOf(refused)).toMatch(/sso_error=state$/);

    const on = await samlOrganization({ allowIdpInitiated: true });
    const unsolicited = base64(signAssertion(responseXml(on.fields(`portal@${on.domain}`, null)), keys));
    expect(locationOf(await postToAcs(on.sp.spAcsUrl, { SAMLResponse: unsolicited }))).toMatch(
      /\/auth\/redirect$/,
    );
    const replayed = await postToAcs(on.sp.spAcsUrl, { SAMLResponse: unsolicited });
    expect(locationOf(replayed)).toMatch(/sso_error=replayed$/);
    expect(sessionCookieOf(replayed)).toBeUndefined();
  });

  it('never signs in an account SSO did not create, nor an address outside the verified domains', async () => {
    const org = await samlOrganization();
    // A password account at the domain, not linked: refused, left as it is.
    const existing = await createAdmin(ctx, { email: `existing@${org.domain}` });
    const answer = await postToAcs(org.sp.spAcsUrl, {
      SAMLResponse: base64(
        signAssertion(responseXml(org.fields(existing.email, await org.start(existing.email))), keys),
      ),
    });
    expect(locationOf(answer)).toMatch(/sso_error=account_exists$/);
    // 'Test connection' and the refusal created nothing: no account is bound to the organisation's SSO.
    expect(
      await ctx.deps.db
        .select()
        .from(account)
        .where(eq(account.providerId, `org-${org.sp.spAcsUrl.split('/org-')[1]}`)),
    ).toHaveLength(0);
    // Another organisation's domain, asserted by this organisation's identity provider.
    const other = await samlOrganization();
    const outside = await postToAcs(org.sp.spAcsUrl, {
      SAMLResponse: base64(
        signAssertion(
          responseXml(org.fields(`someone@${other.domain}`, await org.start(`a@${org.domain}`))),
          keys,
        ),
      ),
    });
    expect(locationOf(outside)).toMatch(/sso_error=domain$/);
  });

  it("links an existing member's account through 'Link single sign-on', only to the same address", async () => {
    const org = await samlOrganization();
    const owner = org.admin.email;
    const startLink = async () => {
      const started = await ctx.call(org.admin.jar, 'POST', '/api/account/sso-link', {
        confirm: { method: 'password', password: 'correct-horse-battery' },
      });
      expect(started.status, await started.clone().text()).toBe(200);
      return authnRequestId((await json<{ url: string }>(started)).url);
    };
    // Before linking, the owner's password account is not signed in by SAML.
    const before = await postToAcs(org.sp.spAcsUrl, {
      SAMLResponse: base64(signAssertion(responseXml(org.fields(owner, await org.start(owner))), keys)),
    });
    expect(locationOf(before)).toMatch(/sso_error=account_exists$/);
    // The identity provider answers with another address: nothing is linked.
    const mismatch = await postToAcs(org.sp.spAcsUrl, {
      SAMLResponse: base64(
        signAssertion(responseXml(org.fields(`other@${org.domain}`, await startLink())), keys),
      ),
    });
    expect(locationOf(mismatch)).toMatch(
      /\/admin\/account-settings\/security\?sso_link_error=link_mismatch$/,
    );
    const linked = await postToAcs(org.sp.spAcsUrl, {
      SAMLResponse: base64(signAssertion(responseXml(org.fields(owner, await startLink())), keys)),
    });
    expect(locationOf(linked)).toMatch(/\/admin\/account-settings\/security\?sso=linked$/);
    expect(await json(await ctx.call(org.admin.jar, 'GET', '/api/account/sso-link'))).toEqual({
      available: true,
      linked: true,
    });
    const browser = new CookieJar();
    const after = await postToAcs(
      org.sp.spAcsUrl,
      { SAMLResponse: base64(signAssertion(responseXml(org.fields(owner, await org.start(owner))), keys)) },
      browser,
    );
    expect(locationOf(after)).toMatch(/\/auth\/redirect$/);
    expect((await me(ctx, browser)).user.id).toBe(org.admin.userId);
  });

  it('is for organisation admins, and refuses metadata it cannot use', async () => {
    const org = await samlOrganization();
    const bad = await saveSaml(org.admin.jar, { metadataXml: '<md:EntityDescriptor/>', domains: org.domain });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.message).toBe(english(SECURITY_MESSAGES.samlMetadataInvalid));
    const entities = await saveSaml(org.admin.jar, {
      metadataXml: `<!DOCTYPE x [<!ENTITY a "b">]>${idpMetadata({ entityId, ssoUrl: 'https://idp.acme.example/sso', certificate: keys.certificate })}`,
      domains: org.domain,
    });
    expect(entities.status).toBe(400);
    const weak = testIdpKeys(1024);
    const weakKey = await saveSaml(org.admin.jar, {
      metadataXml: idpMetadata({
        entityId,
        ssoUrl: 'https://idp.acme.example/sso',
        certificate: weak.certificate,
      }),
      domains: org.domain,
    });
    expect((await json(weakKey)).error.message).toBe(english(SECURITY_MESSAGES.samlMetadataInvalid));
    for (const metadataUrl of [
      'http://idp.example.com/metadata',
      'https://10.0.0.5/metadata',
      'file:///etc/passwd',
    ]) {
      const refused = await saveSaml(org.admin.jar, { metadataUrl, domains: org.domain });
      expect(refused.status, metadataUrl).toBe(400);
      expect((await json(refused)).error.message, metadataUrl).toBe(
        english(SECURITY_MESSAGES.samlMetadataUrlInvalid),
      );
    }
    // A name resolving to a private address: refused when connecting (the outbound guard).
    dns.setAddresses('metadata.internal-idp.test', { a: ['10.1.2.3'] });
    const inside = await saveSaml(org.admin.jar, {
      metadataUrl: 'https://metadata.internal-idp.test/metadata',
      domains: org.domain,
    });
    expect((await json(inside)).error.message).toBe(english(SECURITY_MESSAGES.samlMetadataUnreachable));

    const member = await signedInUser(ctx, {
      workspaceId: org.admin.workspaceId,
      access: 'admin',
      email: `m@${org.domain}`,
    });
    expect((await ctx.call(member.jar, 'GET', '/api/organization/saml')).status).toBe(403);
    expect(
      (await saveSaml(member.jar, { metadataUrl: 'https://idp.example/x', domains: org.domain })).status,
    ).toBe(403);
    const stranger = await signedInUser(ctx);
    expect((await ctx.call(stranger.jar, 'GET', '/api/organization/saml')).status).toBe(404);
    const anonymous = await ctx.request('PUT', '/api/organization/saml', { body: { domains: org.domain } });
    expect(anonymous.status).toBe(401);
  });
});

describe('SAML against SimpleSAMLphp', () => {
  const missing = simpleSamlPhpMissing();
  const domain = uniqueDomain();
  let idp: SamlIdp;
  beforeAll(async () => {
    if (missing) return;
    idp = await startSamlIdp({
      users: [
        { username: 'owner', password: 'owner-pass', email: `owner@${domain}`, name: 'Olive Owner' },
        { username: 'alice', password: 'alice-pass', email: `alice@${domain}`, name: 'Alice Example' },
      ],
    });
  });
  afterAll(async () => {
    await idp?.stop();
  });

  it.skipIf(missing)(
    'configures by metadata URL, tests the connection and signs a person in through the login form',
    async () => {
      const admin = await createAdmin(ctx, { email: `owner@${domain}` });
      const saved = await saveSaml(admin.jar, { metadataUrl: idp.metadataUrl, domains: domain });
      expect(saved.status, await saved.clone().text()).toBe(200);
      const sp = await json<SamlSettings>(saved);
      expect(sp).toMatchObject({ configured: true, idpEntityId: idp.entityId, metadataUrl: idp.metadataUrl });
      expect(sp.certificates).toHaveLength(1);
      idp.registerSp({ entityId: sp.spEntityId, acsUrl: sp.spAcsUrl });
      await verifySsoDomain(ctx, admin, dns, domain);

      const test = await ctx.call(admin.jar, 'POST', '/api/organization/sso/test');
      const tested = await idp.signIn((await json<{ url: string }>(test)).url, {
        username: 'owner',
        password: 'owner-pass',
      });
      expect(tested.action).toBe(sp.spAcsUrl);
      expect(
        locationOf(
          await postToAcs(tested.action, {
            SAMLResponse: tested.samlResponse,
            RelayState: tested.relayState,
          }),
        ),
      ).toMatch(/\?sso=tested$/);
      expect(
        (await ctx.call(admin.jar, 'PUT', '/api/organization/sso/switch', { enabled: true, required: true }))
          .status,
      ).toBe(200);

      const started = await ctx.request('POST', '/api/login/sso', { body: { email: `alice@${domain}` } });
      const answer = await idp.signIn((await json<{ url: string }>(started)).url, {
        username: 'alice',
        password: 'alice-pass',
      });
      const browser = new CookieJar();
      const back = await postToAcs(
        answer.action,
        { SAMLResponse: answer.samlResponse, RelayState: answer.relayState },
        browser,
      );
      expect(locationOf(back)).toMatch(/\/auth\/redirect$/);
      const signedIn = await me<{ user: { email: string; name: string } }>(ctx, browser);
      expect(signedIn.user).toMatchObject({ email: `alice@${domain}`, name: 'Alice Example' });
      // The same answer a second time: refused.
      expect(
        locationOf(
          await postToAcs(answer.action, {
            SAMLResponse: answer.samlResponse,
            RelayState: answer.relayState,
          }),
        ),
      ).toMatch(/sso_error=state$/);
      // 'Require SSO' applies as with OpenID Connect: the owner's password sign-in is refused, pointing to SSO.
      const password = await ctx.request('POST', '/api/login', {
        body: { email: `owner@${domain}`, password: 'correct-horse-battery' },
      });
      expect(password.status).toBe(403);
      expect((await json(password)).error.code).toBe('sso_required');
    },
  );
});
