import { TEAM_MESSAGES } from '@pulsecheck/shared/team/schemas';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { organizationRoleSql, type OversightRole } from '../../auth/access';
import { type Db, first } from '../../db/client';
import { organizations, userPreferences, workspaceMembers, workspaces } from '../../db/schema/organizations';

/** Workspaces where the user has admin or member access, with their organisation and the user's role in it. */
export async function findManagedWorkspaces(db: Db, userId: string) {
  return db
    .select({
      id: workspaces.id,
      name: workspaces.name,
      organizationId: workspaces.organizationId,
      organizationName: organizations.name,
      organizationRole: sql<OversightRole | null>`${organizationRoleSql(userId, sql`${workspaces.organizationId}`)}`,
      isDefault: workspaces.isDefault,
      access: workspaceMembers.access,
      createdAt: workspaces.createdAt,
    })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .innerJoin(organizations, eq(organizations.id, workspaces.organizationId))
    .where(
      and(
        eq(workspaceMembers.userId, userId),
        eq(workspaceMembers.status, 'active'),
        inArray(workspaceMembers.access, ['admin', 'member']),
      ),
    )
    .orderBy(asc(organizations.name), asc(workspaces.createdAt));
}

export async function findPreferredWorkspaceId(db: Db, userId: string) {
  const row = await first(
    db
      .select({ id: userPreferences.activeWorkspaceId })
      .from(userPreferences)
      .where(eq(userPreferences.userId, userId)),
  );
  return row?.id ?? null;
}

export async function storePreferredWorkspace(db: Db, userId: string, workspaceId: string) {
  await db
    .insert(userPreferences)
    .values({ userId, activeWorkspaceId: workspaceId })
    .onConflictDoUpdate({
      target: userPreferences.userId,
      set: { activeWorkspaceId: workspaceId, updatedAt: new Date() },
    });
}

export async function findWorkspaceOrganization(db: Db, workspaceId: string) {
  const row = await first(
    db
      .select({ organizationId: workspaces.organizationId })
      .from(workspaces)
      .where(eq(workspaces.id, workspaceId)),
  );
  return row?.organizationId ?? null;
}

export async function insertWorkspace(
  db: Db,
  values: { name: string; organizationId: string; createdBy: string },
) {
  const [row] = await db.insert(workspaces).values(values).returning({ id: workspaces.id });
  if (!row) throw new Error('workspace insert returned nothing');
  await db.insert(workspaceMembers).values({
    workspaceId: row.id,
    userId: values.createdBy,
    access: 'admin',
    role: TEAM_MESSAGES.creatorRole,
    status: 'active',
  });
  return row.id;
}

/** Renames the workspace; answers its organisation and former name (for the audit log). */
export async function updateWorkspaceName(db: Db, workspaceId: string, name: string) {
  const [before] = await db
    .select({ name: workspaces.name, organizationId: workspaces.organizationId })
    .from(workspaces)
    .where(eq(workspaces.id, workspaceId))
    .for('update');
  await db.update(workspaces).set({ name, updatedAt: new Date() }).where(eq(workspaces.id, workspaceId));
  return before!;
}
