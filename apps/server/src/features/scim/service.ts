import { randomUUID } from 'node:crypto';
import { domainOf } from '@pulsecheck/shared/auth/security-messages';
import {
  SCIM_CARD,
  SCIM_MESSAGES,
  SCIM_SCHEMAS,
  SCIM_TOKEN_PREFIX,
  scimBaseUrl,
  type CreatedScimToken,
  type ScimSettings,
} from '@pulsecheck/shared/scim/rules';
import { z } from 'zod';
import type { AuditAction, AuditChanges } from '@pulsecheck/shared/audit/log';
import { audited, changedFields, recordAudit, recordLapsedAdmin, type AuditBy } from '../../audit/record';
import { hashToken } from '../../auth/api-tokens';
import { dropLapsedOrganizationAdmin, requireOrganizationAdmin } from '../../auth/access';
import { can } from '../../auth/policy';
import type { Db } from '../../db/client';
import { forbidden } from '../../lib/app-error';
import type { AppDeps } from '../../lib/router';
import { accessChanged } from '../../realtime/bus';
import { randomBytes } from 'node:crypto';
import {
  groupChange,
  groupFromBody,
  invalidValue,
  listResponse,
  paging,
  parseFilter,
  patchOperations,
  patchUser as applyUserPatch,
  ScimError,
  userFromBody,
  type GroupChange,
  type UserRecord,
} from './protocol';
import * as q from './queries';

/**
 * SCIM provisioning (issue 37 item 2, decision 0025). Every function acts for one organisation, the token's: it
 * reads and writes only that organisation's provisioned people and workspaces.
 *
 * - A person is created or linked only at an e-mail domain the organisation verified by DNS (decision 0016). A new
 *   account has no password and signs in through the organisation's SSO; an existing account is linked (its
 *   owner keeps their sign-in, and provisioning never changes its address or name, so it cannot be taken over).
 * - Deactivation (`active: false`) suspends the person's memberships of the organisation's workspaces (kept for
 *   reactivation; their answers stay where they are, anonymous and counted), removes the organisation's SSO
 *   binding, closes their live streams and ends their sessions, unless they have a place in another organisation,
 *   which this one has no say over: there their access goes on, here it ended with the suspension.
 * - Groups are the organisation's workspaces; members are provisioned people.
 */

type Deps = Pick<AppDeps, 'db' | 'realtime' | 'config'>;
/** The organisation of the request's token, the service's base URL, and the token as the audit log names it. */
export type Scope = { organizationId: string; base: string; by: AuditBy };

/** A provisioning change, recorded in its transaction (the SCIM token is the actor). */
const recordScim = (tx: Db, scope: Scope, action: AuditAction, email: string, changes?: AuditChanges) =>
  recordAudit(tx, scope.organizationId, scope.by, {
    action,
    targetType: 'person',
    targetLabel: email,
    changes: changes ?? null,
  });

const iso = (value: string | Date) => new Date(value).toISOString();
const userNotFound = () => new ScimError(404, SCIM_MESSAGES.userNotFound);
const groupNotFound = () => new ScimError(404, SCIM_MESSAGES.groupNotFound);

const emailSchema = z.email();

// Users

function presentUser(base: string, row: q.UserRow) {
  const formatted = [row.given_name, row.family_name].filter(Boolean).join(' ');
  return {
    schemas: [SCIM_SCHEMAS.user],
    id: row.id,
    ...(row.external_id !== null ? { externalId: row.external_id } : {}),
    userName: row.user_name,
    name: {
      ...(row.given_name !== null ? { givenName: row.given_name } : {}),
      ...(row.family_name !== null ? { familyName: row.family_name } : {}),
      formatted: formatted || row.name,
    },
    displayName: row.display_name ?? row.name,
    emails: row.emails ?? [{ value: row.user_name, type: 'work', primary: true }],
    active: row.active,
    groups: row.groups.map((group) => ({ ...group, $ref: `${base}/Groups/${group.value}` })),
    meta: {
      resourceType: 'User',
      created: iso(row.created_at),
      lastModified: iso(row.updated_at),
      location: `${base}/Users/${row.id}`,
    },
  };
}

const recordOf = (row: q.UserRow): UserRecord => ({
  userName: row.user_name,
  externalId: row.external_id,
  givenName: row.given_name,
  familyName: row.family_name,
  displayName: row.display_name,
  emails: row.emails,
  active: row.active,
});

