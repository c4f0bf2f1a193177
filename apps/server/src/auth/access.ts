import { and, desc, eq, inArray } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type Db, first } from '../db/client';
import { healthChecks, participants } from '../db/schema/health-checks';
import { loops } from '../db/schema/loops';
import { workspaceMembers } from '../db/schema/organizations';
import { workspaceNotFound } from '../lib/app-error';
import { can, type Action, type Actor } from './policy';

export type Access = 'admin' | 'member' | 'participant';

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
