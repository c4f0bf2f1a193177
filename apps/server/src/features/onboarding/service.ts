import { TEAM_MESSAGES } from '@pulsecheck/shared/team/schemas';
import { AUTH_MESSAGES } from '@pulsecheck/shared/auth/messages';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { user } from '../../db/schema/auth';
import { organizations, userPreferences, workspaceMembers, workspaces } from '../../db/schema/organizations';
import { AppError, conflict } from '../../lib/app-error';

const STALE_SETUP = sql`now() - interval '2 minutes'`;

/**
 * Creates the admin's organisation, default workspace, admin membership and active-workspace preference in
 * one transaction, exactly once. A claim on the user row turns a concurrent second request into
 * 'Setup already in progress' and a later one into 'Organization already exists for this user'.
 */
export async function setUpOrganization(db: Db, userId: string): Promise<{ workspaceId: string }> {
  const claimed = await db
    .update(user)
    .set({ setupStartedAt: new Date() })
    .where(
      and(
        eq(user.id, userId),
        eq(user.setupStatus, 'pending_setup'),
        or(isNull(user.setupStartedAt), lt(user.setupStartedAt, STALE_SETUP)),
      ),
    )
    .returning({ companyName: user.companyName, companySize: user.companySize, role: user.role });
  const claim = claimed[0];
  if (!claim) {
    const [current] = await db
      .select({ setupStatus: user.setupStatus })
      .from(user)
      .where(eq(user.id, userId));
    if (current?.setupStatus === 'pending_setup') throw conflict(AUTH_MESSAGES.setupInProgress);
    throw new AppError('organization_exists', AUTH_MESSAGES.orgExists);
  }

  try {
    return await db.transaction(async (tx) => {
      const companyName = claim.companyName ?? 'My Organization';
      const [org] = await tx
        .insert(organizations)
        .values({
          name: companyName,
          companySize: claim.companySize,
          createdBy: userId,
          metadata: {
            company_size: claim.companySize,
            admin_role: claim.role,
            created_at: new Date().toISOString(),
          },
        })
        .returning({ id: organizations.id });
      if (!org) throw new Error('organisation insert returned nothing');
      const [workspace] = await tx
        .insert(workspaces)
        .values({ name: companyName, organizationId: org.id, createdBy: userId, isDefault: true })
        .returning({ id: workspaces.id });
      if (!workspace) throw new Error('workspace insert returned nothing');
      await tx.insert(workspaceMembers).values({
        workspaceId: workspace.id,
        userId,
        access: 'admin',
        role: TEAM_MESSAGES.creatorRole,
        status: 'active',
      });
      await tx
        .insert(userPreferences)
        .values({ userId, activeWorkspaceId: workspace.id })
        .onConflictDoUpdate({
          target: userPreferences.userId,
          set: { activeWorkspaceId: workspace.id, updatedAt: new Date() },
        });
      await tx
        .update(user)
        .set({ setupStatus: 'completed', updatedAt: new Date() })
        .where(eq(user.id, userId));
      return { workspaceId: workspace.id };
    });
  } catch (error) {
    await db.update(user).set({ setupStartedAt: null }).where(eq(user.id, userId));
    if (error instanceof AppError) throw error;
    throw new AppError('internal', 'errors.organizationNotSetUp');
  }
}