/** The name the account shows: displayName, else given and family name, else the address's local part. */
const accountName = (record: UserRecord, email: string) =>
  record.displayName?.trim() ||
  [record.givenName, record.familyName].filter(Boolean).join(' ').trim() ||
  email.split('@')[0]!;

/** The e-mail address a userName stands for, on a domain the organisation verified; otherwise refused. */
async function provisionableEmail(db: Db, organizationId: string, userName: string) {
  const email = userName.trim().toLowerCase();
  if (!emailSchema.safeParse(email).success) throw invalidValue(SCIM_MESSAGES.userNameRequired);
  const domain = domainOf(email);
  if (!(await q.domainVerified(db, organizationId, domain)))
    throw invalidValue(SCIM_MESSAGES.domainNotVerified, { domain });
  return email;
}

async function oneUser(db: Db, scope: Scope, id: string) {
  const [row] = await q.users(db, scope.organizationId, { id });
  if (!row) throw userNotFound();
  return row;
}

export async function listUsers(deps: Deps, scope: Scope, query: Record<string, string | undefined>) {
  const filter = parseFilter(query.filter, ['username', 'externalid', 'id']);
  const page = paging(query.startIndex, query.count);
  const [total, rows] = await Promise.all([
    q.countUsers(deps.db, scope.organizationId, filter),
    page.count === 0
      ? Promise.resolve([])
      : q.users(deps.db, scope.organizationId, { filter, offset: page.startIndex - 1, limit: page.count }),
  ]);
  return listResponse(
    rows.map((row) => presentUser(scope.base, row)),
    total,
    page.startIndex,
  );
}

export async function getUser(deps: Deps, scope: Scope, id: string) {
  return presentUser(scope.base, await oneUser(deps.db, scope, id));
}

/** Ends the person's sessions unless they have a place in another organisation; closes their live streams. */
async function endAccess(tx: Db, deps: Deps, organizationId: string, userId: string) {
  if (!(await q.inAnotherOrganization(tx, organizationId, userId))) await q.endSessions(tx, userId);
  await accessChanged(deps.realtime, userId, tx);
}

async function setActive(tx: Db, deps: Deps, scope: Scope, row: q.UserRow, active: boolean) {
  if (active === row.active) return;
  if (active) {
    await q.restoreMemberships(tx, scope.organizationId, row.user_id);
    if (row.created_account) await q.bindSso(tx, scope.organizationId, row.user_id, row.id);
    await accessChanged(deps.realtime, row.user_id, tx);
    return;
  }
  if (await q.isOwner(tx, scope.organizationId, row.user_id))
    throw new ScimError(403, SCIM_MESSAGES.ownerProtected);
  await q.suspendMemberships(tx, scope.organizationId, row.user_id);
  await q.unbindSso(tx, scope.organizationId, row.user_id);
  await endAccess(tx, deps, scope.organizationId, row.user_id);
}

export async function createUser(deps: Deps, scope: Scope, body: unknown) {
  const record = userFromBody(body);
  const id = await deps.db.transaction(async (tx) => {
    await q.lockOrganization(tx, scope.organizationId);
    const email = await provisionableEmail(tx, scope.organizationId, record.userName);
    if ((await q.countUsers(tx, scope.organizationId, { attribute: 'username', value: email })) > 0)
      throw new ScimError(409, SCIM_MESSAGES.userExists, 'uniqueness');
    const existing = await q.accountByEmail(tx, email);
    const userId = existing?.id ?? randomUUID();
    if (!existing) await q.insertAccount(tx, { id: userId, name: accountName(record, email), email });
    const scimId = await q.insertScimUser(
      tx,
      scope.organizationId,
      userId,
      { ...record, userName: email },
      !existing,
    );
    await q.joinDefaultWorkspace(tx, scope.organizationId, userId, record.active);
    if (!existing && record.active) await q.bindSso(tx, scope.organizationId, userId, scimId);
    if (existing && !record.active) {
      const [row] = await q.users(tx, scope.organizationId, { id: scimId });
      await setActive(tx, deps, scope, { ...row!, active: true }, false);
    }
    await recordScim(tx, scope, 'scim.user-provisioned', email, {
      active: record.active,
      account: existing ? 'existing account linked' : 'account created',
    });
    return scimId;
  });
  return getUser(deps, scope, id);
}

