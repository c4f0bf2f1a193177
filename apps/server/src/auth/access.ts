import { NOT_FOUND_MESSAGES } from '@pulsecheck/shared/api/errors';
import { SECURITY_MESSAGES } from '@pulsecheck/shared/auth/security-messages';
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type Db, first, queryRows } from '../db/client';
import { healthChecks, participants } from '../db/schema/health-checks';
import { loops } from '../db/schema/loops';
import { workspaceMembers } from '../db/schema/organizations';
import { AppError, forbidden, notFound, workspaceNotFound } from '../lib/app-error';
import { can, type Action, type Actor } from './policy';

export type Access = 'admin' | 'member' | 'participant';
/**
 * A person's place in an organisation: its owner (who set it up), an organisation admin the owner appointed, or a
 * member (in one of its workspaces, without either role).
 */
export type OrganizationRole = 'owner' | 'admin' | 'member';
/** The roles that oversee the whole organisation, as `organizationRoleSql` answers them (null: neither). */
export type OversightRole = Exclude<OrganizationRole, 'member'>;

/**
 * THE fact "is owner / is organisation admin of this organisation", as an SQL expression ('owner', 'admin' or
 * null), written once: every check of it, in a single lookup or per row of a list, uses this. The owner is
 * `organizations.created_by`; an organisation admin is a row of `organization_admins` that counts only while the
 * person is an active admin or member of one of the organisation's workspaces (removed from all of them, they lose
 * the role). An organisation API token (its id as the caller, auth/api-tokens.ts) is an organisation admin of its own
 * organisation while it is live, and of no other. `user` and `organization` are values or columns.
 */
export const organizationRoleSql = (user: SQL | string, organization: SQL | string) => sql`(
  select case
    when role_org.created_by = ${user} then 'owner'
    when exists (
      select 1 from organization_admins role_admin
      where role_admin.organization_id = role_org.id and role_admin.user_id = ${user}
        and exists (
          select 1 from workspace_members role_member
          join workspaces role_workspace on role_workspace.id = role_member.workspace_id
          where role_workspace.organization_id = role_org.id and role_member.user_id = ${user}
            and role_member.status = 'active' and role_member.access in ('admin', 'member'))) then 'admin'
    when exists (
      select 1 from api_tokens role_token
      where role_token.id = ${user} and role_token.kind = 'organization'
        and role_token.organization_id = role_org.id
        and (role_token.expires_at is null or role_token.expires_at > now())) then 'admin'
  end
  from organizations role_org where role_org.id = ${organization})`;

/**
 * THE fact "is a member of this organisation" (its owner, or active in one of its workspaces, whatever their
 * access), as an SQL boolean: who an organisation's SSO may link and its 'Require SSO' applies to (features/sso).
 */
export const organizationMemberSql = (user: SQL | string, organization: SQL | string) => sql`(
  exists (select 1 from organizations member_org where member_org.id = ${organization}
            and member_org.created_by = ${user})
  or exists (
    select 1 from workspace_members member_row
    join workspaces member_workspace on member_workspace.id = member_row.workspace_id
    where member_workspace.organization_id = ${organization} and member_row.user_id = ${user}
      and member_row.status = 'active'))`;

/**
 * Forgets the organisation admin role of someone whose role no longer counts (see organizationRoleSql: no longer an
 * admin or member of any of the organisation's workspaces), so that a later invitation does not revive it.
 */
export async function dropLapsedOrganizationAdmin(db: Db, userId: string, workspaceId: string) {
  const [dropped] = await queryRows<{ organization_id: string }>(
    db,
    sql`delete from organization_admins oa
        using workspaces w
        where w.id = ${workspaceId} and oa.organization_id = w.organization_id and oa.user_id = ${userId}
          and ${organizationRoleSql(userId, sql`w.organization_id`)} is null
        returning oa.organization_id`,
  );
  /** The organisation whose admin role lapsed (for the audit log), or null. */
  return dropped?.organization_id ?? null;
}

/** The user's role in the organisation, or null (also for an organisation that does not exist). */
export async function organizationRole(
  db: Db,
  userId: string,
  organizationId: string,
): Promise<OversightRole | null> {
  const [row] = await queryRows<{ role: OversightRole | null }>(
    db,
    sql`select ${organizationRoleSql(userId, organizationId)} as role`,
  );
  return row?.role ?? null;
}

/**
 * The organisation as the user may act on it: its name and their role, when the policy lets them do `action`
 * (default: administer it); else a 404 'Organisation not found', so that nobody else learns that it exists or what it
 * holds. One query.
 */
