import { SECURITY_MESSAGES } from '@pulsecheck/shared/auth/security-messages';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSO_ERRORS } from '@pulsecheck/shared/auth/security-messages';
import { DELETION_MESSAGES } from '@pulsecheck/shared/account/deletion';
import type { SsoSettings } from '@pulsecheck/shared/auth/security';
import { queryRows } from '../../db/client';
import { account, user } from '../../db/schema/auth';
import { workspaceMembers } from '../../db/schema/organizations';
import { createAdmin, invite, me, signedInUser, signIn } from '../../test/accounts';
import { startDnsServer, type DnsServer } from '../../test/dns-server';
import { createTestContext, useTestContext } from '../../test/harness';
import { latestMail } from '../../test/mail';
import { startOidcProvider, type OidcProvider, type Tamper } from '../../test/oidc-provider';
import { CookieJar, json, english } from '../../test/requests';
import {
  backToApp,
  configureSso,
  providerRedirect,
  saveSso,
  throughProvider,
  uniqueDomain,
  verifySsoDomain,
} from '../../test/security';
import { recheckDomains } from './domains';

// A real DNS server on a loopback port answers the domains' TXT records (and A/AAAA records for the issuer tests).
let dns: DnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
});
const ctx = useTestContext(() => ({ dnsServers: [dns.server] }));
let idp: OidcProvider;
beforeAll(async () => {
  idp = await startOidcProvider();
});
afterAll(async () => {
  await idp.stop();
  await dns.stop();
});

/** An organisation whose owner's address is at a domain of its own, with SSO for it on. */
async function organization(options: { required?: boolean } = {}) {
  const domain = uniqueDomain();
  const admin = await createAdmin(ctx, { email: `owner@${domain}` });
  await configureSso(ctx, admin, idp, domain, { dns, ...options });
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
    expect((await json(early)).error.message).toBe(english(SECURITY_MESSAGES.ssoNotTested));
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
      expect((await json(refused)).error.fields?.issuer).toBe(english(SECURITY_MESSAGES.ssoIssuerInvalid));
    }
    const unreachable = await save({ issuer: 'http://127.0.0.1:9' });
    expect((await json(unreachable)).error.message).toBe(english(SECURITY_MESSAGES.ssoIssuerUnreachable));
    expect((await json(await save({ domains: 'gmail.com' }))).error.message).toBe(
      english(SECURITY_MESSAGES.ssoDomainPublic),
    );

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
    expect((await json(conflict)).error.message).toBe(english(SECURITY_MESSAGES.ssoDomainTaken));
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

  it("refuses an existing member who has not linked SSO, and links them once they do it themselves ('Link single sign-on')", async () => {
    const { admin, domain } = await organization();
    const member = await signedInUser(ctx, {
      workspaceId: admin.workspaceId,
      access: 'member',
      email: `existing@${domain}`,
    });
    idp.signInAs({ sub: `existing-${domain}`, email: member.email, emailVerified: true });
    const refused = new CookieJar();
    const back = await throughProvider(ctx, await startSso(member.email, refused), refused);
    expect(back.headers.get('location')).toBe(`${ctx.deps.config.appUrl}/login?sso_error=account_exists`);
    expect((await ctx.call(refused, 'GET', '/api/me')).status).toBe(401);
    expect((await traces(member.email)).map((t) => t.providerId)).toEqual(['credential']);

    // The member links it from their own session, with their password.
    expect(await json(await ctx.call(member.jar, 'GET', '/api/account/sso-link'))).toEqual({
      available: true,
      linked: false,
    });
    const wrong = await ctx.call(member.jar, 'POST', '/api/account/sso-link', {
      confirm: { method: 'password', password: 'not-the-password' },
    });
    expect(wrong.status).toBe(400);
    expect((await json(wrong)).error.message).toBe(english(DELETION_MESSAGES.passwordIncorrect));
    const noProof = await ctx.call(member.jar, 'POST', '/api/account/sso-link', {
      confirm: { method: 'recent-sign-in' },
    });
    expect(noProof.status).toBe(400);
    const linked = await throughProvider(
      ctx,
      await ctx.call(member.jar, 'POST', '/api/account/sso-link', {
        confirm: { method: 'password', password: 'correct-horse-battery' },
      }),
      member.jar,
    );
    expect(linked.headers.get('location')).toBe(
      `${ctx.deps.config.appUrl}/admin/account-settings/security?sso=linked`,
    );
    expect(await json(await ctx.call(member.jar, 'GET', '/api/account/sso-link'))).toEqual({
      available: true,
      linked: true,
    });

    const browser = new CookieJar();
    await throughProvider(ctx, await startSso(member.email, browser), browser);
    expect((await me(ctx, browser)).user.id).toBe(member.userId);
    const providers = (await traces(member.email)).map((t) => t.providerId);
    expect(providers).toHaveLength(2);
    expect(providers).toContain('credential');
    expect(providers.find((p) => p !== 'credential')).toMatch(/^org-/);
  }, 60_000);

  it('links only the signed-in account, to a provider identity with the same e-mail, and only for members', async () => {
    const { admin, domain } = await organization();
    const member = await signedInUser(ctx, {
      workspaceId: admin.workspaceId,
      access: 'member',
      email: `linker@${domain}`,
    });
    idp.signInAs({ sub: `other-${domain}`, email: `someone-else@${domain}`, emailVerified: true });
    const mismatch = await throughProvider(
      ctx,
      await ctx.call(member.jar, 'POST', '/api/account/sso-link', {
        confirm: { method: 'password', password: 'correct-horse-battery' },
      }),
      member.jar,
    );
    expect(mismatch.headers.get('location')).toMatch(/\/security\?sso_link_error=link_mismatch$/);
    expect(await traces(`someone-else@${domain}`)).toEqual([]);
    expect((await traces(member.email)).map((t) => t.providerId)).toEqual(['credential']);

    // Someone at the domain who is not a member of the organisation has nothing to link.
    const outsider = await signedInUser(ctx, { email: `outsider@${domain}` });
    const unavailable = await ctx.call(outsider.jar, 'POST', '/api/account/sso-link', {
      confirm: { method: 'password', password: 'correct-horse-battery' },
    });
    expect(unavailable.status).toBe(409);
    expect((await json(unavailable)).error.message).toBe(english(SECURITY_MESSAGES.ssoLinkUnavailable));
  }, 60_000);

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
    await configureSso(ctx, admin, own, domain, { dns });
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
    expect((await json(refused)).error.message).toBe(english(SECURITY_MESSAGES.ssoNotSetUp));
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
        message: english(SECURITY_MESSAGES.ssoRequired),
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

