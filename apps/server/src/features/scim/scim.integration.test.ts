import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { SCIM_SCHEMAS, type CreatedScimToken, type ScimSettings } from '@pulsecheck/shared/scim/rules';
import { organizationRoleSql } from '../../auth/access';
import { queryRows } from '../../db/client';
import { createAdmin, signedInUser, type Admin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { createCheck, participantRows } from '../../test/health-checks';
import { json } from '../../test/requests';
import { uniqueDomain } from '../../test/security';
import { unique } from '../../test/unique';
import { participants } from '../../db/schema/health-checks';

/**
 * SCIM 2.0 provisioning (issue 37 item 2): the request sequences Okta's and Microsoft Entra ID's SCIM
 * documentation publish, a compliance pass over every endpoint, and the safety rules (another organisation's
 * people and workspaces, existing accounts, unverified domains, deactivation and what it keeps).
 */

const ctx = useTestContext();

type Org = { admin: Admin; organizationId: string; domain: string; token: string };
type ScimUser = {
  id: string;
  userName: string;
  active: boolean;
  externalId?: string;
  name: { givenName?: string; familyName?: string; formatted: string };
  displayName: string;
  emails: { value: string; type?: string; primary?: boolean }[];
  groups: { value: string; display: string }[];
  meta: { resourceType: string; location: string; created: string; lastModified: string };
};
type ScimGroup = { id: string; displayName: string; members?: { value: string; display: string }[] };
type ListResponse<T> = {
  schemas: string[];
  totalResults: number;
  startIndex: number;
  itemsPerPage: number;
  Resources: T[];
};
type ScimErrorBody = { schemas: string[]; status: string; scimType?: string; detail: string };

/** Marks a domain of the organisation verified, as 'Verify domain' does once DNS shows the record (decision 0016). */
async function verifiedDomain(organizationId: string, domain: string, status = 'verified') {
  const providerId = `org-${organizationId}`;
  await ctx.deps.db.execute(
    sql`insert into sso_provider (id, issuer, provider_id, organization_id, domain)
        values (${providerId}, 'https://idp.example.test', ${providerId}, ${organizationId}, ${domain})
        on conflict (provider_id) do nothing`,
  );
  await ctx.deps.db.execute(
    sql`insert into organization_sso (organization_id, provider_id) values (${organizationId}, ${providerId})
        on conflict (organization_id) do nothing`,
  );
  await ctx.deps.db.execute(
    sql`insert into sso_domains (domain, organization_id, token, status)
        values (${domain}, ${organizationId}, ${unique('t')}, ${status})`,
  );
}

async function createToken(admin: Admin) {
  const response = await ctx.call(admin.jar, 'POST', '/api/organization/scim/token');
  expect(response.status, await response.clone().text()).toBe(200);
  return json<CreatedScimToken>(response);
}

async function organization(): Promise<Org> {
  const admin = await createAdmin(ctx);
  const [row] = await queryRows<{ organization_id: string }>(
    ctx.deps.db,
    sql`select organization_id from workspaces where id = ${admin.workspaceId}`,
  );
  const organizationId = row!.organization_id;
  const domain = uniqueDomain();
  await verifiedDomain(organizationId, domain);
  return { admin, organizationId, domain, token: (await createToken(admin)).secret };
}

const scim = (token: string, method: string, path: string, body?: unknown, raw?: string) =>
  ctx.app.request(`/scim/v2${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined || raw !== undefined ? { 'content-type': 'application/scim+json' } : {}),
    },
    body: raw ?? (body !== undefined ? JSON.stringify(body) : undefined),
  });

async function expectScimError(response: Response, status: number, scimType?: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/scim\+json/);
  const body = await json<ScimErrorBody>(response);
  expect(body.schemas).toEqual([SCIM_SCHEMAS.error]);
  expect(body.status).toBe(String(status));
  if (scimType) expect(body.scimType).toBe(scimType);
  expect(body.detail.length).toBeGreaterThan(0);
  // Words, never a catalogue key (decision 0027).
  expect(body.detail).not.toMatch(/^[a-zA-Z]+\.[\w.]+$/);
  return body;
}

const filterPath = (resource: string, filter: string, extra = '') =>
  `/${resource}?filter=${encodeURIComponent(filter)}${extra}`;

async function statusOf(userName: string) {
  return queryRows<{ status: string; workspace_id: string }>(
    ctx.deps.db,
    sql`select m.status, m.workspace_id from workspace_members m join "user" u on u.id = m.user_id
        where u.email = ${userName.toLowerCase()} order by m.workspace_id`,
  );
}

const userIdOf = async (email: string) =>
  (
    await queryRows<{ id: string }>(
      ctx.deps.db,
      sql`select id from "user" where email = ${email.toLowerCase()}`,
    )
  )[0]?.id;

let a: Org;
let b: Org;
beforeAll(async () => {
  a = await organization();
  b = await organization();
});

describe("Okta's SCIM 2.0 test sequence", () => {
  it('looks the user up, creates, reads, replaces and deactivates them, then reactivates', async () => {
    const userName = `${unique('okta')}@${a.domain}`;
    // 1. Does the user exist? (GET /Users?filter=userName eq "…"&startIndex=1&count=100)
    const lookup = await scim(
      a.token,
      'GET',
      filterPath('Users', `userName eq "${userName}"`, '&startIndex=1&count=100'),
    );
    expect(lookup.status).toBe(200);
    expect(lookup.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    expect(await json<ListResponse<ScimUser>>(lookup)).toEqual({
      schemas: [SCIM_SCHEMAS.listResponse],
      totalResults: 0,
      startIndex: 1,
      itemsPerPage: 0,
      Resources: [],
    });
    // 2. Create (Okta sends the password and locale too; we keep neither).
    const created = await scim(a.token, 'POST', '/Users', {
      schemas: [SCIM_SCHEMAS.user],
      userName,
      name: { givenName: 'Ola', familyName: 'Okta' },
      emails: [{ primary: true, value: userName, type: 'work' }],
      displayName: 'Ola Okta',
      locale: 'en-US',
      externalId: '00ujl29u0le5T6Aj10h7',
      groups: [],
      password: '1mz050nq',
      active: true,
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const user = await json<ScimUser>(created);
    expect(created.headers.get('location')).toBe(user.meta.location);
    expect(user.meta.location).toBe(`${ctx.deps.config.appUrl}/scim/v2/Users/${user.id}`);
    expect(user).toMatchObject({
      userName: userName.toLowerCase(),
      active: true,
      externalId: '00ujl29u0le5T6Aj10h7',
      name: { givenName: 'Ola', familyName: 'Okta', formatted: 'Ola Okta' },
      displayName: 'Ola Okta',
      meta: { resourceType: 'User' },
    });
    // The account has no password: it signs in through the organisation's SSO (a binding row of its provider).
    const accounts = await queryRows<{ provider_id: string }>(
      ctx.deps.db,
      sql`select a.provider_id from account a join "user" u on u.id = a.user_id where u.email = ${userName}`,
    );
    expect(accounts.map((row) => row.provider_id)).toEqual([`org-${a.organizationId}`]);
    expect((await statusOf(userName)).map((row) => row.status)).toEqual(['active']);
    // 3. Read it back, and find it by the filter (case-insensitive, RFC 7643 2.2).
    const read = await json<ScimUser>(await scim(a.token, 'GET', `/Users/${user.id}`));
    expect(read).toEqual(user);
    const found = await json<ListResponse<ScimUser>>(
      await scim(a.token, 'GET', filterPath('Users', `userName eq "${userName.toUpperCase()}"`)),
    );
    expect(found.totalResults).toBe(1);
    expect(found.Resources[0]!.id).toBe(user.id);
    // 4. A user that does not exist is an empty list, not an error.
    const none = await json<ListResponse<ScimUser>>(
      await scim(a.token, 'GET', filterPath('Users', `userName eq "${unique('nobody')}@${a.domain}"`)),
    );
    expect(none.totalResults).toBe(0);
    // 5. Replace (PUT) with a new given name.
    const replaced = await scim(a.token, 'PUT', `/Users/${user.id}`, {
      schemas: [SCIM_SCHEMAS.user],
      id: user.id,
      userName,
      name: { givenName: 'Olga', familyName: 'Okta' },
      emails: [{ primary: true, value: userName, type: 'work' }],
      active: true,
    });
    expect(replaced.status).toBe(200);
    expect(await json<ScimUser>(replaced)).toMatchObject({
      name: { givenName: 'Olga' },
      displayName: 'Olga Okta',
    });
    // 6. Deactivate: PATCH replace with value { active: false } (Okta's form, no path).
    const deactivated = await scim(a.token, 'PATCH', `/Users/${user.id}`, {
      schemas: [SCIM_SCHEMAS.patchOp],
      Operations: [{ op: 'replace', value: { active: false } }],
    });
    expect(deactivated.status).toBe(200);
    expect((await json<ScimUser>(deactivated)).active).toBe(false);
    expect((await statusOf(userName)).map((row) => row.status)).toEqual(['suspended']);
    // Okta reads it again and sees it inactive; the binding of the organisation's SSO is gone.
    expect((await json<ScimUser>(await scim(a.token, 'GET', `/Users/${user.id}`))).active).toBe(false);
    const bindings = await queryRows<{ n: number }>(
      ctx.deps.db,
      sql`select count(*)::int as n from account a join "user" u on u.id = a.user_id where u.email = ${userName}`,
    );
    expect(bindings[0]!.n).toBe(0);
    // 7. Reactivate: the same membership is active again, and SSO may sign them in again.
    const reactivated = await scim(a.token, 'PATCH', `/Users/${user.id}`, {
      schemas: [SCIM_SCHEMAS.patchOp],
      Operations: [{ op: 'replace', value: { active: true } }],
    });
    expect((await json<ScimUser>(reactivated)).active).toBe(true);
    expect((await statusOf(userName)).map((row) => row.status)).toEqual(['active']);
    // 8. Creating the same userName again is a uniqueness conflict.
    const again = await scim(a.token, 'POST', '/Users', { schemas: [SCIM_SCHEMAS.user], userName });
    await expectScimError(again, 409, 'uniqueness');
  });
});

describe("Microsoft Entra ID's SCIM sequence", () => {
  it('filters, creates, patches with replace ops (path and no path), disables with "False", deletes', async () => {
    const userName = `Test_User_${unique('entra')}@${a.domain}`;
    const lookup = await json<ListResponse<ScimUser>>(
      await scim(a.token, 'GET', filterPath('Users', `userName eq "${userName}"`)),
    );
    expect(lookup.totalResults).toBe(0);
    const created = await scim(a.token, 'POST', '/Users', {
      schemas: [SCIM_SCHEMAS.user, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
      externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
      userName,
      active: true,
      emails: [{ primary: true, type: 'work', value: userName }],
      meta: { resourceType: 'User' },
      name: { formatted: 'givenName familyName', familyName: 'familyName', givenName: 'givenName' },
      roles: [],
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const user = await json<ScimUser>(created);
    // Entra also looks people up by externalId.
    const byExternal = await json<ListResponse<ScimUser>>(
      await scim(a.token, 'GET', filterPath('Users', 'externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"')),
    );
    expect(byExternal.Resources.map((r) => r.id)).toEqual([user.id]);
    // Replace ops with a path, as Entra sends them (capitalised op names).
    const workEmail = `updated.${unique('mail')}@${a.domain}`;
    const patched = await scim(a.token, 'PATCH', `/Users/${user.id}`, {
      schemas: [SCIM_SCHEMAS.patchOp],
      Operations: [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: workEmail },
        { op: 'Replace', path: 'name.familyName', value: 'updatedFamilyName' },
        { op: 'Add', path: 'name.givenName', value: 'updatedGivenName' },
        {
          op: 'Replace',
          path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department',
          value: 'R&D',
        },
        { op: 'Add', path: 'title', value: 'Engineer' },
      ],
    });
    expect(patched.status, await patched.clone().text()).toBe(200);
    expect(await json<ScimUser>(patched)).toMatchObject({
      name: { givenName: 'updatedGivenName', familyName: 'updatedFamilyName' },
      emails: [{ value: workEmail, type: 'work', primary: true }],
      userName: userName.toLowerCase(),
    });
    // Replace without a path: attribute paths as keys of the value.
    const noPath = await scim(a.token, 'PATCH', `/Users/${user.id}`, {
      schemas: [SCIM_SCHEMAS.patchOp],
      Operations: [{ op: 'Replace', value: { displayName: 'Entra Person', 'name.givenName': 'Eve' } }],
    });
    expect(await json<ScimUser>(noPath)).toMatchObject({
      displayName: 'Entra Person',
      name: { givenName: 'Eve' },
    });
    const [account] = await queryRows<{ name: string }>(
      ctx.deps.db,
      sql`select name from "user" where email = ${userName.toLowerCase()}`,
    );
    expect(account!.name).toBe('Entra Person');
    // Disable: Entra sends the boolean as the string "False".
    const disabled = await scim(a.token, 'PATCH', `/Users/${user.id}`, {
      schemas: [SCIM_SCHEMAS.patchOp],
      Operations: [{ op: 'Replace', path: 'active', value: 'False' }],
    });
    expect((await json<ScimUser>(disabled)).active).toBe(false);
    expect((await statusOf(userName)).map((row) => row.status)).toEqual(['suspended']);
    const enabled = await scim(a.token, 'PATCH', `/Users/${user.id}`, {
      schemas: [SCIM_SCHEMAS.patchOp],
      Operations: [{ op: 'Replace', path: 'active', value: 'True' }],
    });
    expect((await json<ScimUser>(enabled)).active).toBe(true);
    const deleted = await scim(a.token, 'DELETE', `/Users/${user.id}`);
    expect(deleted.status).toBe(204);
    await expectScimError(await scim(a.token, 'GET', `/Users/${user.id}`), 404);
    // The person left the organisation's workspaces; the account stays theirs.
    expect(await statusOf(userName)).toEqual([]);
    expect(await userIdOf(userName)).toBeDefined();
  });

  it('creates a group (a workspace), finds it by displayName, renames it, adds and removes members', async () => {
    const member = await json<ScimUser>(
      await scim(a.token, 'POST', '/Users', {
        schemas: [SCIM_SCHEMAS.user],
        userName: `${unique('grp')}@${a.domain}`,
        active: true,
      }),
    );
    const displayName = `Group ${unique('g')}`;
    const created = await scim(a.token, 'POST', '/Groups', {
      schemas: [SCIM_SCHEMAS.group],
      externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159',
      displayName,
      meta: { resourceType: 'Group' },
      members: [],
    });
    expect(created.status, await created.clone().text()).toBe(201);
    const group = await json<ScimGroup & { meta: { location: string } }>(created);
    expect(created.headers.get('location')).toBe(group.meta.location);
    const [workspace] = await queryRows<{ name: string; organization_id: string; admins: string[] }>(
      ctx.deps.db,
      sql`select w.name, w.organization_id,
                 array(select user_id from workspace_members where workspace_id = w.id and access = 'admin') as admins
          from workspaces w where w.id = ${group.id}`,
    );
    expect(workspace).toEqual({
      name: displayName,
      organization_id: a.organizationId,
      admins: [a.admin.userId],
    });
    // Entra: GET /Groups?excludedAttributes=members&filter=displayName eq "…"
    const found = await json<ListResponse<ScimGroup>>(
      await scim(
        a.token,
        'GET',
        filterPath('Groups', `displayName eq "${displayName}"`, '&excludedAttributes=members'),
      ),
    );
    expect(found.totalResults).toBe(1);
    expect(found.Resources[0]).not.toHaveProperty('members');
    const renamed = `Renamed ${unique('g')}`;
    const rename = await scim(a.token, 'PATCH', `/Groups/${group.id}`, {
      schemas: [SCIM_SCHEMAS.patchOp],
      Operations: [{ op: 'Replace', path: 'displayName', value: renamed }],
    });
    expect(rename.status).toBe(204);
    const add = await scim(a.token, 'PATCH', `/Groups/${group.id}`, {
      schemas: [SCIM_SCHEMAS.patchOp],
      Operations: [{ op: 'Add', path: 'members', value: [{ $ref: null, value: member.id }] }],
    });
    expect(add.status, await add.clone().text()).toBe(204);
    const read = await json<ScimGroup>(await scim(a.token, 'GET', `/Groups/${group.id}`));
    expect(read.displayName).toBe(renamed);
    expect(read.members?.map((m) => m.value)).toEqual([member.id]);
    expect(
      (await json<ScimUser>(await scim(a.token, 'GET', `/Users/${member.id}`))).groups.map((g) => g.value),
    ).toContain(group.id);
    const remove = await scim(a.token, 'PATCH', `/Groups/${group.id}`, {
      schemas: [SCIM_SCHEMAS.patchOp],
      Operations: [{ op: 'Remove', path: 'members', value: [{ value: member.id }] }],
    });
    expect(remove.status).toBe(204);
    expect((await json<ScimGroup>(await scim(a.token, 'GET', `/Groups/${group.id}`))).members).toEqual([]);
    // Okta's form: remove by a filter path, and rename with a value object.
    await scim(a.token, 'PATCH', `/Groups/${group.id}`, {
      schemas: [SCIM_SCHEMAS.patchOp],
      Operations: [{ op: 'add', path: 'members', value: [{ value: member.id, display: 'x' }] }],
    });
    const oktaRemove = await scim(a.token, 'PATCH', `/Groups/${group.id}`, {
      schemas: [SCIM_SCHEMAS.patchOp],
      Operations: [
        { op: 'remove', path: `members[value eq "${member.id}"]` },
        { op: 'replace', value: { id: group.id, displayName: `${renamed} 2` } },
      ],
    });
    expect(oktaRemove.status).toBe(204);
    expect(await json<ScimGroup>(await scim(a.token, 'GET', `/Groups/${group.id}`))).toMatchObject({
      displayName: `${renamed} 2`,
      members: [],
    });
    // PUT replaces the name and the provisioned members (people who are not provisioned stay: the owner).
    const put = await scim(a.token, 'PUT', `/Groups/${group.id}`, {
      schemas: [SCIM_SCHEMAS.group],
      displayName: `${renamed} 3`,
      members: [{ value: member.id }],
    });
    expect(put.status).toBe(200);
    expect(await json<ScimGroup>(put)).toMatchObject({
      displayName: `${renamed} 3`,
      members: [{ value: member.id }],
    });
    const emptied = await scim(a.token, 'PUT', `/Groups/${group.id}`, {
      schemas: [SCIM_SCHEMAS.group],
      displayName: `${renamed} 2`,
      members: [],
    });
    expect((await json<ScimGroup>(emptied)).members).toEqual([]);
    const [owner] = await queryRows<{ access: string }>(
      ctx.deps.db,
      sql`select access from workspace_members where workspace_id = ${group.id} and user_id = ${a.admin.userId}`,
    );
    expect(owner).toEqual({ access: 'admin' });
    await expectScimError(
      await scim(a.token, 'PUT', `/Groups/${group.id}`, { schemas: [SCIM_SCHEMAS.group], displayName: ' ' }),
      400,
      'invalidValue',
    );
    // Two groups with one name are refused.
    await expectScimError(
      await scim(a.token, 'POST', '/Groups', { schemas: [SCIM_SCHEMAS.group], displayName: `${renamed} 2` }),
      409,
      'uniqueness',
    );
    // A workspace is never deleted by provisioning.
    await expectScimError(await scim(a.token, 'DELETE', `/Groups/${group.id}`), 403);
  });
});

describe('compliance pass', () => {
  it('refuses requests without the organisation token, in the SCIM error format', async () => {
    for (const path of ['/Users', '/Groups', '/ServiceProviderConfig', '/Schemas', '/ResourceTypes']) {
      const anonymous = await ctx.app.request(`/scim/v2${path}`);
      await expectScimError(anonymous, 401);
      expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
      await expectScimError(await scim('pcscim_not-a-real-token', 'GET', path), 401);
    }
    // A session cookie is no SCIM credential, nor is an API token.
    const cookie = await ctx.app.request('/scim/v2/Users', { headers: a.admin.jar.header() });
    await expectScimError(cookie, 401);
  });

  it('answers the discovery endpoints', async () => {
    const config = await scim(a.token, 'GET', '/ServiceProviderConfig');
    expect(config.status).toBe(200);
    expect(config.headers.get('content-type')).toMatch(/^application\/scim\+json/);
    expect(await config.json()).toMatchObject({
      schemas: [SCIM_SCHEMAS.serviceProviderConfig],
      patch: { supported: true },
      bulk: { supported: false },
      filter: { supported: true, maxResults: 200 },
      changePassword: { supported: false },
      sort: { supported: false },
      etag: { supported: false },
      authenticationSchemes: [{ type: 'oauthbearertoken' }],
    });
    const types = await json<ListResponse<{ id: string; endpoint: string; schema: string }>>(
      await scim(a.token, 'GET', '/ResourceTypes'),
    );
    expect(types.totalResults).toBe(2);
    expect(types.Resources.map((t) => [t.id, t.endpoint, t.schema])).toEqual([
      ['User', '/Users', SCIM_SCHEMAS.user],
      ['Group', '/Groups', SCIM_SCHEMAS.group],
    ]);
    expect((await scim(a.token, 'GET', '/ResourceTypes/User')).status).toBe(200);
    await expectScimError(await scim(a.token, 'GET', '/ResourceTypes/Device'), 404);
    const schemas = await json<ListResponse<{ id: string; attributes: { name: string }[] }>>(
      await scim(a.token, 'GET', '/Schemas'),
    );
    expect(schemas.Resources.map((s) => s.id)).toEqual([SCIM_SCHEMAS.user, SCIM_SCHEMAS.group]);
    expect(schemas.Resources[0]!.attributes.map((attribute) => attribute.name)).toContain('userName');
    const userSchema = await scim(a.token, 'GET', `/Schemas/${SCIM_SCHEMAS.user}`);
    expect(userSchema.status).toBe(200);
    await expectScimError(await scim(a.token, 'GET', '/Schemas/urn:nothing'), 404);
    await expectScimError(await scim(a.token, 'GET', '/Bulk'), 404);
  });

  it('pages lists with startIndex and count and says the numbers', async () => {
    const org = await organization();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const response = await scim(org.token, 'POST', '/Users', {
        schemas: [SCIM_SCHEMAS.user],
        userName: `page${i}.${unique('p')}@${org.domain}`,
      });
      ids.push((await json<ScimUser>(response)).id);
    }
    const page = await json<ListResponse<ScimUser>>(
      await scim(org.token, 'GET', '/Users?startIndex=2&count=2'),
    );
    expect(page).toMatchObject({ totalResults: 5, startIndex: 2, itemsPerPage: 2 });
    expect(page.Resources.map((r) => r.id)).toEqual(ids.slice(1, 3));
    const last = await json<ListResponse<ScimUser>>(
      await scim(org.token, 'GET', '/Users?startIndex=5&count=10'),
    );
    expect(last).toMatchObject({ totalResults: 5, startIndex: 5, itemsPerPage: 1 });
    const beyond = await json<ListResponse<ScimUser>>(await scim(org.token, 'GET', '/Users?startIndex=9'));
    expect(beyond).toMatchObject({ totalResults: 5, itemsPerPage: 0, Resources: [] });
    const countOnly = await json<ListResponse<ScimUser>>(await scim(org.token, 'GET', '/Users?count=0'));
    expect(countOnly).toMatchObject({ totalResults: 5, itemsPerPage: 0, Resources: [] });
    const fromZero = await json<ListResponse<ScimUser>>(
      await scim(org.token, 'GET', '/Users?startIndex=0&count=1'),
    );
    expect(fromZero).toMatchObject({ startIndex: 1, itemsPerPage: 1 });
    await expectScimError(await scim(org.token, 'GET', '/Users?count=abc'), 400, 'invalidValue');
    const groups = await json<ListResponse<ScimGroup>>(await scim(org.token, 'GET', '/Groups?count=1'));
    expect(groups).toMatchObject({ totalResults: 1, itemsPerPage: 1, startIndex: 1 });
  });

  it('refuses what it does not support with the right status and scimType', async () => {
    await expectScimError(
      await scim(a.token, 'GET', filterPath('Users', 'name.givenName co "x"')),
      400,
      'invalidFilter',
    );
    await expectScimError(
      await scim(a.token, 'GET', filterPath('Users', 'userName eq "a" or userName eq "b"')),
      400,
      'invalidFilter',
    );
    await expectScimError(
      await scim(a.token, 'GET', filterPath('Groups', 'members eq "x"')),
      400,
      'invalidFilter',
    );
    await expectScimError(
      await scim(a.token, 'POST', '/Users', undefined, '{not json'),
      400,
      'invalidSyntax',
    );
    await expectScimError(
      await scim(a.token, 'POST', '/Users', { schemas: [SCIM_SCHEMAS.user] }),
      400,
      'invalidValue',
    );
    await expectScimError(
      await scim(a.token, 'POST', '/Users', { schemas: [SCIM_SCHEMAS.user], userName: 'not an address' }),
      400,
      'invalidValue',
    );
    const user = await json<ScimUser>(
      await scim(a.token, 'POST', '/Users', {
        schemas: [SCIM_SCHEMAS.user],
        userName: `${unique('c')}@${a.domain}`,
      }),
    );
    await expectScimError(
      await scim(a.token, 'PATCH', `/Users/${user.id}`, {
        schemas: [SCIM_SCHEMAS.patchOp],
        Operations: [{ op: 'move' }],
      }),
      400,
      'invalidSyntax',
    );
    await expectScimError(
      await scim(a.token, 'PATCH', `/Users/${user.id}`, {
        Operations: [{ op: 'replace', value: { active: false } }],
      }),
      400,
    );
    await expectScimError(
      await scim(a.token, 'PATCH', `/Users/${user.id}`, {
        schemas: [SCIM_SCHEMAS.patchOp],
        Operations: [{ op: 'replace', path: 'active', value: 'maybe' }],
      }),
      400,
      'invalidValue',
    );
    await expectScimError(
      await scim(a.token, 'PATCH', `/Users/${user.id}`, {
        schemas: [SCIM_SCHEMAS.patchOp],
        Operations: [{ op: 'remove', path: 'userName' }],
      }),
      400,
      'mutability',
    );
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-an-id']) {
      await expectScimError(await scim(a.token, 'GET', `/Users/${id}`), 404);
      await expectScimError(await scim(a.token, 'GET', `/Groups/${id}`), 404);
      await expectScimError(await scim(a.token, 'DELETE', `/Users/${id}`), 404);
    }
    await expectScimError(
      await scim(a.token, 'PATCH', `/Groups/${a.admin.workspaceId}`, {
        schemas: [SCIM_SCHEMAS.patchOp],
        Operations: [
          { op: 'add', path: 'members', value: [{ value: '00000000-0000-4000-8000-000000000000' }] },
        ],
      }),
      400,
      'invalidValue',
    );
  });

  it("says its details in English, or in the request's language when the identity provider sends one", async () => {
    const notJson = await expectScimError(await scim(a.token, 'POST', '/Users', undefined, '{'), 400);
    expect(notJson.detail).toBe('The request body is not valid JSON.');
    const german = await ctx.app.request('/scim/v2/Bulk', {
      headers: { authorization: `Bearer ${a.token}`, 'accept-language': 'de' },
    });
    expect((await expectScimError(german, 404)).detail).toBe('Diesen SCIM-Endpunkt gibt es nicht.');
    const count = await expectScimError(await scim(a.token, 'GET', '/Users?count=abc'), 400, 'invalidValue');
    expect(count.detail).toBe('Invalid value for count.');
  });
});

describe('safety', () => {
  it('creates people only at domains the organisation verified', async () => {
    const pending = uniqueDomain();
    await ctx.deps.db.execute(
      sql`insert into sso_domains (domain, organization_id, token, status)
          values (${pending}, ${a.organizationId}, ${unique('t')}, 'pending')`,
    );
    for (const userName of [`x@${pending}`, `y@${b.domain}`, `z@example.com`]) {
      const body = await expectScimError(
        await scim(a.token, 'POST', '/Users', { schemas: [SCIM_SCHEMAS.user], userName }),
        400,
        'invalidValue',
      );
      expect(body.detail).toContain('not verified by this organisation');
    }
    expect(await userIdOf(`x@${pending}`)).toBeUndefined();
  });

  it("never reaches another organisation's people or workspaces", async () => {
    const theirs = await json<ScimUser>(
      await scim(b.token, 'POST', '/Users', {
        schemas: [SCIM_SCHEMAS.user],
        userName: `${unique('b')}@${b.domain}`,
      }),
    );
    await expectScimError(await scim(a.token, 'GET', `/Users/${theirs.id}`), 404);
    await expectScimError(
      await scim(a.token, 'PATCH', `/Users/${theirs.id}`, {
        schemas: [SCIM_SCHEMAS.patchOp],
        Operations: [{ op: 'replace', path: 'active', value: false }],
      }),
      404,
    );
    await expectScimError(
      await scim(a.token, 'PUT', `/Users/${theirs.id}`, { userName: theirs.userName }),
      404,
    );
    await expectScimError(await scim(a.token, 'DELETE', `/Users/${theirs.id}`), 404);
    const listed = await json<ListResponse<ScimUser>>(
      await scim(a.token, 'GET', filterPath('Users', `userName eq "${theirs.userName}"`)),
    );
    expect(listed.totalResults).toBe(0);
    await expectScimError(await scim(a.token, 'GET', `/Groups/${b.admin.workspaceId}`), 404);
    await expectScimError(
      await scim(a.token, 'PATCH', `/Groups/${b.admin.workspaceId}`, {
        schemas: [SCIM_SCHEMAS.patchOp],
        Operations: [{ op: 'replace', path: 'displayName', value: 'Taken over' }],
      }),
      404,
    );
    // Their person cannot be put in our workspace either.
    await expectScimError(
      await scim(a.token, 'PATCH', `/Groups/${a.admin.workspaceId}`, {
        schemas: [SCIM_SCHEMAS.patchOp],
        Operations: [{ op: 'add', path: 'members', value: [{ value: theirs.id }] }],
      }),
      400,
      'invalidValue',
    );
    const groups = await json<ListResponse<ScimGroup>>(await scim(a.token, 'GET', '/Groups'));
    expect(groups.Resources.map((g) => g.id)).not.toContain(b.admin.workspaceId);
    expect((await json<ScimUser>(await scim(b.token, 'GET', `/Users/${theirs.id}`))).active).toBe(true);
  });

  it('links an existing account at a verified domain without taking it over', async () => {
    const email = `${unique('existing')}@${a.domain}`;
    const person = await signedInUser(ctx, { email, name: 'Existing Person' });
    const linked = await scim(a.token, 'POST', '/Users', {
      schemas: [SCIM_SCHEMAS.user],
      userName: email,
      name: { givenName: 'Renamed', familyName: 'ByIdp' },
    });
    expect(linked.status).toBe(201);
    const user = await json<ScimUser>(linked);
    // No SSO binding (decision 0016: an organisation's SSO never signs in an account it did not create), the
    // password stays, and the name the person chose stays.
    const rows = await queryRows<{ provider_id: string; name: string }>(
      ctx.deps.db,
      sql`select a.provider_id, u.name from account a join "user" u on u.id = a.user_id where u.id = ${person.userId}`,
    );
    expect(rows).toEqual([{ provider_id: 'credential', name: 'Existing Person' }]);
    // Its address cannot be changed (an address the organisation controls would let it reset the password).
    const moved = await scim(a.token, 'PATCH', `/Users/${user.id}`, {
      schemas: [SCIM_SCHEMAS.patchOp],
      Operations: [{ op: 'replace', path: 'userName', value: `admin.mailbox@${a.domain}` }],
    });
    await expectScimError(moved, 400, 'mutability');
    const [account] = await queryRows<{ email: string }>(
      ctx.deps.db,
      sql`select email from "user" where id = ${person.userId}`,
    );
    expect(account!.email).toBe(email);
    // 'Download my data' says what the organisation's identity provider keeps about them.
    const exported = await json<{ provisioning: { userName: string; givenName: string; active: boolean }[] }>(
      await ctx.call(person.jar, 'GET', '/api/account/export'),
    );
    expect(exported.provisioning).toEqual([
      expect.objectContaining({
        userName: email,
        givenName: 'Renamed',
        active: true,
        createdByProvisioning: false,
      }),
    ]);
  });

  it("refuses to deactivate or remove the organisation's owner", async () => {
    const owner = await scim(a.token, 'POST', '/Users', {
      schemas: [SCIM_SCHEMAS.user],
      userName: a.admin.email,
    });
    // The owner's address is at example.com, which the organisation has not verified: refused before anything.
    expect(owner.status).toBe(400);
    const org = await organization();
    await ctx.deps.db.execute(
      sql`update "user" set email = ${`owner.${unique('o')}@${org.domain}`} where id = ${org.admin.userId}`,
    );
    const [{ email }] = (await queryRows<{ email: string }>(
      ctx.deps.db,
      sql`select email from "user" where id = ${org.admin.userId}`,
    )) as [{ email: string }];
    const linked = await json<ScimUser>(
      await scim(org.token, 'POST', '/Users', { schemas: [SCIM_SCHEMAS.user], userName: email }),
    );
    await expectScimError(
      await scim(org.token, 'PATCH', `/Users/${linked.id}`, {
        schemas: [SCIM_SCHEMAS.patchOp],
        Operations: [{ op: 'replace', path: 'active', value: false }],
      }),
      403,
    );
    await expectScimError(await scim(org.token, 'DELETE', `/Users/${linked.id}`), 403);
    const status = await queryRows<{ status: string }>(
      ctx.deps.db,
      sql`select status from workspace_members where user_id = ${org.admin.userId}`,
    );
    expect(status.map((row) => row.status)).toEqual(['active']);
  });

  it('deactivation ends sessions and access but keeps answers; reactivation restores the same memberships', async () => {
    const email = `${unique('deact')}@${a.domain}`;
    const person = await signedInUser(ctx, { email, workspaceId: a.admin.workspaceId });
    await ctx.deps.db.execute(
      sql`insert into organization_admins (organization_id, user_id) values (${a.organizationId}, ${person.userId})`,
    );
    const role = async () =>
      (
        await queryRows<{ role: string | null }>(
          ctx.deps.db,
          sql`select ${organizationRoleSql(person.userId, a.organizationId)} as role`,
        )
      )[0]!.role;
    expect(await role()).toBe('admin');
    const check = await createCheck(ctx, { workspaceId: a.admin.workspaceId, userId: a.admin.userId });
    await ctx.deps.db
      .insert(participants)
      .values(participantRows(check.healthCheckId, [person.userId], 'completed'));
    const user = await json<ScimUser>(
      await scim(a.token, 'POST', '/Users', { schemas: [SCIM_SCHEMAS.user], userName: email }),
    );
    const [before] = await queryRows<{ id: string }>(
      ctx.deps.db,
      sql`select id from workspace_members where user_id = ${person.userId} and workspace_id = ${a.admin.workspaceId}`,
    );
    expect((await ctx.call(person.jar, 'GET', '/api/me')).status).toBe(200);
    await scim(a.token, 'PATCH', `/Users/${user.id}`, {
      schemas: [SCIM_SCHEMAS.patchOp],
      Operations: [{ op: 'replace', path: 'active', value: false }],
    });
    expect((await ctx.call(person.jar, 'GET', '/api/me')).status).toBe(401);
    // Their organisation admin role lapses with the suspension (and comes back below).
    expect(await role()).toBeNull();
    // Their answers stay counted: the participant row is there, completed.
    const answers = await queryRows<{ status: string }>(
      ctx.deps.db,
      sql`select status from participants where health_check_id = ${check.healthCheckId} and user_id = ${person.userId}`,
    );
    expect(answers).toEqual([{ status: 'completed' }]);
    // The team list leaves them out; inviting them again is refused (their identity provider brings them back).
    const team = await json<{ members: { email: string }[] }>(
      await ctx.call(a.admin.jar, 'GET', `/api/workspaces/${a.admin.workspaceId}/members`),
    );
    expect(team.members.map((m) => m.email)).not.toContain(email);
    const invite = await ctx.call(a.admin.jar, 'POST', `/api/workspaces/${a.admin.workspaceId}/invitations`, {
      email,
      role: 'Engineer',
      admin: false,
    });
    expect(invite.status).toBe(409);
    await scim(a.token, 'PATCH', `/Users/${user.id}`, {
      schemas: [SCIM_SCHEMAS.patchOp],
      Operations: [{ op: 'replace', path: 'active', value: true }],
    });
    const [after] = await queryRows<{ id: string; status: string }>(
      ctx.deps.db,
      sql`select id, status from workspace_members where user_id = ${person.userId} and workspace_id = ${a.admin.workspaceId}`,
    );
    expect(after).toEqual({ id: before!.id, status: 'active' });
    expect(await role()).toBe('admin');
  });

  it('a person also in another organisation keeps their sessions there; here their access ends at once', async () => {
    const email = `${unique('both')}@${a.domain}`;
    const person = await signedInUser(ctx, { email, workspaceId: b.admin.workspaceId });
    const user = await json<ScimUser>(
      await scim(a.token, 'POST', '/Users', { schemas: [SCIM_SCHEMAS.user], userName: email }),
    );
    expect(user.groups.map((g) => g.value)).toEqual([a.admin.workspaceId]);
    await ctx.deps.db.execute(
      sql`update workspace_members set access = 'admin' where user_id = ${person.userId} and workspace_id = ${a.admin.workspaceId}`,
    );
    expect((await ctx.call(person.jar, 'GET', `/api/workspaces/${a.admin.workspaceId}/members`)).status).toBe(
      200,
    );
    await scim(a.token, 'PATCH', `/Users/${user.id}`, {
      schemas: [SCIM_SCHEMAS.patchOp],
      Operations: [{ op: 'Replace', path: 'active', value: 'false' }],
    });
    expect((await ctx.call(person.jar, 'GET', '/api/me')).status).toBe(200);
    expect((await ctx.call(person.jar, 'GET', `/api/workspaces/${a.admin.workspaceId}/members`)).status).toBe(
      404,
    );
    expect((await ctx.call(person.jar, 'GET', `/api/workspaces/${b.admin.workspaceId}/members`)).status).toBe(
      200,
    );
  });
});

describe('the SCIM token (Account Settings → Security)', () => {
  it('is created and rotated by the owner only, shown once, stored hashed', async () => {
    const org = await organization();
    const settings = await json<ScimSettings>(await ctx.call(org.admin.jar, 'GET', '/api/organization/scim'));
    expect(settings).toMatchObject({
      baseUrl: `${ctx.deps.config.appUrl}/scim/v2`,
      mayManage: true,
      verifiedDomains: [org.domain],
      provisionedUsers: 0,
    });
    expect(settings.token?.start).toBe(org.token.slice(0, 11));
    const stored = await queryRows<{ token_hash: string }>(
      ctx.deps.db,
      sql`select token_hash from organization_scim where organization_id = ${org.organizationId}`,
    );
    expect(stored[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(settings)).not.toContain(org.token);
    const rotated = await createToken(org.admin);
    expect(rotated.secret).not.toBe(org.token);
    await expectScimError(await scim(org.token, 'GET', '/Users'), 401);
    expect((await scim(rotated.secret, 'GET', '/Users')).status).toBe(200);
    // An organisation admin sees the card but may not create or rotate; a stranger sees nothing.
    const orgAdmin = await signedInUser(ctx, { workspaceId: org.admin.workspaceId, access: 'admin' });
    await ctx.deps.db.execute(
      sql`insert into organization_admins (organization_id, user_id) values (${org.organizationId}, ${orgAdmin.userId})`,
    );
    expect(
      (await json<ScimSettings>(await ctx.call(orgAdmin.jar, 'GET', '/api/organization/scim'))).mayManage,
    ).toBe(false);
    expect((await ctx.call(orgAdmin.jar, 'POST', '/api/organization/scim/token')).status).toBe(403);
    const stranger = await signedInUser(ctx);
    expect((await ctx.call(stranger.jar, 'GET', '/api/organization/scim')).status).toBe(404);
    expect((await ctx.call(stranger.jar, 'POST', '/api/organization/scim/token')).status).toBe(404);
    expect((await scim(rotated.secret, 'GET', '/Users')).status).toBe(200);
  });
});
