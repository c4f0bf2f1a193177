import { and, eq, sql } from 'drizzle-orm';
import { type Db, first, queryRows } from '../../db/client';
import {
  actionItemMentions,
  actionItems,
  healthCheckComponents,
  healthChecks,
} from '../../db/schema/health-checks';

type ItemRow = {
  id: string;
  componentId: string | null;
  description: string;
  dueDate: string | null;
  status: string;
  completedAt: string | Date | null;
  createdAt: string | Date;
  updatedAt: string | Date;
  ownerId: string | null;
  ownerName: string | null;
  ownerEmail: string | null;
};

/** Action items of a check with owner and mentioned people: two queries whatever the number of items. */
export async function itemsOfCheck(db: Db, healthCheckId: string, itemId?: string) {
  const items = await queryRows<ItemRow>(
    db,
    sql`select a.id, a.component_id as "componentId", a.description, a.due_date::text as "dueDate", a.status,
               a.completed_at as "completedAt",
               a.created_at as "createdAt", a.updated_at as "updatedAt",
               u.id as "ownerId", u.name as "ownerName", u.email as "ownerEmail"
        from action_items a left join "user" u on u.id = a.owner_id
        where a.health_check_id = ${healthCheckId} ${itemId ? sql`and a.id = ${itemId}` : sql``}
        order by a.created_at, a.id`,
  );
  const mentions = await queryRows<{ actionItemId: string; id: string; name: string; email: string }>(
    db,
    sql`select m.action_item_id as "actionItemId", u.id, u.name, u.email
        from action_item_mentions m
        join action_items a on a.id = m.action_item_id
        join "user" u on u.id = m.user_id
        where a.health_check_id = ${healthCheckId} ${itemId ? sql`and a.id = ${itemId}` : sql``}
        order by u.name, u.id`,
  );
  return { items, mentions };
}

/** Active members of the workspace who have an account, optionally matching a name or e-mail. */
export async function workspacePeople(db: Db, workspaceId: string, query = '', limit = 50) {
  const like = `%${query.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
  return queryRows<{ id: string; name: string; email: string }>(
    db,
    sql`select u.id, u.name, u.email
        from workspace_members m join "user" u on u.id = m.user_id
        where m.workspace_id = ${workspaceId} and m.status = 'active'
          and (${query} = '' or u.name ilike ${like} or u.email ilike ${like})
        order by lower(u.name), u.email limit ${limit}`,
  );
}

/** Which of `userIds` are active members of the workspace. */
export async function membersAmong(db: Db, workspaceId: string, userIds: string[]) {
  if (userIds.length === 0) return new Set<string>();
  const rows = await queryRows<{ id: string }>(
    db,
    sql`select user_id as id from workspace_members
        where workspace_id = ${workspaceId} and status = 'active'
          and user_id in (${sql.join(
            userIds.map((id) => sql`${id}`),
            sql`, `,
          )})`,
  );
  return new Set(rows.map((r) => r.id));
}

export async function componentOfTemplate(db: Db, templateId: string, componentId: string) {
  return first(
    db
      .select({ id: healthCheckComponents.id })
      .from(healthCheckComponents)
      .where(
        and(eq(healthCheckComponents.templateId, templateId), eq(healthCheckComponents.id, componentId)),
      ),
  );
}

export async function findItem(db: Db, actionItemId: string) {
  return first(
    db
      .select({
        id: actionItems.id,
        healthCheckId: actionItems.healthCheckId,
        ownerId: actionItems.ownerId,
        status: actionItems.status,
      })
      .from(actionItems)
      .where(eq(actionItems.id, actionItemId)),
  );
}

export async function insertItem(db: Db, values: typeof actionItems.$inferInsert) {
  const [row] = await db.insert(actionItems).values(values).returning({ id: actionItems.id });
  return row!.id;
}

export async function updateItem(
  db: Db,
  actionItemId: string,
  values: Partial<
    Pick<typeof actionItems.$inferInsert, 'description' | 'ownerId' | 'dueDate' | 'status' | 'componentId'>
  >,
) {
  // Marked done: when, kept while it stays done; set back: no longer done (decision 0019).
  const completedAt =
    values.status === undefined
      ? {}
      : {
          completedAt:
            values.status === 'completed' ? sql`coalesce(${actionItems.completedAt}, now())` : sql`null`,
        };
  await db
    .update(actionItems)
    .set({ ...values, ...completedAt, updatedAt: new Date() })
    .where(eq(actionItems.id, actionItemId));
}

export async function mentionedIds(db: Db, actionItemId: string) {
  const rows = await db
    .select({ userId: actionItemMentions.userId })
    .from(actionItemMentions)
    .where(eq(actionItemMentions.actionItemId, actionItemId));
  return rows.map((r) => r.userId);
}

export async function replaceMentions(db: Db, actionItemId: string, userIds: string[]) {
  await db.delete(actionItemMentions).where(eq(actionItemMentions.actionItemId, actionItemId));
  if (userIds.length > 0) {
    await db.insert(actionItemMentions).values(userIds.map((userId) => ({ actionItemId, userId })));
  }
}

export async function findCheckBasics(db: Db, healthCheckId: string) {
  return first(
    db
      .select({
        id: healthChecks.id,
        title: healthChecks.title,
        workspaceId: healthChecks.workspaceId,
        templateId: healthChecks.templateId,
      })
      .from(healthChecks)
      .where(eq(healthChecks.id, healthCheckId)),
  );
}