export async function requireOrganization(
  db: Db,
  userId: string,
  organizationId: string,
  action: Extract<Action, `organization:${string}`> = 'organization:administer',
) {
  const [row] = await queryRows<{ role: OversightRole | null; name: string }>(
    db,
    sql`select ${organizationRoleSql(userId, organizationId)} as role, name from organizations
        where id = ${organizationId}`,
  );
  if (!row || !can({ userId, access: null, organizationRole: row.role }, action))
    throw notFound(NOT_FOUND_MESSAGES.organization);
  return { organizationId, name: row.name, role: row.role! };
}

/**
 * The user's organisation, and their role in it: the one they own, otherwise the first they are an active member
 * of; null when they are in none.
 */
export async function organizationOf(db: Db, userId: string) {
  const [row] = await queryRows<{
    id: string;
    name: string;
    require_two_factor: boolean;
    role: OversightRole | null;
  }>(
    db,
    sql`select o.id, o.name, o.require_two_factor, ${organizationRoleSql(userId, sql`o.id`)} as role
        from organizations o
        where o.created_by = ${userId}
           or exists (select 1 from workspace_members m join workspaces w on w.id = m.workspace_id
                      where w.organization_id = o.id and m.user_id = ${userId} and m.status = 'active')
        order by (o.created_by = ${userId}) desc, o.created_at
        limit 1`,
  );
  if (!row) return null;
  const role: OrganizationRole = row.role ?? 'member';
  return { id: row.id, name: row.name, requireTwoFactor: row.require_two_factor, role };
}

/**
 * The organisation whose sign-in rules the user may change (`organization:administer`: its owner and organisation
 * admins); a 404 when they are in none, a 403 when they may not change them.
 */
export async function requireOrganizationAdmin(db: Db, userId: string) {
  const organization = await organizationOf(db, userId);
  if (!organization) throw new AppError('not_found', SECURITY_MESSAGES.noOrganization);
  const actor: Actor = { userId, access: null, organizationRole: organization.role };
  if (!can(actor, 'organization:administer')) throw forbidden(SECURITY_MESSAGES.organizationOnly);
  return organization;
}

/**
 * SQL that is true when the user (`userId`, a column or value) signs in with a password, has no two-factor sign-in,
 * and an organisation they are in requires it: they must enrol before anything else (issue 15). People who sign in
 * only through their organisation's identity provider are not asked: the provider does its own second factor.
 */
export const twoFactorDueSql = (userId: SQL, twoFactorEnabled: SQL) => sql`(not ${twoFactorEnabled}
  and exists (select 1 from account a where a.user_id = ${userId} and a.provider_id = 'credential')
  and exists (
    select 1 from organizations o
    where o.require_two_factor
      and (o.created_by = ${userId}
        or exists (select 1 from workspace_members m join workspaces w on w.id = m.workspace_id
                   where w.organization_id = o.id and m.user_id = ${userId} and m.status = 'active'))))`;

/** The user's active membership of the workspace in `workspaceId` (a value or the column of a joined table). */
const activeMembership = (userId: string, workspaceId: string | AnyPgColumn) =>
  and(
    eq(workspaceMembers.workspaceId, workspaceId),
    eq(workspaceMembers.userId, userId),
    eq(workspaceMembers.status, 'active'),
  );

