import { SECURITY_MESSAGES } from '@pulsecheck/shared/auth/security-messages';
import { and, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { type Db, first, queryRows } from '../db/client';
import { healthChecks, participants } from '../db/schema/health-checks';
import { workspaceMembers } from '../db/schema/organizations';
import { AppError, forbidden, workspaceNotFound } from '../lib/app-error';
import { can, type Action, type Actor } from './policy';

export type Access = 'admin' | 'member' | 'participant';
/**
 * A person's place in an organisation. 'owner': its creator (organizations.created_by). 'admin' is for the
 * organisation admins the owner appoints (not loaded here yet: `organizationOf` is the one place that will).
 */
export type OrganizationRole = 'owner' | 'admin' | 'member';

/**
 * The user's organisation, and their role in it: the one they own, otherwise the first they are an active member
 * of; null when they are in none.
 */
export async function organizationOf(db: Db, userId: string) {
  const [row] = await queryRows<{ id: string; name: string; require_two_factor: boolean; owner: boolean }>(
    db,
    sql`select o.id, o.name, o.require_two_factor, (o.created_by = ${userId}) as owner
        from organizations o
        where o.created_by = ${userId}
           or exists (select 1 from workspace_members m join workspaces w on w.id = m.workspace_id
                      where w.organization_id = o.id and m.user_id = ${userId} and m.status = 'active')
        order by (o.created_by = ${userId}) desc, o.created_at
        limit 1`,
  );
  if (!row) return null;
  const role: OrganizationRole = row.owner ? 'owner' : 'member';
  return { id: row.id, name: row.name, requireTwoFactor: row.require_two_factor, role };
}

/**
 * The organisation whose sign-in rules the user may change (`organization:administer`); a 404 when they are in
 * none, a 403 when they may not change them.
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
    .where(
      and(
        eq(workspaceMembers.workspaceId, workspaceId),
        eq(workspaceMembers.userId, userId),
        eq(workspaceMembers.status, 'active'),
      ),
    )
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
      .leftJoin(
        workspaceMembers,
        and(
          eq(workspaceMembers.workspaceId, healthChecks.workspaceId),
          eq(workspaceMembers.userId, userId),
          eq(workspaceMembers.status, 'active'),
        ),
      )
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
  };
}
