import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import { notifications } from '../../db/schema/messaging';

export async function latestOf(db: Db, userId: string, limit: number) {
  return db
    .select({
      id: notifications.id,
      type: notifications.type,
      message: notifications.message,
      link: notifications.link,
      healthCheckId: notifications.healthCheckId,
      readAt: notifications.readAt,
      createdAt: notifications.createdAt,
    })
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit);
}

export async function unreadCount(db: Db, userId: string) {
  const [row] = await queryRows<{ unread: number }>(
    db,
    sql`select count(*)::int as unread from notifications where user_id = ${userId} and read_at is null`,
  );
  return row?.unread ?? 0;
}

/** Marks one of the user's notifications read; false when it is not theirs (or does not exist). */
export async function markRead(db: Db, userId: string, id: string) {
  const rows = await db
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, now())` })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning({ id: notifications.id });
  return rows.length > 0;
}

export async function markAllRead(db: Db, userId: string) {
  await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
}
