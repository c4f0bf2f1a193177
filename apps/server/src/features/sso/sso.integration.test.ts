import { SECURITY_MESSAGES } from '@pulsecheck/shared/auth/security-messages';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { account, user } from '../../db/schema/auth';
import { workspaceMembers } from '../../db/schema/organizations';
import { createAdmin, me, signedInUser } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { startOidcProvider, type OidcProvider, type Tamper } from '../../test/oidc-provider';
import { CookieJar, json } from '../../test/requests';
import {
  backToApp,
  configureSso,
  providerRedirect,
  saveSso,
  throughProvider,
  uniqueDomain,
} from '../../test/security';

const ctx = useTestContext();
let idp: OidcProvider;
beforeAll(async () => {
  idp = await startOidcProvider();
});
afterAll(async () => {
  await idp.stop();
});

/** An organisation whose owner's address is at a domain of its own, with SSO for it on. */
async function organization(options: { required?: boolean } = {}) {
  const domain = uniqueDomain();
  const admin = await createAdmin(ctx, { email: `owner@${domain}` });
  await configureSso(ctx, admin, idp, domain, options);
  return { admin, domain };
}

const startSso = (email: string, browser = new CookieJar()) =>
  ctx.request('POST', '/api/login/sso', { body: { email }, headers: browser.header() });

/** Everything stored about an address: its user and their accounts. */
async function traces(email: string) {
  const rows = await ctx.deps.db
    .select({ id: user.id, providerId: account.providerId })
    .from(user)
    .leftJoin(account, eq(account.userId, user.id))
    .where(eq(user.email, email));
  return rows;
}

describe('configuring SSO', () => {
  it('discovers the issuer, keeps the client secret encrypted at rest and never sends it back', async () => {
    const domain = uniqueDomain();
    const admin = await createAdmin(ctx, { email: `owner@${domain}` });
    const saved = await saveSso(ctx, admin, idp, domain);
    const settings = await json<Record<string, unknown>>(saved);
    expect(settings).toMatchObject({
      configured: true,
      issuer: idp.issuer,
      clientId: idp.clientId,
      hasClientSecret: true,
      domains: [domain],
      testedAt: null,
      enabled: false,
    });
    expect(JSON.stringify(settings)).not.toContain(idp.clientSecret);
    const [row] = await queryRows<{ oidc_config: string }>(
      ctx.deps.db,
      sql`select oidc_config from sso_provider
          where organization_id = (select organization_id::text from sso_domains where domain = ${domain})`,
    );
    expect(row!.oidc_config).toMatch(/^v1\./);
    expect(row!.oidc_config).not.toContain(idp.clientSecret);
    expect(row!.oidc_config).not.toContain(idp.clientId);

    // Switching on needs a passed 'Test connection' first.
    const early = await ctx.call(admin.jar, 'PUT', '/api/organization/sso/switch', {
      enabled: true,
      required: false,
    });
    expect(early.status).toBe(409);
    expect((await json(early)).error.message).toBe(SECURITY_MESSAGES.ssoNotTested);
  });

  it('refuses issuers it must not call, unreachable ones, and domains the organisation cannot vouch for', async () => {
    const domain = uniqueDomain();
    const admin = await createAdmin(ctx, { email: `owner@${domain}` });
    const save = (body: object) =>
      ctx.call(admin.jar, 'PUT', '/api/organization/sso', {
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: 'secret',
        domains: domain,
        ...body,
      });
    for (const issuer of [
      'http://idp.example.com',
      'https://10.0.0.5',
      'https://169.254.169.254',
      'ftp://x.example',
    ]) {
      const refused = await save({ issuer });
      expect(refused.status, issuer).toBe(400);
      expect((await json(refused)).error.fields?.issuer).toBe(SECURITY_MESSAGES.ssoIssuerInvalid);
    }
    const unreachable = await save({ issuer: 'http://127.0.0.1:9' });
    expect((await json(unreachable)).error.message).toBe(SECURITY_MESSAGES.ssoIssuerUnreachable);
    expect((await json(await save({ domains: 'gmail.com' }))).error.message).toBe(
      SECURITY_MESSAGES.ssoDomainPublic,
    );
    const notYours = await json(await save({ domains: 'bank.example' }));
    expect(notYours.error.message).toContain(domain);

    // Another organisation whose owner is at a domain this one already covers cannot claim it.
    const { domain: taken } = await organization();
    const rival = await createAdmin(ctx, { email: `rival@${taken}` });
    const conflict = await ctx.call(rival.jar, 'PUT', '/api/organization/sso', {
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: 'secret',
      domains: taken,
    });
    expect(conflict.status).toBe(409);
    expect((await json(conflict)).error.message).toBe(SECURITY_MESSAGES.ssoDomainTaken);
  });

  it('is for organisation admins only', async () => {
    const { admin, domain } = await organization();
    const member = await signedInUser(ctx, {
      workspaceId: admin.workspaceId,
      access: 'admin',
      email: `m@${domain}`,
    });
    expect((await ctx.call(member.jar, 'GET', '/api/organization/sso')).status).toBe(403);
    const stranger = await signedInUser(ctx);
    expect((await ctx.call(stranger.jar, 'GET', '/api/organization/sso')).status).toBe(404);
  });
});