const password = 'correct-horse-battery';
const settingsOf = async (jar: CookieJar) =>
  json<SsoSettings>(await ctx.call(jar, 'GET', '/api/organization/sso'));

describe('a second organisation at a shared domain (issue 30: the takeover)', () => {
  it('cannot use a domain it has not proved with DNS, nor take over an account there it did not create', async () => {
    // Organisation A: its user at the shared domain X signs in with a password.
    const shared = uniqueDomain();
    const victim = await createAdmin(ctx, { email: `victim@${shared}` });

    // Organisation B's admin (elsewhere) claims X for B's own provider: saved as pending, never verified without the
    // record, so SSO cannot be switched on and 'Sign in with SSO' does not offer X.
    const attacker = await createAdmin(ctx, { email: `admin@${uniqueDomain()}` });
    await saveSso(ctx, attacker, idp, shared);
    expect((await settingsOf(attacker.jar)).verification).toEqual([
      expect.objectContaining({ domain: shared, status: 'pending' }),
    ]);
    const unverified = await ctx.call(attacker.jar, 'POST', '/api/organization/sso/verify-domain', {
      domain: shared,
    });
    expect(unverified.status).toBe(400);
    expect((await json(unverified)).error.message).toBe(
      english(SECURITY_MESSAGES.ssoDomainNotVerified, { domain: shared }),
    );
    // A record with another token (say, of another organisation) proves nothing either.
    dns.setTxt(shared, 'pulsecheck-verification=0123456789abcdef0123456789abcdef');
    expect(
      (await ctx.call(attacker.jar, 'POST', '/api/organization/sso/verify-domain', { domain: shared }))
        .status,
    ).toBe(400);
    expect((await settingsOf(attacker.jar)).verification[0]?.status).toBe('failed');
    idp.signInAs({ sub: `b-admin-${shared}`, email: `victim@${shared}`, emailVerified: true });
    await throughProvider(
      ctx,
      await ctx.call(attacker.jar, 'POST', '/api/organization/sso/test'),
      attacker.jar,
    );
    const switched = await ctx.call(attacker.jar, 'PUT', '/api/organization/sso/switch', {
      enabled: true,
      required: true,
    });
    expect(switched.status).toBe(409);
    expect((await json(switched)).error.message).toBe(english(SECURITY_MESSAGES.ssoNoVerifiedDomain));
    const start = await startSso(`victim@${shared}`);
    expect(start.status).toBe(404);
    expect((await signIn(ctx, victim.email, victim.password)) instanceof CookieJar).toBe(true);
    expect((await traces(victim.email)).map((t) => t.providerId)).toEqual(['credential']);
  }, 60_000);

  it('even on a domain it verified, refuses an existing account of another organisation, changes nothing, and its Require SSO does not touch that account', async () => {
    const domain = uniqueDomain();
    // An account of organisation A at the domain B legitimately controls (a contractor, say).
    const victim = await createAdmin(ctx, { email: `contractor@${domain}` });
    const before = await ctx.deps.db.select().from(user).where(eq(user.id, victim.userId));
    const admin = await createAdmin(ctx, { email: `owner@${domain}` });
    await configureSso(ctx, admin, idp, domain, { dns, required: true });

    idp.signInAs({
      sub: `contractor-${domain}`,
      email: victim.email,
      emailVerified: true,
      name: 'Evil Name',
    });
    const browser = new CookieJar();
    const back = await throughProvider(ctx, await startSso(victim.email, browser), browser);
    expect(back.headers.get('location')).toBe(`${ctx.deps.config.appUrl}/login?sso_error=account_exists`);
    expect((await ctx.call(browser, 'GET', '/api/me')).status).toBe(401);
    expect((await traces(victim.email)).map((t) => t.providerId)).toEqual(['credential']);
    expect(await ctx.deps.db.select().from(user).where(eq(user.id, victim.userId))).toEqual(before);
    expect(english(SSO_ERRORS.account_exists)).toContain('Nothing was changed');

    // B requires SSO at the domain: its own owner is refused a password, A's account is not.
    const refused = await ctx.request('POST', '/api/login', { body: { email: admin.email, password } });
    expect(refused.status).toBe(403);
    expect((await json(refused)).error.code).toBe('sso_required');
    const jar = await signIn(ctx, victim.email, victim.password);
    expect((await me(ctx, jar)).user.id).toBe(victim.userId);
    expect(
      (await ctx.request('POST', '/api/password/forgot', { body: { email: victim.email } })).status,
    ).toBe(200);

    // A third organisation cannot verify the domain B holds (one organisation per domain).
    const third = await createAdmin(ctx, { email: `third@${uniqueDomain()}` });
    const conflict = await ctx.call(third.jar, 'PUT', '/api/organization/sso', {
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: idp.clientSecret,
      domains: domain,
    });
    expect(conflict.status).toBe(409);
    expect((await json(conflict)).error.message).toBe(english(SECURITY_MESSAGES.ssoDomainTaken));
  }, 60_000);
});