/** Writes a changed record: the address (accounts provisioning made only), the name, then active. */
async function writeUser(deps: Deps, scope: Scope, id: string, change: (current: UserRecord) => UserRecord) {
  await deps.db.transaction(async (tx) => {
    await q.lockOrganization(tx, scope.organizationId);
    const [row] = await q.users(tx, scope.organizationId, { id });
    if (!row) throw userNotFound();
    const next = change(recordOf(row));
    let userName = row.user_name;
    if (next.userName.trim().toLowerCase() !== row.user_name.toLowerCase()) {
      if (!row.created_account) throw new ScimError(400, SCIM_MESSAGES.linkedAccountImmutable, 'mutability');
      userName = await provisionableEmail(tx, scope.organizationId, next.userName);
      const holder = await q.accountByEmail(tx, userName);
      if (holder && holder.id !== row.user_id)
        throw new ScimError(409, SCIM_MESSAGES.emailTaken, 'uniqueness');
    }
    await q.updateScimUser(tx, id, { ...next, userName });
    if (row.created_account)
      await q.updateAccount(tx, row.user_id, { name: accountName(next, userName), email: userName });
    await setActive(tx, deps, scope, row, next.active);
    const { active, ...fields } = changedFields(recordOf(row), { ...next, userName });
    if (Object.keys(fields).length > 0) await recordScim(tx, scope, 'scim.user-changed', userName, fields);
    if (active)
      await recordScim(tx, scope, next.active ? 'scim.user-reactivated' : 'scim.user-deactivated', userName);
  });
  return getUser(deps, scope, id);
}

export const replaceUser = (deps: Deps, scope: Scope, id: string, body: unknown) =>
  writeUser(deps, scope, id, (current) => userFromBody(body, current));

export const patchUser = (deps: Deps, scope: Scope, id: string, body: unknown) => {
  const operations = patchOperations(body);
  return writeUser(deps, scope, id, (current) => applyUserPatch(current, operations));
};

/**
 * DELETE: the person leaves the organisation (its workspaces, its SSO binding, its provisioning). The account is
 * the person's and stays, as do their answers; they can delete it themselves.
 */
export async function deleteUser(deps: Deps, scope: Scope, id: string) {
  await deps.db.transaction(async (tx) => {
    await q.lockOrganization(tx, scope.organizationId);
    const [row] = await q.users(tx, scope.organizationId, { id });
    if (!row) throw userNotFound();
    if (await q.isOwner(tx, scope.organizationId, row.user_id))
      throw new ScimError(403, SCIM_MESSAGES.ownerProtected);
    const left = await q.deleteMemberships(tx, scope.organizationId, row.user_id);
    for (const { workspace_id } of left)
      if (await dropLapsedOrganizationAdmin(tx, row.user_id, workspace_id))
        await recordLapsedAdmin(tx, scope.organizationId, scope.by, {
          id: row.user_id,
          email: row.user_name,
        });
    await q.suspendMemberships(tx, scope.organizationId, row.user_id);
    await q.unbindSso(tx, scope.organizationId, row.user_id);
    await q.deleteScimUser(tx, id);
    await endAccess(tx, deps, scope.organizationId, row.user_id);
    await recordScim(tx, scope, 'scim.user-removed', row.user_name);
  });
}

// Groups

function presentGroup(base: string, row: q.GroupRow) {
  return {
    schemas: [SCIM_SCHEMAS.group],
    id: row.id,
    displayName: row.name,
    ...(row.members
      ? { members: row.members.map((member) => ({ ...member, $ref: `${base}/Users/${member.value}` })) }
      : {}),
    meta: {
      resourceType: 'Group',
      created: iso(row.created_at),
      lastModified: iso(row.updated_at),
      location: `${base}/Groups/${row.id}`,
    },
  };
}

/** `excludedAttributes=members` (Entra asks so) leaves the member list out. */
const withMembers = (query: Record<string, string | undefined>) =>
  !(query.excludedAttributes ?? '')
    .split(',')
    .map((name) => name.trim().toLowerCase())
    .includes('members');

