import { TEAM_MESSAGES } from '@pulsecheck/shared/team/schemas';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import type { ScimFilter, UserRecord } from './protocol';

/**
 * The SQL of SCIM provisioning. Every statement names the organisation of the token: a SCIM client never reads or
 * writes a person or workspace of another organisation. Memberships of the organisation's workspaces count while
 * 'active' or 'suspended' (deactivated); pending invitations are no one's yet.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (value: string) => UUID.test(value);

/** The organisation whose token has this hash, and when it was last used. */
export async function tokenOwner(db: Db, tokenHash: string) {
  const [row] = await queryRows<{ organization_id: string; last_used_at: string | Date | null }>(
    db,
    sql`select organization_id, last_used_at from organization_scim where token_hash = ${tokenHash}`,
  );
  return row ?? null;
}

/** Records the token's use when the last record is over a minute old: at most one write a minute. */
export async function noteTokenUse(db: Db, organizationId: string) {
  await db.execute(
    sql`update organization_scim set last_used_at = now()
        where organization_id = ${organizationId}
          and (last_used_at is null or last_used_at < now() - interval '1 minute')`,
  );
}

export type UserRow = {
  id: string;
  user_id: string;
  user_name: string;
  external_id: string | null;
  given_name: string | null;
  family_name: string | null;
  display_name: string | null;
  emails: UserRecord['emails'];
  active: boolean;
  created_account: boolean;
  name: string;
  created_at: string | Date;
  updated_at: string | Date;
  groups: { value: string; display: string }[];
};

const userFilter = (filter: ScimFilter | null): SQL => {
  if (!filter) return sql``;
  if (filter.attribute === 'username') return sql`and lower(s.user_name) = lower(${filter.value})`;
  if (filter.attribute === 'externalid') return sql`and s.external_id = ${filter.value}`;
  // `id eq` with something that is no id matches nothing (and never reaches a uuid cast).
  return isUuid(filter.value) ? sql`and s.id = ${filter.value}` : sql`and false`;
};

/** The provisioned users of the organisation (one page, or the one with `id`), each with its workspaces. */
export async function users(
  db: Db,
  organizationId: string,
  options: { filter?: ScimFilter | null; id?: string; offset?: number; limit?: number; lock?: boolean },
) {
  if (options.id !== undefined && !isUuid(options.id)) return [];
  return queryRows<UserRow>(
    db,
    sql`select s.id, s.user_id, s.user_name, s.external_id, s.given_name, s.family_name, s.display_name, s.emails,
               s.active, s.created_account, u.name, s.created_at, s.updated_at,
               coalesce((select json_agg(json_build_object('value', w.id, 'display', w.name) order by w.name, w.id)
                         from workspace_members m join workspaces w on w.id = m.workspace_id
                         where m.user_id = s.user_id and w.organization_id = s.organization_id
                           and m.status in ('active', 'suspended')), '[]'::json) as groups
        from scim_users s join "user" u on u.id = s.user_id
        where s.organization_id = ${organizationId} ${userFilter(options.filter ?? null)}
          ${options.id !== undefined ? sql`and s.id = ${options.id}` : sql``}
        order by s.created_at, s.id
        ${options.limit !== undefined ? sql`limit ${options.limit} offset ${options.offset ?? 0}` : sql``}`,
  );
}

export async function countUsers(db: Db, organizationId: string, filter: ScimFilter | null) {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from scim_users s
        where s.organization_id = ${organizationId} ${userFilter(filter)}`,
  );
  return row?.n ?? 0;
}

/** Whether the organisation verified this e-mail domain by DNS (decision 0016): only these may be provisioned. */
export async function domainVerified(db: Db, organizationId: string, domain: string) {
  const [row] = await queryRows<{ ok: boolean }>(
    db,
    sql`select exists (select 1 from sso_domains where organization_id = ${organizationId}
                         and domain = ${domain} and status = 'verified') as ok`,
  );
  return Boolean(row?.ok);
}

/** Serialises provisioning writes of one organisation until the transaction ends (names and addresses unique). */
export async function lockOrganization(db: Db, organizationId: string) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`scim:${organizationId}`}))`);
}

export async function accountByEmail(db: Db, email: string) {
  const [row] = await queryRows<{ id: string }>(db, sql`select id from "user" where email = ${email}`);
  return row ?? null;
}

