import { and, asc, desc, eq, isNull, or, type SQL } from 'drizzle-orm';
import { type Db, first } from '../../db/client';
import { healthCheckComponents, templates } from '../../db/schema/health-checks';

const summary = {
  id: templates.id,
  title: templates.title,
  description: templates.description,
  type: templates.type,
  isGlobal: templates.isGlobal,
  workspaceId: templates.workspaceId,
  createdAt: templates.createdAt,
  createdBy: templates.createdBy,
  settings: templates.settings,
};

/**
 * Global templates, and those of `workspaceId` when given; global first, health checks before loops, then newest. Never a launch's snapshot
 * (it belongs to its check).
 */
export async function findTemplates(db: Db, options: { workspaceId: string | null; type?: string }) {
  const scope = options.workspaceId
    ? or(eq(templates.isGlobal, true), eq(templates.workspaceId, options.workspaceId))
    : and(eq(templates.isGlobal, true), isNull(templates.workspaceId));
  const conditions: SQL[] = [scope ?? eq(templates.isGlobal, true), eq(templates.isSnapshot, false)];
  if (options.type) conditions.push(eq(templates.type, options.type));
  return db
    .select(summary)
    .from(templates)
    .where(and(...conditions))
    .orderBy(desc(templates.isGlobal), asc(templates.type), desc(templates.createdAt), asc(templates.title));
}

/** A template by id; a launch's snapshot is not one (its check reads its components by the check's template_id). */
export async function findTemplate(db: Db, templateId: string) {
  return first(
    db
      .select(summary)
      .from(templates)
      .where(and(eq(templates.id, templateId), eq(templates.isSnapshot, false))),
  );
}

export async function findComponents(db: Db, templateId: string) {
  return db
    .select({
      id: healthCheckComponents.id,
      key: healthCheckComponents.key,
      title: healthCheckComponents.title,
      description: healthCheckComponents.description,
      category: healthCheckComponents.category,
      orderIndex: healthCheckComponents.orderIndex,
      enabled: healthCheckComponents.enabled,
      examples: healthCheckComponents.examples,
    })
    .from(healthCheckComponents)
    .where(eq(healthCheckComponents.templateId, templateId))
    .orderBy(asc(healthCheckComponents.orderIndex), asc(healthCheckComponents.key));
}

export async function insertTemplate(db: Db, values: typeof templates.$inferInsert) {
  const [row] = await db.insert(templates).values(values).returning({ id: templates.id });
  if (!row) throw new Error('template insert returned nothing');
  return row.id;
}

export async function insertComponents(db: Db, rows: (typeof healthCheckComponents.$inferInsert)[]) {
  if (rows.length > 0) await db.insert(healthCheckComponents).values(rows);
}

export async function updateTemplate(
  db: Db,
  templateId: string,
  values: Partial<typeof templates.$inferInsert>,
) {
  await db.update(templates).set(values).where(eq(templates.id, templateId));
}

/** Deletes the template; answers whether there was one to delete. */
export async function deleteTemplate(db: Db, templateId: string) {
  const deleted = await db
    .delete(templates)
    .where(eq(templates.id, templateId))
    .returning({ id: templates.id });
  return deleted.length > 0;
}