describe('domain verification by DNS', () => {
  it('verifies with the TXT record the Security tab shows; the daily re-check stops SSO when it is gone and tells the owner', async () => {
    const domain = uniqueDomain();
    const admin = await createAdmin(ctx, { email: `owner@${domain}` });
    await saveSso(ctx, admin, idp, domain);
    const [pending] = (await settingsOf(admin.jar)).verification;
    expect(pending).toMatchObject({ domain, status: 'pending', checkedAt: null });
    expect(pending!.record).toMatch(/^pulsecheck-verification=[0-9a-f]{32}$/);
    const verified = await verifySsoDomain(ctx, admin, dns, domain);
    expect(verified.verification[0]).toMatchObject({ domain, status: 'verified', record: pending!.record });
    // Saving again keeps the domain's token and state.
    await saveSso(ctx, admin, idp, domain);
    expect((await settingsOf(admin.jar)).verification[0]).toMatchObject({
      status: 'verified',
      record: pending!.record,
    });
    await configureSso(ctx, admin, idp, domain, { dns });
    expect((await startSso(`someone@${domain}`)).status).toBe(200);

    // Still there: the re-check changes nothing.
    await recheckDomains(ctx.deps);
    expect((await settingsOf(admin.jar)).verification[0]?.status).toBe('verified');
    // Gone: SSO stops for the domain at once, and the owner is told.
    dns.setTxt(domain);
    await recheckDomains(ctx.deps);
    expect((await settingsOf(admin.jar)).verification[0]?.status).toBe('failed');
    const refused = await startSso(`someone@${domain}`);
    expect(refused.status).toBe(404);
    const mail = await latestMail(ctx, admin.email, `Single sign-on stopped for ${domain}`);
    expect(mail.text).toContain(pending!.record);
  }, 60_000);
});