export async function insertAccount(db: Db, values: { id: string; name: string; email: string }) {
  await db.execute(
    sql`insert into "user" (id, name, email, email_verified) values (${values.id}, ${values.name}, ${values.email}, true)`,
  );
}

export async function insertScimUser(
  db: Db,
  organizationId: string,
  userId: string,
  record: UserRecord,
  createdAccount: boolean,
) {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`insert into scim_users (organization_id, user_id, user_name, external_id, given_name, family_name,
                                display_name, emails, active, created_account)
        values (${organizationId}, ${userId}, ${record.userName}, ${record.externalId}, ${record.givenName},
                ${record.familyName}, ${record.displayName},
                ${record.emails === null ? null : JSON.stringify(record.emails)}::jsonb, ${record.active},
                ${createdAccount})
        returning id`,
  );
  return row!.id;
}

export async function updateScimUser(db: Db, id: string, record: UserRecord) {
  await db.execute(
    sql`update scim_users set user_name = ${record.userName}, external_id = ${record.externalId},
               given_name = ${record.givenName}, family_name = ${record.familyName},
               display_name = ${record.displayName},
               emails = ${record.emails === null ? null : JSON.stringify(record.emails)}::jsonb,
               active = ${record.active}, updated_at = now()
        where id = ${id}`,
  );
}

export async function updateAccount(db: Db, userId: string, values: { name: string; email: string }) {
  await db.execute(
    sql`update "user" set name = ${values.name}, email = ${values.email}, updated_at = now() where id = ${userId}`,
  );
}

/** Whether the person is the organisation's owner (provisioning never deactivates or removes them). */
export async function isOwner(db: Db, organizationId: string, userId: string) {
  const [row] = await queryRows<{ owner: boolean }>(
    db,
    sql`select exists (select 1 from organizations where id = ${organizationId} and created_by = ${userId}) as owner`,
  );
  return Boolean(row?.owner);
}

/**
 * The organisation's default workspace for a provisioned person (as SSO's just-in-time sign-in does): a member,
 * suspended when deactivated. An existing membership stays as it is.
 */
export async function joinDefaultWorkspace(db: Db, organizationId: string, userId: string, active: boolean) {
  await db.execute(
    sql`insert into workspace_members (workspace_id, user_id, access, status)
        select w.id, ${userId}, 'member', ${active ? 'active' : 'suspended'} from workspaces w
        where w.organization_id = ${organizationId} and w.is_default
        on conflict (workspace_id, user_id) do nothing`,
  );
  await db.execute(
    sql`insert into user_preferences (user_id, active_workspace_id)
        select ${userId}, w.id from workspaces w where w.organization_id = ${organizationId} and w.is_default
        on conflict (user_id) do nothing`,
  );
}

/** Deactivation: the person's memberships of the organisation's workspaces are suspended (kept, not deleted). */
export async function suspendMemberships(db: Db, organizationId: string, userId: string) {
  await db.execute(
    sql`update workspace_members m set status = 'suspended', updated_at = now()
        from workspaces w
        where w.id = m.workspace_id and w.organization_id = ${organizationId} and m.user_id = ${userId}
          and m.status = 'active'`,
  );
  await db.execute(
    sql`update user_preferences p set active_workspace_id = null, updated_at = now()
        from workspaces w
        where p.user_id = ${userId} and w.id = p.active_workspace_id and w.organization_id = ${organizationId}`,
  );
}

/** Reactivation: the suspended memberships are active again (and with them an organisation admin's role). */
export async function restoreMemberships(db: Db, organizationId: string, userId: string) {
  await db.execute(
    sql`update workspace_members m set status = 'active', updated_at = now()
        from workspaces w
        where w.id = m.workspace_id and w.organization_id = ${organizationId} and m.user_id = ${userId}
          and m.status = 'suspended'`,
  );
}

/** Deletion: the person leaves every workspace of the organisation; says which memberships were active. */
export async function deleteMemberships(db: Db, organizationId: string, userId: string) {
  return queryRows<{ workspace_id: string }>(
    db,
    sql`delete from workspace_members m using workspaces w
        where w.id = m.workspace_id and w.organization_id = ${organizationId} and m.user_id = ${userId}
          and m.status in ('active', 'suspended')
        returning m.workspace_id`,
  );
}

/**
 * The SSO binding (decision 0016) of the organisation's provider for the person: deactivation removes it, so the
 * organisation's SSO signs them in no more.
 */