export async function listGroups(deps: Deps, scope: Scope, query: Record<string, string | undefined>) {
  const filter = parseFilter(query.filter, ['displayname', 'id']);
  const page = paging(query.startIndex, query.count);
  const [total, rows] = await Promise.all([
    q.countGroups(deps.db, scope.organizationId, filter),
    page.count === 0
      ? Promise.resolve([])
      : q.groups(deps.db, scope.organizationId, {
          filter,
          offset: page.startIndex - 1,
          limit: page.count,
          members: withMembers(query),
        }),
  ]);
  return listResponse(
    rows.map((row) => presentGroup(scope.base, row)),
    total,
    page.startIndex,
  );
}

export async function getGroup(
  deps: Deps,
  scope: Scope,
  id: string,
  query: Record<string, string | undefined> = {},
) {
  const [row] = await q.groups(deps.db, scope.organizationId, { id, members: withMembers(query) });
  if (!row) throw groupNotFound();
  return presentGroup(scope.base, row);
}

const WORKSPACE_NAME_MAX = 120;

function groupName(name: string) {
  const trimmed = name.trim();
  if (trimmed === '' || trimmed.length > WORKSPACE_NAME_MAX || trimmed.includes('\u0000'))
    throw invalidValue(SCIM_MESSAGES.groupNameRequired);
  return trimmed;
}

/** Applies a change to a workspace of the organisation: its name, then who of the provisioned people is in it. */
async function changeGroup(
  tx: Db,
  deps: Deps,
  scope: Scope,
  workspace: { id: string; name: string; created?: boolean },
  change: GroupChange,
) {
  const workspaceId = workspace.id;
  const changes: AuditChanges = workspace.created ? { created: true } : {};
  let name = workspace.name;
  if (change.displayName !== undefined) {
    name = groupName(change.displayName);
    if (await q.groupNameTaken(tx, scope.organizationId, name, workspaceId))
      throw new ScimError(409, SCIM_MESSAGES.groupExists, 'uniqueness');
    await q.renameGroup(tx, workspaceId, name);
    if (name !== workspace.name && !workspace.created) changes.name = { before: workspace.name, after: name };
  }
  const wanted = [...change.add, ...(change.replaceMembers ?? [])];
  const found = await q.scimUsersAmong(tx, scope.organizationId, [...wanted, ...change.remove]);
  const byId = new Map(found.map((row) => [row.id, row]));
  const missing = wanted.find((id) => !byId.has(id));
  if (missing !== undefined) throw invalidValue(SCIM_MESSAGES.memberNotFound, { value: missing });
  let leaving = change.remove.flatMap((id) => (byId.has(id) ? [byId.get(id)!.user_id] : []));
  if (change.replaceMembers) {
    const keep = new Set(change.replaceMembers.map((id) => byId.get(id)!.user_id));
    leaving = [
      ...leaving,
      ...(await q.groupMemberAccounts(tx, scope.organizationId, workspaceId)).filter((id) => !keep.has(id)),
    ];
  }
  const joining = wanted.map((id) => byId.get(id)!).filter((row) => !leaving.includes(row.user_id));
  const left = await q.removeGroupMembers(tx, workspaceId, [...new Set(leaving)]);
  const inactive = new Set(found.filter((row) => !row.active).map((row) => row.user_id));
  for (const { user_id } of left) {
    // A deactivated organisation admin keeps the appointment for their reactivation.
    if (!inactive.has(user_id) && (await dropLapsedOrganizationAdmin(tx, user_id, workspaceId))) {
      const email = found.find((row) => row.user_id === user_id)?.user_name ?? null;
      await recordLapsedAdmin(tx, scope.organizationId, scope.by, { id: user_id, email });
    }
    await accessChanged(deps.realtime, user_id, tx);
  }
  await q.addGroupMembers(tx, workspaceId, [...new Map(joining.map((row) => [row.user_id, row])).values()]);
  if (joining.length > 0) changes.added = [...new Set(joining.map((row) => row.user_name))];
  if (left.length > 0) changes.removed = left.length;
  if (Object.keys(changes).length > 0)
    await recordAudit(tx, scope.organizationId, scope.by, {
      action: 'scim.group-changed',
      targetType: 'workspace',
      targetId: workspaceId,
      targetLabel: name,
      changes,
    });
}

export async function createGroup(deps: Deps, scope: Scope, body: unknown) {
  const input = groupFromBody(body);
  const id = await deps.db.transaction(async (tx) => {
    await q.lockOrganization(tx, scope.organizationId);
    const name = groupName(input.displayName);
    if (await q.groupNameTaken(tx, scope.organizationId, name))
      throw new ScimError(409, SCIM_MESSAGES.groupExists, 'uniqueness');
    const workspaceId = await q.insertGroup(tx, scope.organizationId, name);
    await changeGroup(
      tx,
      deps,
      scope,
      { id: workspaceId, name, created: true },
      { add: input.members ?? [], remove: [] },
    );
    return workspaceId;
  });
  return getGroup(deps, scope, id);
}

