import { FORMER_MEMBER } from '@pulsecheck/shared/account/deletion';
import { eq, sql } from 'drizzle-orm';
import { type Db, first, queryRows } from '../../db/client';
import { healthChecks } from '../../db/schema/health-checks';
import { workspaces } from '../../db/schema/organizations';

export async function findCheck(db: Db, healthCheckId: string) {
  return first(
    db
      .select({
        id: healthChecks.id,
        title: healthChecks.title,
        description: healthChecks.description,
        phase: healthChecks.phase,
        status: healthChecks.status,
        settings: healthChecks.settings,
        createdAt: healthChecks.createdAt,
        completedAt: healthChecks.completedAt,
        createdBy: healthChecks.createdBy,
        workspaceId: healthChecks.workspaceId,
        templateId: healthChecks.templateId,
        workspaceName: workspaces.name,
      })
      .from(healthChecks)
      .innerJoin(workspaces, eq(workspaces.id, healthChecks.workspaceId))
      .where(eq(healthChecks.id, healthCheckId)),
  );
}

export type Check = NonNullable<Awaited<ReturnType<typeof findCheck>>>;

/** Participants of a check (all, and completed), and the caller's own status, in one round trip. */
export async function participantSummary(db: Db, healthCheckId: string, userId: string) {
  const [row] = await queryRows<{ total: number; completed: number; mine: string | null }>(
    db,
    sql`select count(*)::int as total,
               count(*) filter (where status = 'completed')::int as completed,
               max(status) filter (where user_id = ${userId}) as mine
        from participants where health_check_id = ${healthCheckId}`,
  );
  return { total: row?.total ?? 0, completed: row?.completed ?? 0, mine: row?.mine ?? null };
}

export type Tally = {
  id: string;
  key: string;
  title: string | null;
  description: string | null;
  category: string | null;
  orderIndex: number;
  healthy: number;
  needsImprovement: number;
  fireWarning: number;
  dontKnow: number;
  dots: number;
};

/**
 * The bare aggregate: a check's ratings counted per component and rating, over every rating (the index on
 * (health_check_id, component_id, rating) answers it without reading the table).
 */
const countRatings = (healthCheckId: string) => sql`
  select component_id, rating, count(*)::int as n from health_check_ratings
  where health_check_id = ${healthCheckId} group by component_id, rating`;

/** What `countRatings` answers, as rows (the benchmark's baseline). */
export async function ratingCounts(db: Db, healthCheckId: string) {
  return queryRows<{ component_id: string; rating: string; n: number }>(db, countRatings(healthCheckId));
}

/**
 * Stores the check's rating counts (`health_checks.rating_counts`) once its collection has ended; a no-op while it
 * collects and once they are stored. Its ratings never change from then on: submit is refused outside `collect`
 * and takes the check's row lock, as this update does, and the phase only moves on. So results count 290,000
 * ratings once instead of at every read (10,000 participants × 29 components; bench/README, results).
 */
export async function storeRatingCounts(db: Db, healthCheckId: string) {
  await db.execute(sql`
    update health_checks
    set rating_counts = (select coalesce(jsonb_agg(jsonb_build_array(c.component_id, c.rating, c.n)), '[]'::jsonb)
                         from (${countRatings(healthCheckId)}) c)
    where id = ${healthCheckId} and phase <> 'collect' and rating_counts is null`);
}

/**
 * Per enabled component of the check: counts per rating and dots, in one query after `storeRatingCounts`. The
 * counts are the stored ones once collection has ended, else counted from the ratings; dots are pre-aggregated so
 * no join multiplies them.
 */