export async function unbindSso(db: Db, organizationId: string, userId: string) {
  await db.execute(
    sql`delete from account a using organization_sso o
        where o.organization_id = ${organizationId} and a.provider_id = o.provider_id and a.user_id = ${userId}`,
  );
}

/**
 * An account provisioning created signs in through the organisation's SSO: a binding row of its provider (the
 * plugin's own record of "this organisation's SSO may sign this account in"; sso-auth.ts links it on the first
 * sign-in and adds the provider's subject). Nothing when the organisation has no provider or the row exists.
 */
export async function bindSso(db: Db, organizationId: string, userId: string, scimId: string) {
  await db.execute(
    sql`insert into account (id, account_id, provider_id, user_id)
        select gen_random_uuid()::text, ${`scim:${scimId}`}, o.provider_id, ${userId}
        from organization_sso o
        where o.organization_id = ${organizationId}
          and not exists (select 1 from account a where a.user_id = ${userId} and a.provider_id = o.provider_id)`,
  );
}

/** Whether the person has a place in another organisation (its owner, or active in one of its workspaces). */
export async function inAnotherOrganization(db: Db, organizationId: string, userId: string) {
  const [row] = await queryRows<{ elsewhere: boolean }>(
    db,
    sql`select (exists (select 1 from organizations o where o.created_by = ${userId} and o.id <> ${organizationId})
                or exists (select 1 from workspace_members m join workspaces w on w.id = m.workspace_id
                           where m.user_id = ${userId} and m.status = 'active'
                             and w.organization_id <> ${organizationId})) as elsewhere`,
  );
  return Boolean(row?.elsewhere);
}

export async function endSessions(db: Db, userId: string) {
  await db.execute(sql`delete from session where user_id = ${userId}`);
}

export async function deleteScimUser(db: Db, id: string) {
  await db.execute(sql`delete from scim_users where id = ${id}`);
}

// Groups: the organisation's workspaces.

export type GroupRow = {
  id: string;
  name: string;
  created_at: string | Date;
  updated_at: string | Date;
  members: { value: string; display: string }[] | null;
};

const groupFilter = (filter: ScimFilter | null): SQL => {
  if (!filter) return sql``;
  if (filter.attribute === 'displayname') return sql`and lower(w.name) = lower(${filter.value})`;
  return isUuid(filter.value) ? sql`and w.id = ${filter.value}` : sql`and false`;
};

export async function groups(
  db: Db,
  organizationId: string,
  options: { filter?: ScimFilter | null; id?: string; offset?: number; limit?: number; members: boolean },
) {
  if (options.id !== undefined && !isUuid(options.id)) return [];
  return queryRows<GroupRow>(
    db,
    sql`select w.id, w.name, w.created_at, w.updated_at,
               ${
                 options.members
                   ? sql`coalesce((select json_agg(json_build_object('value', s.id, 'display', u.name)
                                                   order by s.created_at, s.id)
                                   from workspace_members m
                                   join scim_users s on s.user_id = m.user_id and s.organization_id = w.organization_id
                                   join "user" u on u.id = s.user_id
                                   where m.workspace_id = w.id and m.status in ('active', 'suspended')), '[]'::json)`
                   : sql`null`
               } as members
        from workspaces w
        where w.organization_id = ${organizationId} ${groupFilter(options.filter ?? null)}
          ${options.id !== undefined ? sql`and w.id = ${options.id}` : sql``}
        order by w.created_at, w.id
        ${options.limit !== undefined ? sql`limit ${options.limit} offset ${options.offset ?? 0}` : sql``}`,
  );
}

