import { eq, inArray } from 'drizzle-orm';
import { first, type Db } from '../../db/client';
import { healthChecks } from '../../db/schema/health-checks';
import { organizationLogos, organizations, workspaces } from '../../db/schema/organizations';

/** The organisation's branding as participants see it: its name, logo id and accent colour. */
export async function findBranding(db: Db, organizationId: string) {
  return first(
    db
      .select({
        name: organizations.name,
        accentColor: organizations.accentColor,
        logoId: organizationLogos.id,
      })
      .from(organizations)
      .leftJoin(organizationLogos, eq(organizationLogos.organizationId, organizations.id))
      .where(eq(organizations.id, organizationId)),
  );
}

/** The branding of the organisations the workspaces belong to, one statement for any number of workspaces. */
export async function findBrandingOfWorkspaces(db: Db, workspaceIds: string[]) {
  if (workspaceIds.length === 0) return [];
  return db
    .select({
      workspaceId: workspaces.id,
      name: organizations.name,
      accentColor: organizations.accentColor,
      logoId: organizationLogos.id,
    })
    .from(workspaces)
    .innerJoin(organizations, eq(organizations.id, workspaces.organizationId))
    .leftJoin(organizationLogos, eq(organizationLogos.organizationId, organizations.id))
    .where(inArray(workspaces.id, workspaceIds));
}

export async function findWorkspaceOfHealthCheck(db: Db, healthCheckId: string) {
  const row = await first(
    db
      .select({ workspaceId: healthChecks.workspaceId })
      .from(healthChecks)
      .where(eq(healthChecks.id, healthCheckId)),
  );
  return row?.workspaceId ?? null;
}

export async function setAccentColor(db: Db, organizationId: string, accentColor: string | null) {
  await db.update(organizations).set({ accentColor }).where(eq(organizations.id, organizationId));
}

/** Replaces the logo: a new id each time, so a logo's URL always shows the same image. */
export async function replaceLogo(db: Db, organizationId: string, contentType: string, data: Buffer) {
  await db.transaction(async (tx) => {
    await tx.delete(organizationLogos).where(eq(organizationLogos.organizationId, organizationId));
    await tx.insert(organizationLogos).values({ organizationId, contentType, data });
  });
}

export async function removeLogo(db: Db, organizationId: string) {
  await db.delete(organizationLogos).where(eq(organizationLogos.organizationId, organizationId));
}

export async function findLogo(db: Db, id: string) {
  return first(
    db
      .select({ contentType: organizationLogos.contentType, data: organizationLogos.data })
      .from(organizationLogos)
      .where(eq(organizationLogos.id, id)),
  );
}