export async function componentTallies(db: Db, check: { id: string; templateId: string }): Promise<Tally[]> {
  await storeRatingCounts(db, check.id);
  const count = (rating: string) => sql`coalesce(sum(r.n) filter (where r.rating = ${rating}), 0)::int`;
  return queryRows<Tally>(
    db,
    sql`select c.id, c.key, c.title, c.description, c.category, c.order_index as "orderIndex",
               ${count('healthy')} as healthy,
               ${count('needs-improvement')} as "needsImprovement",
               ${count('fire-warning')} as "fireWarning",
               ${count('dont-know')} as "dontKnow",
               coalesce(max(v.dots), 0)::int as dots
        from health_check_components c
        left join (
          select (e->>0)::uuid as component_id, e->>1 as rating, (e->>2)::int as n
          from health_checks h cross join jsonb_array_elements(h.rating_counts) e
          where h.id = ${check.id}
          union all
          select * from (${countRatings(check.id)}) live
          where not exists (select 1 from health_checks where id = ${check.id} and rating_counts is not null)
        ) r on r.component_id = c.id
        left join (
          select component_id, sum(count) as dots from health_check_votes
          where health_check_id = ${check.id} group by component_id
        ) v on v.component_id = c.id
        where c.template_id = ${check.templateId} and c.enabled
        group by c.id
        order by c.order_index, c.id`,
  );
}

/**
 * Comments of the check, one row per component holding its comments as a JSON array (a few rows to transfer
 * instead of one per comment). A name is looked up only for a comment written while the check was not anonymous
 * and only while it still is not (the stricter of the two wins, PRODUCT-DECISIONS 3). The order follows the
 * text (md5), never submission times, so the position of a comment links it to no one.
 */
export async function componentComments(db: Db, healthCheckId: string, checkAnonymous: boolean) {
  type Row = { componentId: string; items: { content: string; name?: string | null }[] };
  // An anonymous check needs no names at all: not even the lookup is written into the query.
  const name = checkAnonymous
    ? sql``
    : sql`, 'name', case when co.anonymous then null
                         else coalesce((select u.name from participants p join "user" u on u.id = p.user_id
                                        where p.id = co.participant_id), ${FORMER_MEMBER}) end`;
  return queryRows<Row>(
    db,
    sql`select co.component_id as "componentId",
               json_agg(json_build_object('content', co.content${name}) order by md5(co.content), co.content)
                 as items
        from comments co
        where co.health_check_id = ${healthCheckId} and length(trim(co.content)) > 0
        group by co.component_id`,
  );
}

/** The workspace's latest completed check before this one, with its completed count, for the trend. */
export async function previousCompletedCheck(db: Db, check: Check) {
  const [row] = await queryRows<{
    id: string;
    title: string;
    templateId: string;
    completedAt: string | Date | null;
    settings: { minResponses?: number } | null;
    completed: number;
  }>(
    db,
    sql`select h.id, h.title, h.template_id as "templateId", h.completed_at as "completedAt", h.settings,
               (select count(*) from participants p
                where p.health_check_id = h.id and p.status = 'completed')::int as completed
        from health_checks h
        where h.workspace_id = ${check.workspaceId} and h.id <> ${check.id} and h.status = 'completed'
          and h.completed_at is not null
          and h.completed_at < coalesce(${check.completedAt?.toISOString() ?? null}::timestamptz, now())
        order by h.completed_at desc limit 1`,
  );
  return row;
}

/** How many participants have placed dots. */
export async function votersCount(db: Db, healthCheckId: string) {
  const [row] = await queryRows<{ voted: number }>(
    db,
    sql`select count(distinct participant_id)::int as voted from health_check_votes
        where health_check_id = ${healthCheckId}`,
  );
  return row?.voted ?? 0;
}

export const FOLLOW_UP_JOB = 'results.follow-up';

export async function pendingFollowUp(db: Db, healthCheckId: string) {
  const [row] = await queryRows<{ date: string }>(
    db,
    sql`select payload->>'date' as date from jobs
        where kind = ${FOLLOW_UP_JOB} and status = 'pending' and payload->>'healthCheckId' = ${healthCheckId}
        order by created_at desc limit 1`,
  );
  return row ?? null;
}

/** Drops pending follow-ups of a check other than `keepKey` (a new date replaces the old one). */
export async function cancelOtherFollowUps(db: Db, healthCheckId: string, keepKey: string) {
  await db.execute(
    sql`delete from jobs where kind = ${FOLLOW_UP_JOB} and status = 'pending'
        and payload->>'healthCheckId' = ${healthCheckId} and unique_key <> ${keepKey}`,
  );
}

export async function userContact(db: Db, userId: string) {
  const [row] = await queryRows<{ email: string; name: string }>(
    db,
    sql`select email, name from "user" where id = ${userId}`,
  );
  return row;
}
