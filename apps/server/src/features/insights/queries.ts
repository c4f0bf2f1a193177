import { PRIVACY_FLOOR } from '@pulsecheck/shared/insights/rules';
import { DEFAULT_SETTINGS } from '@pulsecheck/shared/health-checks/schemas';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { CATALOGUE } from '../../db/catalogue';
import { sqlList } from '../../db/schema/columns';

/**
 * SQL of organisation insights. Completed checks are summed once into health_check_summaries and
 * health_check_tallies (decision 0010); the heat map then reads those sums, never the ratings.
 */

/**
 * Sums every completed check of the organisation not summed yet: its completed participants, and per component its
 * ratings and dots (the counts the results show). A completed check's ratings and dots no longer change, so the
 * sums stay true; a repeat or a concurrent call adds nothing twice.
 */
export async function summarizeCompletedChecks(db: Db, organizationId: string) {
  await db.execute(sql`
    with todo as (
      select h.id, h.template_id from health_checks h join workspaces w on w.id = h.workspace_id
      where w.organization_id = ${organizationId} and h.status = 'completed'
        and not exists (select 1 from health_check_summaries s where s.health_check_id = h.id)
    ),
    summaries as (
      insert into health_check_summaries (health_check_id, completed)
      select t.id, (select count(*) from participants p
                    where p.health_check_id = t.id and p.status = 'completed')::int
      from todo t
      on conflict do nothing
      returning health_check_id
    )
    insert into health_check_tallies
      (health_check_id, key, order_index, healthy, needs_improvement, fire_warning, dont_know, dots)
    select t.id, c.key, c.order_index,
           coalesce(r.healthy, 0), coalesce(r.needs_improvement, 0), coalesce(r.fire_warning, 0),
           coalesce(r.dont_know, 0), coalesce(v.dots, 0)
    from todo t
    join summaries s on s.health_check_id = t.id
    join health_check_components c on c.template_id = t.template_id and c.enabled
    left join lateral (
      select count(*) filter (where rating = 'healthy')::int as healthy,
             count(*) filter (where rating = 'needs-improvement')::int as needs_improvement,
             count(*) filter (where rating = 'fire-warning')::int as fire_warning,
             count(*) filter (where rating = 'dont-know')::int as dont_know
      from health_check_ratings where health_check_id = t.id and component_id = c.id
    ) r on true
    left join lateral (
      select sum(count)::int as dots from health_check_votes where health_check_id = t.id and component_id = c.id
    ) v on true
    on conflict do nothing`);
}

/** The floor of a check's figures in SQL: its minResponses, never fewer than PRIVACY_FLOOR (privacyFloor). */
const floorOf = (settings: string) =>
  sql`greatest(${PRIVACY_FLOOR}::int, coalesce((${sql.raw(settings)}->>'minResponses')::int, ${DEFAULT_SETTINGS.minResponses}::int))`;

/** The catalogue's keys: the heat map's rows; other components (a custom template's) are not compared. */
const CATALOGUE_KEYS = sqlList(CATALOGUE.map((c) => c.key));

/**
 * The shown figures of every summed completed check of the organisation: a check whose completed participants
 * reach its floor, and of it each catalogue component whose ratings do. `rank` 1 is a workspace's latest check.
 */
const shownCells = (organizationId: string) => sql`
  checks as (
    select h.id, h.workspace_id, h.title, h.completed_at, ${floorOf('h.settings')} as floor, s.completed,
           row_number() over (partition by h.workspace_id order by h.completed_at desc, h.id desc) as rank
    from health_checks h
    join workspaces w on w.id = h.workspace_id
    join health_check_summaries s on s.health_check_id = h.id
    where w.organization_id = ${organizationId} and h.status = 'completed' and h.completed_at is not null
  ),
  cells as (
    select c.workspace_id, c.id as check_id, c.rank, c.completed_at, t.key, t.order_index,
           t.healthy, t.needs_improvement, t.fire_warning, t.dont_know, t.dots,
           t.healthy + t.needs_improvement + t.fire_warning + t.dont_know >= c.floor as shown
    from checks c join health_check_tallies t on t.health_check_id = c.id
    where c.completed >= c.floor and t.key in ${CATALOGUE_KEYS}
  )`;

export type TeamRow = {
  id: string;
  name: string;
  checkId: string | null;
  checkTitle: string | null;
  completedAt: string | Date | null;
  responses: number | null;
  floor: number | null;
  /** Sums over the shown cells of the team's previous shown check (null without one). */
  previous: { healthy: number; needsImprovement: number; fireWarning: number; dontKnow: number } | null;
};

/** Every workspace of the organisation with its latest completed check (if any) and that check's previous. */
export async function teams(db: Db, organizationId: string) {
  return queryRows<TeamRow>(
    db,
    sql`with ${shownCells(organizationId)},
        latest as (select * from checks where rank = 1),
        totals as (
          select workspace_id, check_id, rank,
                 sum(healthy)::int as healthy, sum(needs_improvement)::int as needs_improvement,
                 sum(fire_warning)::int as fire_warning, sum(dont_know)::int as dont_know,
                 row_number() over (partition by workspace_id order by rank) as shown_rank
          from cells where shown group by workspace_id, check_id, rank
        )
        select w.id, w.name, l.id as "checkId", l.title as "checkTitle", l.completed_at as "completedAt",
               l.completed as responses, l.floor,
               case when p.check_id is null then null else json_build_object(
                 'healthy', p.healthy, 'needsImprovement', p.needs_improvement,
                 'fireWarning', p.fire_warning, 'dontKnow', p.dont_know) end as previous
        from workspaces w
        left join latest l on l.workspace_id = w.id
        left join totals p on p.workspace_id = w.id and p.shown_rank = 2
          and exists (select 1 from totals t1 where t1.workspace_id = w.id and t1.rank = 1)
        where w.organization_id = ${organizationId}
        order by lower(w.name), w.id`,
  );
}

export type CellRow = {
  workspaceId: string;
  key: string;
  orderIndex: number;
  shown: boolean;
  healthy: number;
  needsImprovement: number;
  fireWarning: number;
  dontKnow: number;
  dots: number;
  /** The same component in the team's latest earlier check that shows it; null without one. */
  before: [number, number, number, number] | null;
};

/**
 * The cells of each workspace's latest check whose completed participants reach its floor, with the counts of the
 * same component in the team's previous check that shows it (for the arrows). `shown` false: too few ratings.
 */
export async function latestCells(db: Db, organizationId: string) {
  return queryRows<CellRow>(
    db,
    sql`with ${shownCells(organizationId)},
        keyed as (
          select workspace_id, key, rank,
                 lead(json_build_array(healthy, needs_improvement, fire_warning, dont_know))
                   over (partition by workspace_id, key order by rank) as before
          from cells where shown
        )
        select c.workspace_id as "workspaceId", c.key, c.order_index as "orderIndex", c.shown,
               c.healthy, c.needs_improvement as "needsImprovement", c.fire_warning as "fireWarning",
               c.dont_know as "dontKnow", c.dots, k.before
        from cells c left join keyed k on k.workspace_id = c.workspace_id and k.key = c.key and k.rank = 1
        where c.rank = 1`,
  );
}

export async function organizationName(db: Db, organizationId: string) {
  const [row] = await queryRows<{ name: string }>(
    db,
    sql`select name from organizations where id = ${organizationId}`,
  );
  return row?.name ?? null;
}
