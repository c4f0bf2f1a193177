import type { UnsubscribableSetting } from '@pulsecheck/shared/account/schemas';
import { DEFAULT_SETTINGS } from '@pulsecheck/shared/health-checks/schemas';
import { and, eq, ne, sql } from 'drizzle-orm';
import { type Db, first, queryRows } from '../../db/client';
import { user } from '../../db/schema/auth';
import { avatars } from '../../db/schema/messaging';

export async function findProfile(db: Db, userId: string) {
  return first(
    db
      .select({
        fullName: user.name,
        email: user.email,
        role: user.role,
        department: user.department,
        bio: user.bio,
        avatarId: user.avatarId,
      })
      .from(user)
      .where(eq(user.id, userId)),
  );
}

export async function updateProfile(
  db: Db,
  userId: string,
  values: { fullName: string; role: string | null; department: string | null; bio: string | null },
) {
  await db
    .update(user)
    .set({
      name: values.fullName,
      role: values.role,
      department: values.department,
      bio: values.bio,
      updatedAt: new Date(),
    })
    .where(eq(user.id, userId));
}

/** Stores the new photo, points the user at it and drops the old ones, in one transaction. */
export async function replaceAvatar(db: Db, userId: string, contentType: string, data: Buffer) {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(avatars)
      .values({ userId, contentType, data, size: data.length })
      .returning({ id: avatars.id });
    if (!row) throw new Error('avatar insert returned nothing');
    await tx.update(user).set({ avatarId: row.id, updatedAt: new Date() }).where(eq(user.id, userId));
    await tx.delete(avatars).where(and(eq(avatars.userId, userId), ne(avatars.id, row.id)));
    return row.id;
  });
}

export async function findAvatar(db: Db, id: string) {
  return first(
    db
      .select({ contentType: avatars.contentType, data: avatars.data })
      .from(avatars)
      .where(eq(avatars.id, id)),
  );
}

export async function findPreferences(db: Db, userId: string) {
  return first(
    db
      .select({
        preferences: user.notificationPreferences,
        email: user.email,
        name: user.name,
        language: user.language,
      })
      .from(user)
      .where(eq(user.id, userId)),
  );
}

export async function savePreferences(db: Db, userId: string, preferences: unknown) {
  await db
    .update(user)
    .set({ notificationPreferences: preferences, updatedAt: new Date() })
    .where(eq(user.id, userId));
}

/** Turns e-mail settings off, keeping the rest as stored. */
export async function switchOffEmail(db: Db, userId: string, keys: readonly UnsubscribableSetting[]) {
  const off = Object.fromEntries(keys.map((key) => [key, false]));
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update "user" set notification_preferences =
          coalesce(notification_preferences, '{}'::jsonb)
            || jsonb_build_object('emailNotifications',
                 coalesce(notification_preferences->'emailNotifications', '{}'::jsonb) || ${JSON.stringify(off)}::jsonb),
          updated_at = now()
        where id = ${userId} returning id`,
  );
  return rows.length > 0;
}

/** Users with admin or member access somewhere, with their stored notification settings. */
export async function teamUsersWithPreferences(db: Db) {
  return queryRows<{ id: string; preferences: unknown }>(
    db,
    sql`select u.id, u.notification_preferences as preferences from "user" u
        where exists (select 1 from workspace_members m where m.user_id = u.id and m.status = 'active'
                      and m.access in ('admin', 'member'))`,
  );
}

export type DigestRow = {
  workspace: string;
  id: string;
  title: string;
  status: string;
  phase: string;
  min_responses: number;
  participants: number;
  completed: number;
  ratings: number;
  healthy: number;
  fire: number;
};

/**
 * The checks of the user's workspaces worth a digest: still running, or completed since `since`, each with
 * its participation and rating shares, aggregated in SQL per check (through the check's indexes, not over
 * every check's rows). Ratings are not even counted while a check collects: nobody sees figures then
 * (PRODUCT-DECISIONS 3), so two digests cannot differ by one person's answers.
 */
export async function digestFor(db: Db, userId: string, since: Date) {
  return queryRows<DigestRow>(
    db,
    sql`select w.name as workspace, hc.id, hc.title, hc.status, hc.phase,
               coalesce((hc.settings->>'minResponses')::int, ${DEFAULT_SETTINGS.minResponses}) as min_responses,
               coalesce(p.total, 0)::int as participants, coalesce(p.completed, 0)::int as completed,
               coalesce(r.total, 0)::int as ratings, coalesce(r.healthy, 0)::int as healthy,
               coalesce(r.fire, 0)::int as fire
        from workspace_members m
        join workspaces w on w.id = m.workspace_id
        join health_checks hc on hc.workspace_id = w.id
        cross join lateral (
          select count(*) as total, count(*) filter (where status = 'completed') as completed
          from participants where health_check_id = hc.id) p
        cross join lateral (
          select count(*) as total, count(*) filter (where rating = 'healthy') as healthy,
                 count(*) filter (where rating = 'fire-warning') as fire
          from health_check_ratings where health_check_id = hc.id and hc.phase <> 'collect') r
        where m.user_id = ${userId} and m.status = 'active' and m.access in ('admin', 'member')
          and (hc.status <> 'completed' or hc.completed_at >= ${since.toISOString()})
        order by w.name, hc.created_at desc
        limit 50`,
  );
}

/** Participants who have not finished a check that is still collecting, a day after they joined. */
export async function participantsToRemind(db: Db, joinedBefore: Date) {
  return queryRows<{ health_check_id: string; title: string; user_id: string }>(
    db,
    sql`select p.health_check_id, hc.title, p.user_id from participants p
        join health_checks hc on hc.id = p.health_check_id
        where hc.phase = 'collect' and p.status in ('pending', 'in_progress') and p.user_id is not null
          and p.created_at < ${joinedBefore.toISOString()}
        order by p.health_check_id`,
  );
}

/** New completed responses of a check in a window, and where the check stands. */
export async function responsesBetween(db: Db, healthCheckId: string, from: Date, to: Date) {
  const [row] = await queryRows<{ title: string; fresh: number; completed: number; total: number }>(
    db,
    sql`select hc.title,
               count(p.id) filter (where p.completed_at >= ${from.toISOString()} and p.completed_at < ${to.toISOString()})::int as fresh,
               count(p.id) filter (where p.status = 'completed')::int as completed,
               count(p.id)::int as total
        from health_checks hc left join participants p on p.health_check_id = hc.id
        where hc.id = ${healthCheckId} group by hc.id, hc.title`,
  );
  return row;
}
