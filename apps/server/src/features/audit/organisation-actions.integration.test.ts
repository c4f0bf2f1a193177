import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditEntry, AuditList, AuditVerify } from '@pulsecheck/shared/audit/log';
import type { SamlSettings } from '@pulsecheck/shared/auth/security';
import type { CreatedScimToken } from '@pulsecheck/shared/scim/rules';
import type { WorkspacesResponse } from '@pulsecheck/shared/workspaces/schemas';
import { queryRows } from '../../db/client';
import { addMember, createAdmin, signIn, type Admin } from '../../test/accounts';
import { startDnsServer, type DnsServer } from '../../test/dns-server';
import { startFakeGithub, type FakeGithub } from '../../test/github-server';
import { useTestContext } from '../../test/harness';
import { json } from '../../test/requests';
import {
  authnRequestId,
  base64,
  idpMetadata,
  responseXml,
  signAssertion,
  testIdpKeys,
} from '../../test/saml-responses';
import { uniqueDomain, verifySsoDomain } from '../../test/security';

/**
 * What the audit log records of an organisation's own settings (issue 37 item 3): branding and sign-in rules, single
 * sign-on and its domains, SCIM (the token, and each provisioning change with the SCIM token as the actor), API
 * tokens, webhooks (never their secret URL), the hand-over, deleted accounts, and admins' sign-ins and failed ones —
 * each with who, from where and what changed, and the chain intact after all of it.
 */

let dns: DnsServer;
let github: FakeGithub;
beforeAll(async () => {
  dns = await startDnsServer();
  github = await startFakeGithub();
});
afterAll(async () => {
  await dns.stop();
  expect(github.violations).toEqual([]);
  await github.close();
});
const ctx = useTestContext(() => ({ dnsServers: [dns.server], allowLoopbackWebhooks: true }));

type Org = { owner: Admin; organizationId: string };

async function newOrganization(overrides: Record<string, unknown> = {}): Promise<Org> {
  const owner = await createAdmin(ctx, overrides);
  const list = await json<WorkspacesResponse>(await ctx.call(owner.jar, 'GET', '/api/workspaces'));
  return { owner, organizationId: list.workspaces[0]!.organizationId };
}

async function entries(org: Org, query = ''): Promise<AuditEntry[]> {
  const response = await ctx.call(
    org.owner.jar,
    'GET',
    `/api/organizations/${org.organizationId}/audit-log${query}`,
  );
  expect(response.status).toBe(200);
  return (await json<AuditList>(response)).entries;
}

const latest = async (org: Org, action: string) => (await entries(org, `?action=${action}`))[0];

async function expectIntact(org: Org) {
  const verified = await json<AuditVerify>(
    await ctx.call(org.owner.jar, 'POST', `/api/organizations/${org.organizationId}/audit-log/verify`),
  );
  expect(verified).toMatchObject({ ok: true, brokenSeq: null });
}

