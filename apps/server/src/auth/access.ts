import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/client';
import { healthChecks, participants } from '../db/schema/health-checks';
import { workspaceMembers } from '../db/schema/organizations';
import { workspaceNotFound } from '../lib/app-error';

export type Access = 'admin' | 'member' | 'participant';

/** Active memberships of a user, with their access level. */
export async function membershipsOf(db: Db, userId: string) {
  return db
    .select({
      workspaceId: workspaceMembers.workspaceId,
      access: workspaceMembers.access,
      memberId: workspaceMembers.id,
    })
    .from(workspaceMembers)
    .where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.status, 'active')));
}

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
 * The user's membership of a workspace when its access is one of `allowed`; otherwise a 404, so that
 * outsiders cannot even learn that the workspace exists (PRODUCT-DECISIONS 3).
 */
export async function requireWorkspaceAccess(db: Db, userId: string, workspaceId: string, allowed: Access[]) {
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
  if (!membership || !allowed.includes(membership.access as Access)) throw workspaceNotFound();
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
 * Whether the user may see a health check at all: admin or member of its workspace, or a participant of it.
 * Returns the check's workspace and how the user relates to it, or null (callers answer 404).
 */
export async function healthCheckAccess(db: Db, userId: string, healthCheckId: string) {
  const [row] = await db
    .select({
      workspaceId: healthChecks.workspaceId,
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
    .where(eq(healthChecks.id, healthCheckId))
    .limit(1);
  if (!row) return null;
  const manages = row.access === 'admin' || row.access === 'member';
  if (!manages && !row.participantId) return null;
  return {
    workspaceId: row.workspaceId,
    access: (row.access ?? null) as Access | null,
    participantId: row.participantId,
    manages,
  };
}
