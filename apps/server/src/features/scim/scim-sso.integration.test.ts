import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCIM_SCHEMAS, type CreatedScimToken } from '@pulsecheck/shared/scim/rules';
import { queryRows } from '../../db/client';
import { createAdmin, me } from '../../test/accounts';
import { startDnsServer, type DnsServer } from '../../test/dns-server';
import { useTestContext } from '../../test/harness';
import { startOidcProvider, type OidcProvider } from '../../test/oidc-provider';
import { CookieJar, json } from '../../test/requests';
import { configureSso, throughProvider, uniqueDomain } from '../../test/security';

/**
 * A provisioned person signs in through the organisation's SSO (a real OpenID Connect provider and DNS server on
 * loopback ports, as the SSO tests run them); deactivated, the organisation's SSO refuses them; reactivated, it
 * signs them in again, as the same account.
 */

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

const scim = (token: string, method: string, path: string, body?: unknown) =>
  ctx.app.request(`/scim/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

async function ssoSignIn(email: string, sub: string) {
  idp.signInAs({ sub, email, emailVerified: true });
  const browser = new CookieJar();
  const start = await ctx.request('POST', '/api/login/sso', { body: { email }, headers: browser.header() });
  const back = await throughProvider(ctx, start, browser);
  return { browser, location: back.headers.get('location') };
}

const setActive = (token: string, id: string, active: boolean) =>
  scim(token, 'PATCH', `/Users/${id}`, {
    schemas: [SCIM_SCHEMAS.patchOp],
    Operations: [{ op: 'Replace', path: 'active', value: active ? 'True' : 'False' }],
  });

describe('provisioned people and single sign-on', () => {
  it('signs a provisioned person in through SSO, refuses them while deactivated, and again after', async () => {
    const domain = uniqueDomain();
    const admin = await createAdmin(ctx, { email: `owner@${domain}` });
    await configureSso(ctx, admin, idp, domain, { dns });
    const { secret } = await json<CreatedScimToken>(
      await ctx.call(admin.jar, 'POST', '/api/organization/scim/token'),
    );
    const email = `provisioned@${domain}`;
    const created = await scim(secret, 'POST', '/Users', {
      schemas: [SCIM_SCHEMAS.user],
      userName: email,
      name: { givenName: 'Pia', familyName: 'Provisioned' },
    });
    expect(created.status).toBe(201);
    const { id } = await json<{ id: string }>(created);
    const [account] = await queryRows<{ id: string }>(
      ctx.deps.db,
      sql`select id from "user" where email = ${email}`,
    );

    const first = await ssoSignIn(email, `sub-${domain}`);
    expect(first.location).toBe(`${ctx.deps.config.appUrl}/auth/redirect`);
    expect((await me<{ user: { id: string; name: string } }>(ctx, first.browser)).user).toMatchObject({
      id: account!.id,
      name: 'Pia Provisioned',
    });

    expect((await setActive(secret, id, false)).status).toBe(200);
    // The session SSO gave them has ended; SSO no longer signs them in.
    expect((await ctx.call(first.browser, 'GET', '/api/me')).status).toBe(401);
    const refused = await ssoSignIn(email, `sub-${domain}`);
    expect(refused.location).toBe(`${ctx.deps.config.appUrl}/login?sso_error=account_exists`);
    expect((await ctx.call(refused.browser, 'GET', '/api/me')).status).toBe(401);

    expect((await setActive(secret, id, true)).status).toBe(200);
    const again = await ssoSignIn(email, `sub-${domain}`);
    expect(again.location).toBe(`${ctx.deps.config.appUrl}/auth/redirect`);
    expect((await me<{ user: { id: string } }>(ctx, again.browser)).user.id).toBe(account!.id);
    const [membership] = await queryRows<{ status: string }>(
      ctx.deps.db,
      sql`select status from workspace_members where user_id = ${account!.id} and workspace_id = ${admin.workspaceId}`,
    );
    expect(membership).toEqual({ status: 'active' });
  });
});