/** Whether the user may use the admin area: `admin` or `member` access in at least one workspace. */
export async function canUseAdminArea(db: Db, userId: string): Promise<boolean> {
  const rows = await db
    .select({ id: workspaceMembers.id })
    .from(workspaceMembers)
    .where(
      and(
        eq(workspaceMembers.userId, userId),
        eq(workspaceMembers.status, 'active'),
        inArray(workspaceMembers.access, ['admin', 'member']),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/**
 * The user's membership of a workspace when the policy lets them do `action` there (default: use its admin
 * area); otherwise a 404 `workspace_not_found`, so that outsiders cannot even learn that it exists
 * (PRODUCT-DECISIONS 3). `refuseMembers` answers members who may see the workspace but not do the action.
 */
export async function requireWorkspace(
  db: Db,
  userId: string,
  workspaceId: string,
  options: { action?: Action; refuseMembers?: () => Error } = {},
) {
  const [membership] = await db
    .select({ id: workspaceMembers.id, access: workspaceMembers.access })
    .from(workspaceMembers)
    .where(activeMembership(userId, workspaceId))
    .limit(1);
  const actor: Actor = { userId, access: (membership?.access as Access | undefined) ?? null };
  if (!membership || !can(actor, 'workspace:use')) throw workspaceNotFound();
  const action = options.action ?? 'workspace:use';
  if (!can(actor, action)) throw options.refuseMembers?.() ?? workspaceNotFound();
  return { memberId: membership.id, access: membership.access as Access };
}

/**
 * Where a user goes after signing in (PRODUCT-DECISIONS 9): set-up first for a new admin; the admin
 * dashboard for admins and members; otherwise their latest health check, or /dashboard.
 */
export async function homeFor(db: Db, user: { id: string; setupStatus: string | null }): Promise<string> {
  if (user.setupStatus === 'pending_setup') return '/auth/admin-confirmation';
  if (await canUseAdminArea(db, user.id)) return '/admin/dashboard';
  const [latest] = await db
    .select({ healthCheckId: participants.healthCheckId })
    .from(participants)
    .where(eq(participants.userId, user.id))
    .orderBy(desc(participants.createdAt))
    .limit(1);
  return latest ? `/health-check/${latest.healthCheckId}` : '/dashboard';
}

/**
 * How the user relates to a health check: the check's workspace and creator, the user as the policy's actor,
 * and whether they may oversee it; null when they may not see it at all (callers answer 404).
 */
export async function healthCheckAccess(db: Db, userId: string, healthCheckId: string) {
  const row = await first(
    db
      .select({
        workspaceId: healthChecks.workspaceId,
        createdBy: healthChecks.createdBy,
        access: workspaceMembers.access,
        participantId: participants.id,
      })
      .from(healthChecks)
      .leftJoin(workspaceMembers, activeMembership(userId, healthChecks.workspaceId))
      .leftJoin(
        participants,
        and(eq(participants.healthCheckId, healthChecks.id), eq(participants.userId, userId)),
      )
      .where(eq(healthChecks.id, healthCheckId)),
  );
  if (!row) return null;
  const actor: Actor = {
    userId,
    access: (row.access ?? null) as Access | null,
    participates: Boolean(row.participantId),
  };
  if (!can(actor, 'check:view')) return null;
  return {
    workspaceId: row.workspaceId,
    createdBy: row.createdBy,
    actor,
    participantId: row.participantId,
    manages: can(actor, 'check:oversee'),
    mayChange: can(actor, 'check:change', { createdBy: row.createdBy }),
    /** Sees the check only as its organisation's owner or admin (organizationCheckAccess). */
    forOrganization: false,
  };
}

/**
 * A health check as its organisation's owner or admins read it when they are not in its workspace (the insights
 * heat map opens a team's results): read-only, and only where `organization:administer` allows; null otherwise.
 */
export async function organizationCheckAccess(db: Db, userId: string, healthCheckId: string) {
  const [row] = await queryRows<{
    workspaceId: string;
    createdBy: string | null;
    role: OversightRole | null;
  }>(
    db,
    sql`select h.workspace_id as "workspaceId", h.created_by as "createdBy",
               ${organizationRoleSql(userId, sql`w.organization_id`)} as role
        from health_checks h join workspaces w on w.id = h.workspace_id
        where h.id = ${healthCheckId}`,
  );
  if (!row) return null;
  const actor: Actor = { userId, access: null, organizationRole: row.role };
  if (!can(actor, 'organization:administer')) return null;
  return {
    workspaceId: row.workspaceId,
    createdBy: row.createdBy,
    actor,
    participantId: null,
    manages: false,
    mayChange: false,
    forOrganization: true,
  };
}

/**
 * How the user relates to a loop: the loop, the user as the policy's actor, and whether they may change it; null
 * when they may not oversee it (callers answer 404 'Loop not found', PRODUCT-DECISIONS 3).
 */
export async function loopAccess(db: Db, userId: string, loopId: string) {
  const row = await first(
    db
      .select({ loop: loops, access: workspaceMembers.access })
      .from(loops)
      .leftJoin(workspaceMembers, activeMembership(userId, loops.workspaceId))
      .where(eq(loops.id, loopId)),
  );
  if (!row) return null;
  const actor: Actor = { userId, access: (row.access ?? null) as Access | null };
  if (!can(actor, 'loop:oversee')) return null;
  return {
    loop: row.loop,
    workspaceId: row.loop.workspaceId,
    actor,
    mayChange: can(actor, 'loop:change', { createdBy: row.loop.createdBy }),
  };
}