describe("'Test connection'", () => {
  it('signs the admin in through the provider once and creates nothing', async () => {
    const domain = uniqueDomain();
    const admin = await createAdmin(ctx, { email: `owner@${domain}` });
    await saveSso(ctx, admin, idp, domain);
    idp.signInAs({ sub: 'tester', email: `it-person@${domain}`, emailVerified: true });
    const tested = await throughProvider(
      ctx,
      await ctx.call(admin.jar, 'POST', '/api/organization/sso/test'),
      admin.jar,
    );
    expect(tested.headers.get('location')).toBe(
      `${ctx.deps.config.appUrl}/admin/account-settings/security?sso=tested`,
    );
    expect(await traces(`it-person@${domain}`)).toEqual([]);
    const settings = await json<{ testedAt: string | null }>(
      await ctx.call(admin.jar, 'GET', '/api/organization/sso'),
    );
    expect(settings.testedAt).not.toBeNull();
    // The admin is still themselves.
    expect((await me(ctx, admin.jar)).user.id).toBe(admin.userId);
  });

  it('a failed test says why and leaves SSO untested', async () => {
    const domain = uniqueDomain();
    const admin = await createAdmin(ctx, { email: `owner@${domain}` });
    await saveSso(ctx, admin, idp, domain);
    idp.signInAs({ sub: 'tester', email: `it-person@${domain}`, emailVerified: true }, 'signature');
    const tested = await throughProvider(
      ctx,
      await ctx.call(admin.jar, 'POST', '/api/organization/sso/test'),
      admin.jar,
    );
    expect(tested.headers.get('location')).toMatch(/security\?sso_error=token$/);
    idp.signInAs({}, null);
    const settings = await json<{ testedAt: string | null }>(
      await ctx.call(admin.jar, 'GET', '/api/organization/sso'),
    );
    expect(settings.testedAt).toBeNull();
  });
});