export async function countGroups(db: Db, organizationId: string, filter: ScimFilter | null) {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from workspaces w where w.organization_id = ${organizationId} ${groupFilter(filter)}`,
  );
  return row?.n ?? 0;
}

/** Another workspace of the organisation with this name (case-insensitive). */
export async function groupNameTaken(db: Db, organizationId: string, name: string, except?: string) {
  const [row] = await queryRows<{ taken: boolean }>(
    db,
    sql`select exists (select 1 from workspaces where organization_id = ${organizationId}
                         and lower(name) = lower(${name}) ${except ? sql`and id <> ${except}` : sql``}) as taken`,
  );
  return Boolean(row?.taken);
}

/** A new workspace; the organisation's owner is its admin (as for a workspace they create themselves). */
export async function insertGroup(db: Db, organizationId: string, name: string) {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`insert into workspaces (name, organization_id, created_by)
        select ${name}, o.id, o.created_by from organizations o where o.id = ${organizationId}
        returning id`,
  );
  await db.execute(
    sql`insert into workspace_members (workspace_id, user_id, access, role, status)
        select ${row!.id}, o.created_by, 'admin', ${TEAM_MESSAGES.creatorRole}, 'active' from organizations o
        where o.id = ${organizationId} and o.created_by is not null`,
  );
  return row!.id;
}

export async function renameGroup(db: Db, workspaceId: string, name: string) {
  await db.execute(sql`update workspaces set name = ${name}, updated_at = now() where id = ${workspaceId}`);
}

/** The provisioned users of the organisation among these SCIM ids: their accounts and whether active. */
export async function scimUsersAmong(db: Db, organizationId: string, ids: string[]) {
  const valid = ids.filter(isUuid);
  if (valid.length === 0) return [];
  return queryRows<{ id: string; user_id: string; user_name: string; active: boolean }>(
    db,
    sql`select id, user_id, user_name, active from scim_users
        where organization_id = ${organizationId} and id = any(${sql.param(valid)}::uuid[])`,
  );
}

/**
 * Adds provisioned people to a workspace as members (suspended while deactivated). A link participant becomes a
 * member; an existing admin or member stays as they are.
 */
export async function addGroupMembers(
  db: Db,
  workspaceId: string,
  people: { user_id: string; active: boolean }[],
) {
  if (people.length === 0) return;
  await db.execute(
    sql`insert into workspace_members (workspace_id, user_id, access, status)
        select ${workspaceId}, p.user_id, 'member', case when p.active then 'active' else 'suspended' end
        from json_to_recordset(${JSON.stringify(people)}::json) as p(user_id text, active boolean)
        on conflict (workspace_id, user_id) do update
          set access = 'member', status = excluded.status, updated_at = now()
          where workspace_members.access = 'participant'`,
  );
}

/** Removes provisioned people (accounts) from a workspace; answers those whose membership was active. */
export async function removeGroupMembers(db: Db, workspaceId: string, userIds: string[]) {
  if (userIds.length === 0) return [];
  return queryRows<{ user_id: string }>(
    db,
    sql`delete from workspace_members
        where workspace_id = ${workspaceId} and user_id = any(${sql.param(userIds)}::text[])
          and status in ('active', 'suspended')
        returning user_id`,
  );
}

/** The accounts of every provisioned member of the workspace (for a PUT or a `replace` of members). */
export async function groupMemberAccounts(db: Db, organizationId: string, workspaceId: string) {
  const rows = await queryRows<{ user_id: string }>(
    db,
    sql`select m.user_id from workspace_members m
        join scim_users s on s.user_id = m.user_id and s.organization_id = ${organizationId}
        where m.workspace_id = ${workspaceId} and m.status in ('active', 'suspended')`,
  );
  return rows.map((row) => row.user_id);
}

// The 'SCIM provisioning' card.

export async function settingsRows(db: Db, organizationId: string) {
  const [row] = await queryRows<{
    start: string | null;
    created_at: string | Date | null;
    last_used_at: string | Date | null;
    domains: string[];
    provisioned: number;
  }>(
    db,
    sql`select t.start, t.created_at, t.last_used_at,
               array(select d.domain from sso_domains d where d.organization_id = ${organizationId}
                       and d.status = 'verified' order by d.domain) as domains,
               (select count(*)::int from scim_users s where s.organization_id = ${organizationId}) as provisioned
        from (select 1) one left join organization_scim t on t.organization_id = ${organizationId}`,
  );
  return row!;
}

/** Creates the organisation's token or replaces it (the old one stops at once). */
export async function saveToken(
  db: Db,
  values: { organizationId: string; tokenHash: string; start: string; createdBy: string },
) {
  await db.execute(
    sql`insert into organization_scim (organization_id, token_hash, start, created_by)
        values (${values.organizationId}, ${values.tokenHash}, ${values.start}, ${values.createdBy})
        on conflict (organization_id) do update
          set token_hash = excluded.token_hash, start = excluded.start, created_by = excluded.created_by,
              created_at = now(), last_used_at = null`,
  );
}