describe('audit log: the organisation', () => {
  it('records branding and sign-in rules with before and after, and nothing for a change that changes nothing', async () => {
    const org = await newOrganization();
    const colour = await ctx.call(org.owner.jar, 'PUT', '/api/organization/branding', {
      accentColor: '#1d4ed8',
    });
    expect(colour.status).toBe(200);
    expect(await latest(org, 'organization.settings-changed')).toMatchObject({
      actorLabel: org.owner.email,
      targetType: 'organization',
      changes: { accentColor: { before: null, after: '#1d4ed8' } },
    });
    await ctx.call(org.owner.jar, 'PUT', '/api/organization/branding', { accentColor: '#1d4ed8' });
    expect(await entries(org, '?action=organization.settings-changed')).toHaveLength(1);
    // Requiring two-factor sign-in without having it is refused: nothing recorded.
    const refused = await ctx.call(org.owner.jar, 'PUT', '/api/organization/security', {
      requireTwoFactor: true,
    });
    expect(refused.status).toBe(409);
    expect(await entries(org, '?action=organization.settings-changed')).toHaveLength(1);
    await expectIntact(org);
  });

  it('records SAML saved, a domain verified, sign-in switched on, and an admin signing in through it', async () => {
    const keys = testIdpKeys();
    const domain = uniqueDomain();
    const org = await newOrganization({ email: `owner@${domain}` });
    const saved = await ctx.call(org.owner.jar, 'PUT', '/api/organization/saml', {
      metadataXml: idpMetadata({
        entityId: 'https://idp.audit.example/saml',
        ssoUrl: 'https://idp.audit.example/sso',
        certificate: keys.certificate,
      }),
      domains: domain,
      allowIdpInitiated: false,
    });
    expect(saved.status, await saved.clone().text()).toBe(200);
    const sp = await json<SamlSettings>(saved);
    expect(await latest(org, 'sso.configured')).toMatchObject({
      changes: {
        protocol: 'SAML',
        identityProvider: 'https://idp.audit.example/saml',
        providerChanged: true,
        domains: { before: [], after: [domain] },
      },
    });
    // The risky switch, sign-in started at the identity provider, says when it went on.
    const idpInitiated = await ctx.call(org.owner.jar, 'PUT', '/api/organization/saml', {
      metadataXml: '',
      metadataUrl: '',
      domains: domain,
      allowIdpInitiated: true,
    });
    expect(idpInitiated.status, await idpInitiated.clone().text()).toBe(200);
    expect(await latest(org, 'sso.configured')).toMatchObject({
      changes: { providerChanged: false, allowIdpInitiated: { before: false, after: true } },
    });
    await verifySsoDomain(ctx, org.owner, dns, domain);
    expect(await latest(org, 'sso.domain-verified')).toMatchObject({
      targetType: 'domain',
      targetLabel: domain,
    });

    const test = await ctx.call(org.owner.jar, 'POST', '/api/organization/sso/test');
    const fields = (inResponseTo: string) => ({
      issuer: 'https://idp.audit.example/saml',
      audience: sp.spEntityId,
      acsUrl: sp.spAcsUrl,
      email: `owner@${domain}`,
      inResponseTo,
    });
    const acs = (id: string) =>
      ctx.app.request(new URL(sp.spAcsUrl).pathname, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://idp.audit.example' },
        body: new URLSearchParams({
          SAMLResponse: base64(signAssertion(responseXml(fields(id)), keys)),
        }).toString(),
      });
    await acs(authnRequestId((await json<{ url: string }>(test)).url));
    const on = await ctx.call(org.owner.jar, 'PUT', '/api/organization/sso/switch', {
      enabled: true,
      required: false,
    });
    expect(on.status, await on.clone().text()).toBe(200);
    expect(await latest(org, 'organization.settings-changed')).toMatchObject({
      changes: { singleSignOn: { enabled: { before: false, after: true } } },
    });

    // The owner's password account signs in through SAML only once linked (decision 0016): a refused sign-in
    // records nothing; once linked, the sign-in through the identity provider is recorded as such.
    const startSignIn = async () => {
      const started = await ctx.request('POST', '/api/login/sso', { body: { email: `owner@${domain}` } });
      return authnRequestId((await json<{ url: string }>(started)).url);
    };
    const refusedSignIn = await acs(await startSignIn());
    expect(refusedSignIn.headers.get('location')).toContain('sso_error=account_exists');
    expect(await entries(org, '?action=admin.signed-in')).toEqual([]);
    const link = await ctx.call(org.owner.jar, 'POST', '/api/account/sso-link', {
      confirm: { method: 'password', password: org.owner.password },
    });
    expect(link.status, await link.clone().text()).toBe(200);
    await acs(authnRequestId((await json<{ url: string }>(link)).url));
    const signedIn = await acs(await startSignIn());
    expect(signedIn.headers.getSetCookie().some((cookie) => cookie.includes('session_token'))).toBe(true);
    expect(await latest(org, 'admin.signed-in')).toMatchObject({
      actorId: org.owner.userId,
      changes: { method: 'single sign-on' },
    });
    await expectIntact(org);
  });

  it('records the SCIM token and every provisioning change with the SCIM token as the actor', async () => {
    const domain = uniqueDomain();
    const org = await newOrganization({ email: `owner@${domain}` });
    await ctx.call(org.owner.jar, 'PUT', '/api/organization/saml', {
      metadataXml: idpMetadata({
        entityId: 'https://idp.scim.example/saml',
        ssoUrl: 'https://idp.scim.example/sso',
        certificate: testIdpKeys().certificate,
      }),
      domains: domain,
      allowIdpInitiated: false,
    });
    await verifySsoDomain(ctx, org.owner, dns, domain);
    const created = await json<CreatedScimToken>(
      await ctx.call(org.owner.jar, 'POST', '/api/organization/scim/token'),
    );
    expect(await latest(org, 'scim.token-created')).toMatchObject({ changes: { rotated: false } });
    const rotated = await json<CreatedScimToken>(
      await ctx.call(org.owner.jar, 'POST', '/api/organization/scim/token'),
    );
    expect(await latest(org, 'scim.token-created')).toMatchObject({ changes: { rotated: true } });
    // No entry ever holds the token.
    const all = JSON.stringify(await entries(org));
    expect(all).not.toContain(created.secret);
    expect(all).not.toContain(rotated.secret);

    const scim = (method: string, path: string, body?: unknown) =>
      ctx.app.request(`/scim/v2${path}`, {
        method,
        headers: { authorization: `Bearer ${rotated.secret}`, 'content-type': 'application/scim+json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const user = await scim('POST', '/Users', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: `ada@${domain}`,
      name: { givenName: 'Ada', familyName: 'Lovelace' },
      active: true,
    });
    expect(user.status).toBe(201);
    const { id } = (await user.json()) as { id: string };
    const provisioned = await latest(org, 'scim.user-provisioned');
    expect(provisioned).toMatchObject({
      actorKind: 'scim-token',
      actorId: null,
      actorLabel: 'SCIM token',
      targetLabel: `ada@${domain}`,
      changes: { active: true, account: 'account created' },
    });
    expect(provisioned!.ip).toBeTruthy();
    const patch = (operations: unknown[]) =>
      scim('PATCH', `/Users/${id}`, {
        schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
        Operations: operations,
      });
    expect((await patch([{ op: 'replace', value: { 'name.givenName': 'Augusta' } }])).status).toBe(200);
    expect(await latest(org, 'scim.user-changed')).toMatchObject({
      changes: { givenName: { before: 'Ada', after: 'Augusta' } },
    });
    expect((await patch([{ op: 'replace', value: { active: false } }])).status).toBe(200);
    expect(await latest(org, 'scim.user-deactivated')).toMatchObject({ targetLabel: `ada@${domain}` });
    expect((await patch([{ op: 'replace', value: { active: true } }])).status).toBe(200);
    expect(await latest(org, 'scim.user-reactivated')).toBeDefined();

    const group = await scim('POST', '/Groups', {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'],
      displayName: 'Provisioned Team',
      members: [{ value: id }],
    });
    expect(group.status).toBe(201);
    expect(await latest(org, 'scim.group-changed')).toMatchObject({
      targetLabel: 'Provisioned Team',
      changes: { created: true, added: [`ada@${domain}`] },
    });
    expect((await scim('DELETE', `/Users/${id}`)).status).toBe(204);
    expect(await latest(org, 'scim.user-removed')).toMatchObject({ targetLabel: `ada@${domain}` });
    await expectIntact(org);
  });

  it('records API tokens and webhooks without their secrets or a webhook URL’s path', async () => {
    const org = await newOrganization();
    const token = await ctx.call(org.owner.jar, 'POST', '/api/organization/api-tokens', {
      name: 'Reporting',
      scopes: ['insights:read'],
      expiresInDays: 30,
    });
    const made = await json<{ token: { id: string }; secret: string }>(token);
    expect(await latest(org, 'api-token.created')).toMatchObject({
      targetType: 'organization api-token',
      targetLabel: 'Reporting',
      changes: { scopes: ['insights:read'], expiresInDays: 30 },
    });
    const personal = await json<{ token: { id: string }; secret: string }>(
      await ctx.call(org.owner.jar, 'POST', '/api/account/api-tokens', {
        name: 'My script',
        scopes: ['results:read'],
        expiresInDays: null,
      }),
    );
    expect(await latest(org, 'api-token.created')).toMatchObject({
      targetType: 'personal api-token',
      targetLabel: 'My script',
    });
    await ctx.call(org.owner.jar, 'DELETE', `/api/account/api-tokens/${personal.token.id}`);
    await ctx.call(org.owner.jar, 'DELETE', `/api/organization/api-tokens/${made.token.id}`);
    expect((await entries(org, '?action=api-token.revoked')).map((e) => e.targetLabel)).toEqual([
      'Reporting',
      'My script',
    ]);
    // Revoking what is not there records nothing.
    expect(
      (await ctx.call(org.owner.jar, 'DELETE', `/api/organization/api-tokens/${made.token.id}`)).status,
    ).toBe(404);
    expect(await entries(org, '?action=api-token.revoked')).toHaveLength(2);

    const secretPath = '/services/T000/B000/very-secret-path';
    const webhook = await ctx.call(
      org.owner.jar,
      'POST',
      `/api/workspaces/${org.owner.workspaceId}/webhooks`,
      {
        url: `https://hooks.example.com${secretPath}`,
        events: ['health_check.launched'],
      },
    );
    expect(webhook.status, await webhook.clone().text()).toBe(201);
    const { webhook: hook, secret } = await json<{ webhook: { id: string }; secret: string }>(webhook);
    await ctx.call(org.owner.jar, 'PATCH', `/api/webhooks/${hook.id}`, { paused: true });
    await ctx.call(org.owner.jar, 'PATCH', `/api/webhooks/${hook.id}`, {
      url: `https://hooks.example.com${secretPath}-2`,
    });
    await ctx.call(org.owner.jar, 'DELETE', `/api/webhooks/${hook.id}`);
    const hooks = (await entries(org)).filter((e) => e.action.startsWith('webhook.'));
    expect(hooks.map((e) => [e.action, e.targetLabel, e.changes])).toEqual([
      ['webhook.deleted', 'hooks.example.com', null],
      ['webhook.changed', 'hooks.example.com', { url: 'changed' }],
      ['webhook.changed', 'hooks.example.com', { paused: { before: false, after: true } }],
      ['webhook.created', 'hooks.example.com', { events: ['health_check.launched'] }],
    ]);
    const all = JSON.stringify(await entries(org));
    for (const hidden of [secretPath, secret, made.secret, personal.secret])
      expect(all).not.toContain(hidden);
    await expectIntact(org);
  });

  it("records the workspace's tracker connected, changed and disconnected, never its token or secret", async () => {
    const org = await newOrganization();
    const token = 'github_pat_11AUDIT0good';
    github.tokens.set(token, 'octo-audit');
    const path = `/api/workspaces/${org.owner.workspaceId}/tracker-connection`;
    const refused = await ctx.call(org.owner.jar, 'PUT', path, {
      kind: 'github',
      baseUrl: github.origin,
      token: 'github_pat_wrong',
    });
    expect(refused.status).toBe(400);
    const connected = await ctx.call(org.owner.jar, 'PUT', path, {
      kind: 'github',
      baseUrl: github.origin,
      token,
    });
    expect(connected.status, await connected.clone().text()).toBe(200);
    const { webhookSecret } = await json<{ webhookSecret: string }>(connected);
    expect((await ctx.call(org.owner.jar, 'PATCH', path, { closeMarksDone: false })).status).toBe(200);
    expect((await ctx.call(org.owner.jar, 'DELETE', path)).status).toBe(200);
    const trackers = (await entries(org)).filter((e) => e.action.startsWith('tracker.'));
    const server = new URL(github.origin).host;
    expect(trackers.map((e) => [e.action, e.targetType, e.changes])).toEqual([
      ['tracker.disconnected', 'workspace', { tracker: 'GitHub', server }],
      ['tracker.changed', 'workspace', { tracker: 'GitHub', closeMarksDone: { before: true, after: false } }],
      [
        'tracker.connected',
        'workspace',
        { tracker: 'GitHub', server, account: 'octo-audit', closeMarksDone: { before: null, after: true } },
      ],
    ]);
    const all = JSON.stringify(await entries(org));
    expect(all).not.toContain(token);
    expect(all).not.toContain(webhookSecret);
    await expectIntact(org);
  });

  it("records admins' sign-ins and failed ones, not other people's, and the hand-over and a deleted account", async () => {
    const org = await newOrganization();
    const member = await addMember(ctx, org.owner, { fullName: 'Mia Member' });
    const heir = await addMember(ctx, org.owner, { admin: true, fullName: 'Hana Heir' });
    await signIn(ctx, org.owner.email, org.owner.password);
    expect(await latest(org, 'admin.signed-in')).toMatchObject({
      actorId: org.owner.userId,
      actorLabel: org.owner.email,
      changes: { method: 'password' },
    });
    const wrong = await ctx.request('POST', '/api/login', {
      body: { email: org.owner.email.toUpperCase(), password: 'not-it', rememberMe: false },
    });
    expect(wrong.status).toBe(401);
    expect(await latest(org, 'admin.sign-in-failed')).toMatchObject({
      actorId: null,
      actorLabel: org.owner.email,
      targetLabel: org.owner.email,
      changes: { method: 'password' },
    });
    const before = (await entries(org)).length;
    // A member's sign-ins, right or wrong, and addresses without an account are not the audit log's business.
    await signIn(ctx, member.email, member.password);
    await ctx.request('POST', '/api/login', {
      body: { email: member.email, password: 'nope', rememberMe: false },
    });
    await ctx.request('POST', '/api/login', {
      body: { email: 'nobody@example.com', password: 'nope', rememberMe: false },
    });
    expect((await entries(org)).length).toBe(before);

    // Appointing an organisation admin, and removing one; saying it twice records it once.
    const appoint = (organizationAdmin: boolean) =>
      ctx.call(
        org.owner.jar,
        'PUT',
        `/api/workspaces/${org.owner.workspaceId}/members/${heir.memberId}/organization-admin`,
        { organizationAdmin },
      );
    for (const on of [true, true, false, true]) expect((await appoint(on)).status).toBe(200);
    expect(
      (await entries(org))
        .filter((e) => e.action.startsWith('organization.admin-'))
        .map((e) => [e.action, e.targetLabel]),
    ).toEqual([
      ['organization.admin-appointed', heir.email],
      ['organization.admin-removed', heir.email],
      ['organization.admin-appointed', heir.email],
    ]);
    // An organisation admin removed from their last workspace loses the role: that is recorded too.
    const leaving = await addMember(ctx, org.owner, { fullName: 'Lee Leaving' });
    await ctx.call(
      org.owner.jar,
      'PUT',
      `/api/workspaces/${org.owner.workspaceId}/members/${leaving.memberId}/organization-admin`,
      { organizationAdmin: true },
    );
    const removed = await ctx.call(
      org.owner.jar,
      'DELETE',
      `/api/workspaces/${org.owner.workspaceId}/members/${leaving.memberId}`,
    );
    expect(removed.status).toBe(200);
    expect(await latest(org, 'organization.admin-removed')).toMatchObject({
      targetLabel: leaving.email,
      changes: { reason: 'no longer in any of its workspaces' },
    });

    const handed = await ctx.call(
      org.owner.jar,
      'POST',
      `/api/organizations/${org.organizationId}/transfer`,
      {
        newOwnerId: heir.userId,
        confirm: { method: 'password', password: org.owner.password },
      },
    );
    expect(handed.status, await handed.clone().text()).toBe(200);
    const heirOrg = { owner: { ...org.owner, jar: heir.jar }, organizationId: org.organizationId };
    expect(await latest(heirOrg, 'organization.handed-over')).toMatchObject({
      actorLabel: org.owner.email,
      changes: { owner: { before: org.owner.email, after: heir.email } },
    });
    const gone = await ctx.call(member.jar, 'POST', '/api/account/delete', {
      confirm: { method: 'password', password: member.password },
    });
    expect(gone.status, await gone.clone().text()).toBe(200);
    expect(await latest(heirOrg, 'account.deleted')).toMatchObject({
      actorLabel: member.email,
      targetLabel: member.email,
    });
    await expectIntact(heirOrg);
    // Nothing in the log can be tied to an answer: no entry is about a health check's ratings or comments.
    const [count] = await queryRows<{ n: number }>(
      ctx.deps.db,
      sql`select count(*)::int as n from audit_entries where organization_id = ${org.organizationId}
            and (changes ilike '%rating%' or changes ilike '%comment%')`,
    );
    expect(count!.n).toBe(0);
  });
});