describe("'Sign in with SSO'", () => {
  it('a person new to the organisation joins it as a member (just-in-time), with a verified address', async () => {
    const { admin, domain } = await organization();
    const email = `new.person@${domain}`;
    idp.signInAs({ sub: `sub-${domain}`, email, emailVerified: true, name: 'Nia New' });
    const browser = new CookieJar();
    const back = await throughProvider(ctx, await startSso(email, browser), browser);
    expect(back.status).toBe(302);
    expect(back.headers.get('location')).toBe(`${ctx.deps.config.appUrl}/auth/redirect`);
    const { user: signedIn } = await me<{ user: { id: string; email: string; name: string } }>(ctx, browser);
    expect(signedIn).toMatchObject({ email, name: 'Nia New' });
    const [row] = await ctx.deps.db.select().from(user).where(eq(user.id, signedIn.id));
    expect(row!.emailVerified).toBe(true);
    const [membership] = await ctx.deps.db
      .select({ access: workspaceMembers.access })
      .from(workspaceMembers)
      .where(
        and(eq(workspaceMembers.userId, signedIn.id), eq(workspaceMembers.workspaceId, admin.workspaceId)),
      );
    expect(membership).toEqual({ access: 'member' });

    // The next sign-in finds the same person.
    const again = new CookieJar();
    await throughProvider(ctx, await startSso(email, again), again);
    expect((await me(ctx, again)).user.id).toBe(signedIn.id);
  });

  it('links an existing member by their verified e-mail address', async () => {
    const { admin, domain } = await organization();
    const member = await signedInUser(ctx, {
      workspaceId: admin.workspaceId,
      access: 'member',
      email: `existing@${domain}`,
    });
    idp.signInAs({ sub: `existing-${domain}`, email: member.email, emailVerified: true });
    const browser = new CookieJar();
    await throughProvider(ctx, await startSso(member.email, browser), browser);
    expect((await me(ctx, browser)).user.id).toBe(member.userId);
    const providers = (await traces(member.email)).map((t) => t.providerId);
    expect(providers).toHaveLength(2);
    expect(providers).toContain('credential');
    expect(providers.find((p) => p !== 'credential')).toMatch(/^org-/);
  });

  const refusals: [string, Tamper, object, string][] = [
    ['a wrong issuer', 'issuer', {}, 'token'],
    ['a wrong audience', 'audience', {}, 'token'],
    ['a wrong signature', 'signature', {}, 'token'],
    ['a wrong nonce', 'nonce', {}, 'nonce'],
    ['email_verified false', null, { emailVerified: false }, 'email_unverified'],
  ];
  for (const [what, tamper, claims, code] of refusals) {
    it(`refuses ${what} with a clear message, and creates nothing`, async () => {
      const { domain } = await organization();
      const email = `someone@${domain}`;
      idp.signInAs({ sub: `s-${domain}`, email, emailVerified: true, ...claims }, tamper);
      const browser = new CookieJar();
      const back = await throughProvider(ctx, await startSso(email, browser), browser);
      idp.signInAs({}, null);
      expect(back.headers.get('location')).toBe(`${ctx.deps.config.appUrl}/login?sso_error=${code}`);
      expect(await traces(email)).toEqual([]);
      expect((await ctx.call(browser, 'GET', '/api/me')).status).toBe(401);
    });
  }

  it('refuses an e-mail outside the configured domains', async () => {
    const { domain } = await organization();
    idp.signInAs({ sub: `out-${domain}`, email: 'outsider@elsewhere.test', emailVerified: true });
    const browser = new CookieJar();
    const back = await throughProvider(ctx, await startSso(`inside@${domain}`, browser), browser);
    expect(back.headers.get('location')).toMatch(/\/login\?sso_error=domain$/);
    expect(await traces('outsider@elsewhere.test')).toEqual([]);
  });

  it('refuses a replayed state, and a state from another browser', async () => {
    const { domain } = await organization();
    const email = `replay@${domain}`;
    idp.signInAs({ sub: `r-${domain}`, email, emailVerified: true });

    const stranger = new CookieJar();
    const callback = await providerRedirect(ctx, await startSso(email, new CookieJar()), new CookieJar());
    const mismatched = await backToApp(ctx, callback, stranger);
    expect(mismatched.headers.get('location')).toMatch(/\/login\?sso_error=state$/);
    expect(await traces(email)).toEqual([]);

    const browser = new CookieJar();
    const url = await providerRedirect(ctx, await startSso(email, browser), browser);
    expect((await backToApp(ctx, url, browser)).headers.get('location')).toMatch(/\/auth\/redirect$/);
    const replayed = await backToApp(ctx, url, new CookieJar());
    expect(replayed.headers.get('location')).toMatch(/\/login\?sso_error=state$/);
  });

  it('refuses when the provider cannot be reached, and creates nothing', async () => {
    const own = await startOidcProvider();
    const domain = uniqueDomain();
    const admin = await createAdmin(ctx, { email: `owner@${domain}` });
    await configureSso(ctx, admin, own, domain);
    const email = `gone@${domain}`;
    own.signInAs({ sub: 'gone', email, emailVerified: true });
    const browser = new CookieJar();
    const url = await providerRedirect(ctx, await startSso(email, browser), browser);
    await own.stop();
    const back = await backToApp(ctx, url, browser);
    expect(back.headers.get('location')).toMatch(/\/login\?sso_error=unreachable$/);
    expect(await traces(email)).toEqual([]);
  });

  it('answers plainly for a domain without SSO', async () => {
    const refused = await startSso('someone@no-sso.test');
    expect(refused.status).toBe(404);
    expect((await json(refused)).error.message).toBe(SECURITY_MESSAGES.ssoNotSetUp);
  });
});

describe("'Require SSO for these domains'", () => {
  it('refuses password sign-in, sign-up and reset for those addresses, pointing to SSO', async () => {
    const { admin, domain } = await organization({ required: true });
    const member = await signedInUser(ctx, { workspaceId: admin.workspaceId, email: `pw@${domain}` }).catch(
      (error: Error) => error,
    );
    // The member could not even get a password session: the helper's sign-in was refused.
    expect(member).toBeInstanceOf(Error);
    const password = 'correct-horse-battery';
    const expectSso = async (response: Response) => {
      expect(response.status).toBe(403);
      expect((await json(response)).error).toEqual({
        code: 'sso_required',
        message: SECURITY_MESSAGES.ssoRequired,
      });
    };
    await expectSso(
      await ctx.request('POST', '/api/login', { body: { email: `owner@${domain}`, password } }),
    );
    await expectSso(
      await ctx.request('POST', '/api/signup', {
        body: {
          fullName: 'Someone',
          email: `new@${domain}`,
          password,
          confirmPassword: password,
          companyName: 'X',
          companySize: '1-10',
          role: 'Lead',
          acceptTerms: true,
        },
      }),
    );
    await expectSso(
      await ctx.request('POST', '/api/password/forgot', { body: { email: `owner@${domain}` } }),
    );
    // Other domains are not affected.
    expect(
      (await ctx.request('POST', '/api/password/forgot', { body: { email: 'x@other.test' } })).status,
    ).toBe(200);
  });
});