describe("'Require SSO' and invitations", () => {
  it('refuses accept-signup (a password account) at a domain whose organisation requires SSO', async () => {
    const { admin, domain } = await organization({ required: true });
    const invited = await invite(ctx, admin, { email: `invitee@${domain}` });
    const accepted = await ctx.request('POST', `/api/invitations/${invited.token}/accept-signup`, {
      body: { fullName: 'Ivy Invitee', password, confirmPassword: password },
    });
    expect(accepted.status).toBe(403);
    expect((await json(accepted)).error.code).toBe('sso_required');
    expect(await traces(invited.email)).toEqual([]);
  });
});

describe('the issuer cannot reach inside', () => {
  const save = (jar: CookieJar, domain: string, issuer: string) =>
    ctx.call(jar, 'PUT', '/api/organization/sso', {
      issuer,
      clientId: 'client',
      clientSecret: 'secret',
      domains: domain,
    });

  it('refuses a public-looking name whose DNS answer is a loopback, private, link-local or unique-local address', async () => {
    const domain = uniqueDomain();
    const admin = await createAdmin(ctx, { email: `owner@${domain}` });
    const port = new URL(idp.issuer).port;
    for (const [name, addresses] of [
      ['private.idp-example.com', { a: ['10.0.0.8'] }],
      ['metadata.idp-example.com', { a: ['169.254.169.254'] }],
      ['ula.idp-example.com', { aaaa: ['fc00::8'] }],
      ['link.idp-example.com', { aaaa: ['fe80::8'] }],
      ['mapped.idp-example.com', { aaaa: ['::ffff:a00:8'] }],
    ] as const) {
      dns.setAddresses(name, addresses);
      const refused = await save(admin.jar, domain, `https://${name}:${port}`);
      expect(refused.status, name).toBe(400);
      expect((await json(refused)).error.fields?.issuer, name).toBe(
        english(SECURITY_MESSAGES.ssoIssuerInvalid),
      );
    }
  });

  it('follows no redirect from the issuer', async () => {
    const domain = uniqueDomain();
    const admin = await createAdmin(ctx, { email: `owner@${domain}` });
    const redirecting = createServer((_req, res) => {
      res.writeHead(302, { location: `${idp.issuer}/.well-known/openid-configuration` });
      res.end();
    });
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    try {
      const issuer = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}`;
      const refused = await save(admin.jar, domain, issuer);
      expect(refused.status).toBe(400);
      expect((await json(refused)).error.message).toBe(english(SECURITY_MESSAGES.ssoIssuerUnreachable));
    } finally {
      redirecting.closeAllConnections();
      redirecting.close();
    }
  });

  it('takes a loopback issuer only with SSO_ALLOW_LOOPBACK_ISSUER', async () => {
    const strict = await createTestContext({ dnsServers: [dns.server], allowLoopbackIssuer: false });
    try {
      const domain = uniqueDomain();
      const admin = await createAdmin(strict, { email: `owner@${domain}` });
      dns.setAddresses('loop.idp-example.com', { a: ['127.0.0.1'] });
      for (const issuer of [idp.issuer, `https://loop.idp-example.com:${new URL(idp.issuer).port}`]) {
        const refused = await strict.call(admin.jar, 'PUT', '/api/organization/sso', {
          issuer,
          clientId: idp.clientId,
          clientSecret: idp.clientSecret,
          domains: domain,
        });
        expect(refused.status, issuer).toBe(400);
        expect((await json(refused)).error.fields?.issuer).toBe(english(SECURITY_MESSAGES.ssoIssuerInvalid));
      }
    } finally {
      await strict.close();
    }
  }, 60_000);

  it('limits how often SSO settings are saved', async () => {
    const domain = uniqueDomain();
    const admin = await createAdmin(ctx, { email: `owner@${domain}` });
    for (let i = 0; i < 10; i += 1)
      expect((await save(admin.jar, domain, 'http://not-loopback.example')).status).toBe(400);
    const limited = await save(admin.jar, domain, idp.issuer);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBeTruthy();
  });
});