async function writeGroup(deps: Deps, scope: Scope, id: string, change: GroupChange) {
  await deps.db.transaction(async (tx) => {
    await q.lockOrganization(tx, scope.organizationId);
    const [row] = await q.groups(tx, scope.organizationId, { id, members: false });
    if (!row) throw groupNotFound();
    await changeGroup(tx, deps, scope, { id, name: row.name }, change);
  });
}

export async function replaceGroup(deps: Deps, scope: Scope, id: string, body: unknown) {
  const input = groupFromBody(body);
  await writeGroup(deps, scope, id, {
    displayName: input.displayName,
    add: [],
    remove: [],
    ...(input.members !== undefined ? { replaceMembers: input.members } : {}),
  });
  return getGroup(deps, scope, id);
}

/** PATCH answers 204 (RFC 7644 3.5.2: the service provider may), as Entra and Okta expect for groups. */
export async function patchGroup(deps: Deps, scope: Scope, id: string, body: unknown) {
  await writeGroup(deps, scope, id, groupChange(patchOperations(body)));
}

export async function deleteGroup(deps: Deps, scope: Scope, id: string) {
  const [row] = await q.groups(deps.db, scope.organizationId, { id, members: false });
  if (!row) throw groupNotFound();
  throw new ScimError(403, SCIM_MESSAGES.groupDeleteRefused);
}

// The token and the card (Account Settings → Security)

export async function authenticate(db: Db, secret: string) {
  if (!secret.startsWith(SCIM_TOKEN_PREFIX)) return null;
  const row = await q.tokenOwner(db, hashToken(secret));
  if (!row) return null;
  const last = row.last_used_at ? new Date(row.last_used_at).getTime() : 0;
  if (Date.now() - last > 60_000) await q.noteTokenUse(db, row.organization_id);
  return row.organization_id;
}

async function settingsOf(deps: Pick<AppDeps, 'db' | 'config'>, organizationId: string, mayManage: boolean) {
  const row = await q.settingsRows(deps.db, organizationId);
  return {
    baseUrl: scimBaseUrl(deps.config.appUrl),
    mayManage,
    token:
      row.start === null || row.created_at === null
        ? null
        : {
            start: row.start,
            createdAt: iso(row.created_at),
            lastUsedAt: row.last_used_at === null ? null : iso(row.last_used_at),
          },
    verifiedDomains: row.domains,
    provisionedUsers: row.provisioned,
  } satisfies ScimSettings;
}

/** The card: the owner and organisation admins see it; `mayManage` says whether they may create or rotate. */
export async function getSettings(deps: Pick<AppDeps, 'db' | 'config'>, userId: string) {
  const organization = await requireOrganizationAdmin(deps.db, userId);
  const mayManage = can(
    { userId, access: null, organizationRole: organization.role },
    'organization:provision',
  );
  return settingsOf(deps, organization.id, mayManage);
}

/** 'Create token' and 'Rotate token': a new secret, shown once; the old one stops at once. */
export async function createToken(
  deps: Pick<AppDeps, 'db' | 'config'>,
  userId: string,
  by: AuditBy,
): Promise<CreatedScimToken> {
  const organization = await requireOrganizationAdmin(deps.db, userId);
  if (!can({ userId, access: null, organizationRole: organization.role }, 'organization:provision'))
    throw forbidden(SCIM_CARD.ownerOnly);
  const secret = `${SCIM_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const rotated = (await q.settingsRows(deps.db, organization.id)).start !== null;
  await audited(
    deps.db,
    organization.id,
    by,
    {
      action: 'scim.token-created',
      targetType: 'organization',
      targetId: organization.id,
      targetLabel: organization.name,
      changes: { rotated },
    },
    (tx) =>
      q.saveToken(tx, {
        organizationId: organization.id,
        tokenHash: hashToken(secret),
        start: secret.slice(0, SCIM_TOKEN_PREFIX.length + 4),
        createdBy: userId,
      }),
  );
  return { settings: await settingsOf(deps, organization.id, true), secret };
}
