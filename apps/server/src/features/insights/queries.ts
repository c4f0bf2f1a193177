import type { FollowUpCounts } from '@pulsecheck/shared/action-items/follow-up';
import { DEFAULT_SETTINGS } from '@pulsecheck/shared/health-checks/schemas';
import { PRIVACY_FLOOR } from '@pulsecheck/shared/insights/rules';
import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/client';
import { CATALOGUE } from '../../db/catalogue';
import { sqlList } from '../../db/schema/columns';
import type { SummaryCell } from '../../db/schema/insights';

/**
 * SQL of organisation insights. A completed check is summed once into health_check_summaries and
 * health_check_tallies, with what the privacy floor lets show and the link to the team's previous shown check
 * (decision 0011); the heat map then reads those rows only, never the ratings.
 */

/** The catalogue's keys: the heat map's rows; other components (a custom template's) are not compared. */
const CATALOGUE_KEYS = sqlList(CATALOGUE.map((c) => c.key));

/** The organisation's completed checks not summed yet, as `h` (a FROM clause). */
const unsummarized = (organizationId: string) => sql`
  health_checks h join workspaces w on w.id = h.workspace_id
  where w.organization_id = ${organizationId} and h.status = 'completed' and h.completed_at is not null
    and not exists (select 1 from health_check_summaries s where s.health_check_id = h.id)`;

/**
 * Sums every completed check of the organisation not summed yet, in one transaction:
 * 1. per check its completed participants and floor (privacyFloor in SQL: its minResponses, never under 3);
 * 2. per component its ratings and dots, and whether that figure shows (check shown, ratings reach the floor);
 *    the check's totals over its shown catalogue components;
 * 3. the links to the team's previous shown check: of the check (the team's trend) and of each component (the
 *    arrow: the latest earlier check in which that component shows);
 * 4. the check's catalogue tallies as one JSON value, what the heat map reads.
 * A completed check's ratings, dots, settings and completion time no longer change, so the sums stay true; a repeat
 * or a concurrent call adds nothing twice.
 */
export async function summarizeCompletedChecks(db: Db, organizationId: string) {
  // Most reads find nothing new: one statement, no transaction, answers that.
  const [fresh] = await queryRows<{ pending: boolean }>(
    db,
    sql`select exists (select 1 from ${unsummarized(organizationId)}) as pending`,
  );
  if (!fresh?.pending) return;
  await db.transaction(async (tx) => {
    const [todo] = await queryRows<{ count: number }>(
      tx,
      sql`with todo as (
            select h.id, h.workspace_id, h.completed_at,
                   greatest(${PRIVACY_FLOOR}::int,
                            coalesce((h.settings->>'minResponses')::int, ${DEFAULT_SETTINGS.minResponses}::int)) as floor,
                   (select count(*) from participants p
                    where p.health_check_id = h.id and p.status = 'completed')::int as completed
            from ${unsummarized(organizationId)}
          ),
          inserted as (
            insert into health_check_summaries (health_check_id, workspace_id, completed_at, completed, floor, shown,
                                                healthy, needs_improvement, fire_warning, dont_know)
            select id, workspace_id, completed_at, completed, floor, completed >= floor, 0, 0, 0, 0 from todo
            on conflict do nothing
            returning health_check_id
          )
          select count(*)::int as count from inserted`,
    );
    if (!todo?.count) return;
    await tx.execute(sql`
      insert into health_check_tallies (health_check_id, key, order_index, healthy, needs_improvement, fire_warning,
                                        dont_know, dots, shown)
      select s.health_check_id, c.key, c.order_index, r.healthy, r.needs_improvement, r.fire_warning, r.dont_know,
             coalesce(v.dots, 0),
             s.shown and r.healthy + r.needs_improvement + r.fire_warning + r.dont_know >= s.floor
      from health_check_summaries s
      join health_checks h on h.id = s.health_check_id
      join health_check_components c on c.template_id = h.template_id and c.enabled
      cross join lateral (
        select count(*) filter (where rating = 'healthy')::int as healthy,
               count(*) filter (where rating = 'needs-improvement')::int as needs_improvement,
               count(*) filter (where rating = 'fire-warning')::int as fire_warning,
               count(*) filter (where rating = 'dont-know')::int as dont_know
        from health_check_ratings where health_check_id = s.health_check_id and component_id = c.id
      ) r
      left join lateral (
        select sum(count)::int as dots from health_check_votes
        where health_check_id = s.health_check_id and component_id = c.id
      ) v on true
      where not s.linked
      on conflict do nothing`);
    await tx.execute(sql`
      update health_check_summaries s
      set healthy = t.healthy, needs_improvement = t.needs_improvement, fire_warning = t.fire_warning,
          dont_know = t.dont_know
      from (select health_check_id, sum(healthy)::int as healthy, sum(needs_improvement)::int as needs_improvement,
                   sum(fire_warning)::int as fire_warning, sum(dont_know)::int as dont_know
            from health_check_tallies where shown and key in ${CATALOGUE_KEYS} group by health_check_id) t
      where t.health_check_id = s.health_check_id and not s.linked`);
    await tx.execute(sql`
      with earlier as (
        select t.health_check_id, t.key, b.healthy, b.needs_improvement, b.fire_warning, b.dont_know
        from health_check_tallies t
        join health_check_summaries s on s.health_check_id = t.health_check_id
        cross join lateral (
          select o.healthy, o.needs_improvement, o.fire_warning, o.dont_know
          from health_check_summaries os join health_check_tallies o on o.health_check_id = os.health_check_id
          where os.workspace_id = s.workspace_id and o.key = t.key and o.shown
            and (os.completed_at, os.health_check_id) < (s.completed_at, s.health_check_id)
          order by os.completed_at desc, os.health_check_id desc limit 1
        ) b
        where not s.linked and t.shown
      )
      update health_check_tallies t
      set before_healthy = e.healthy, before_needs_improvement = e.needs_improvement,
          before_fire_warning = e.fire_warning, before_dont_know = e.dont_know
      from earlier e
      where e.health_check_id = t.health_check_id and e.key = t.key`);
    await tx.execute(sql`
      update health_check_summaries s
      set cells = (
            select json_agg(json_build_array(t.key, t.order_index, t.shown, t.healthy, t.needs_improvement,
                                             t.fire_warning, t.dont_know, t.dots, t.before_healthy,
                                             t.before_needs_improvement, t.before_fire_warning, t.before_dont_know)
                            order by t.order_index, t.key)
            from health_check_tallies t where t.health_check_id = s.health_check_id and t.key in ${CATALOGUE_KEYS}),
          linked = true,
          previous_health_check_id = (
            select os.health_check_id from health_check_summaries os
            where os.workspace_id = s.workspace_id and os.shown
              and (os.completed_at, os.health_check_id) < (s.completed_at, s.health_check_id)
            order by os.completed_at desc, os.health_check_id desc limit 1)
      where not s.linked`);
  });
}

/** Each workspace's latest summed check (a completed check), as the CTE `latest`. */
const latestChecks = (organizationId: string) => sql`
  latest as (
    select distinct on (s.workspace_id) s.*
    from health_check_summaries s join workspaces w on w.id = s.workspace_id
    where w.organization_id = ${organizationId}
    order by s.workspace_id, s.completed_at desc, s.health_check_id desc
  )`;

type Counts = { healthy: number; needsImprovement: number; fireWarning: number; dontKnow: number };

export type TeamRow = {
  id: string;
  name: string;
  checkId: string | null;
  checkTitle: string | null;
  completedAt: string | Date | null;
  responses: number | null;
  shown: boolean | null;
  /** Sums over the check's shown catalogue components. */
  totals: Counts | null;
  /** The same sums of the team's previous shown check; null without one. */
  previous: Counts | null;
  /** The latest check's catalogue tallies, when the check is shown (never the figures of one that is not). */
  cells: SummaryCell[] | null;
};

const countsJson = (alias: string) =>
  sql.raw(`json_build_object('healthy', ${alias}.healthy, 'needsImprovement', ${alias}.needs_improvement,
    'fireWarning', ${alias}.fire_warning, 'dontKnow', ${alias}.dont_know)`);

/**
 * Every workspace of the organisation, with its latest completed check (if any), that check's tallies and its
 * previous shown check's totals: the heat map in one statement.
 */
export async function teams(db: Db, organizationId: string) {
  return queryRows<TeamRow>(
    db,
    sql`with ${latestChecks(organizationId)}
        select w.id, w.name, l.health_check_id as "checkId", h.title as "checkTitle",
               l.completed_at as "completedAt", l.completed as responses, l.shown,
               case when l.health_check_id is not null then ${countsJson('l')} end as totals,
               case when p.health_check_id is not null then ${countsJson('p')} end as previous,
               case when l.shown then l.cells end as cells
        from workspaces w
        left join latest l on l.workspace_id = w.id
        left join health_checks h on h.id = l.health_check_id
        left join health_check_summaries p on p.health_check_id = l.previous_health_check_id
        where w.organization_id = ${organizationId}
        order by lower(w.name), w.id`,
  );
}

/** A loop's latest closed round in the period, with its counts (insights' Loops section). */
export type LoopLatestRow = {
  loop_id: string;
  title: string;
  workspace_id: string;
  workspace_name: string;
  round_id: string;
  number: number;
  opened_at: string | Date;
  closed_at: string | Date;
  audience: number;
  answered: number;
  /** Whether the round reached its floor (`floor`): the loop is shown. */
  shown: boolean;
  floor: number;
  /** Whether the round asked an eNPS question, and that question's groups from the stored counts. */
  has_enps: boolean;
  promoters: number;
  passives: number;
  detractors: number;
};

/** A month of the organisation's trend: sums over the shown loops' rounds that reached their floor. */
export type LoopTrendRow = {
  month: string;
  rounds: number;
  teams: number;
  audience: number;
  answered: number;
  promoters: number;
  passives: number;
  detractors: number;
};

/**
 * The Loops section of insights in one statement, from what closing a round stored (`loop_rounds.answered` and
 * `loop_round_counts`, decision 0009), never from the answers: per closed round of the organisation's loops in
 * the period, its floor (privacyFloor: the round's minimum, never under 3), whether it reached it, and the groups
 * of its first eNPS question; then each loop's latest such round, and per month (of the round's opening, UTC) the
 * sums over the rounds that reached their floor of the loops whose latest round did. An eNPS question with fewer
 * answers than the floor adds nothing to a month's eNPS. The figures are made from these counts by stats.ts.
 */
export async function loopInsights(db: Db, organizationId: string, since: Date | null) {
  const [row] = await queryRows<{ latest: LoopLatestRow[] | null; trend: LoopTrendRow[] | null }>(
    db,
    sql`with rounds as materialized (
          select r.id, r.loop_id, r.number, r.opened_at, r.closed_at, r.audience,
                 coalesce(r.answered, 0) as answered, l.title, l.workspace_id, w.name as workspace_name,
                 coalesce(r.answered, 0) >= greatest(${PRIVACY_FLOOR}::int, r.min_responses) as shown,
                 greatest(${PRIVACY_FLOOR}::int, r.min_responses) as floor,
                 e.question_id is not null as has_enps,
                 coalesce(g.promoters, 0) as promoters, coalesce(g.passives, 0) as passives,
                 coalesce(g.detractors, 0) as detractors,
                 row_number() over (partition by r.loop_id order by r.closed_at desc, r.number desc) as recency
          from loop_rounds r
          join loops l on l.id = r.loop_id
          join workspaces w on w.id = l.workspace_id
          left join lateral (
            select q.id as question_id
            from unnest(r.question_ids) with ordinality as u(id, position)
            join loop_questions q on q.id = u.id and q.kind = 'enps'
            order by u.position limit 1
          ) e on true
          left join lateral (
            select sum(c.count) filter (where c.value >= 9)::int as promoters,
                   sum(c.count) filter (where c.value between 7 and 8)::int as passives,
                   sum(c.count) filter (where c.value <= 6)::int as detractors
            from loop_round_counts c where c.round_id = r.id and c.question_id = e.question_id
          ) g on true
          where w.organization_id = ${organizationId} and r.status = 'closed' and r.closed_at is not null
            ${since ? sql`and r.closed_at >= ${since.toISOString()}::timestamptz` : sql``}
        ),
        latest as (select * from rounds where recency = 1),
        pooled as (
          select r.* from rounds r join latest l on l.loop_id = r.loop_id and l.shown where r.shown
        )
        select
          (select json_agg(json_build_object(
                    'loop_id', loop_id, 'title', title, 'workspace_id', workspace_id,
                    'workspace_name', workspace_name, 'round_id', id, 'number', number, 'opened_at', opened_at,
                    'closed_at', closed_at, 'audience', audience, 'answered', answered, 'shown', shown,
                    'floor', floor, 'has_enps', has_enps,
                    'promoters', case when shown then promoters else 0 end,
                    'passives', case when shown then passives else 0 end,
                    'detractors', case when shown then detractors else 0 end)
                  order by lower(workspace_name), workspace_id, lower(title), loop_id)
           from latest) as latest,
          (select json_agg(t order by t.month)
           from (select to_char(opened_at at time zone 'UTC', 'YYYY-MM') as month,
                        count(*)::int as rounds, count(distinct workspace_id)::int as teams,
                        sum(audience)::int as audience, sum(answered)::int as answered,
                        sum(case when promoters + passives + detractors >= floor then promoters else 0 end)::int
                          as promoters,
                        sum(case when promoters + passives + detractors >= floor then passives else 0 end)::int
                          as passives,
                        sum(case when promoters + passives + detractors >= floor then detractors else 0 end)::int
                          as detractors
                 from pooled group by 1) t) as trend`,
  );
  return { latest: row?.latest ?? [], trend: row?.trend ?? [] };
}

/** One done action of a team as 'Actions that worked' reads it (WorkedAction in packages/shared, in a JSON array). */
export type WorkedActionTuple = [
  asked: boolean,
  checkShown: boolean,
  floor: number,
  counts: FollowUpCounts | null,
  before: [number, number, number, number] | null,
  after: [number, number, number, number] | null,
];

/**
 * 'Actions that worked' in one statement (decision 0019), after `summarizeCompletedChecks` and
 * `storeFollowUpCounts`: every workspace of the organisation with its action items done in the period (status
 * 'completed', done since `since`; without a done date only for all time), each with whether a completed check
 * asked about it, that check's floor and whether it shows, the question's stored answer counts, and the action's
 * component in the check it came from and in the check that asked, from the summed tallies and only where they show.
 * No answer is read; the floor and the pooling are applied by the shared rules (action-items/worked.ts).
 */
export async function workedActions(db: Db, organizationId: string, since: Date | null) {
  const tally = (alias: string) =>
    sql.raw(`case when ${alias}.shown then json_build_array(${alias}.healthy, ${alias}.needs_improvement,
      ${alias}.fire_warning, ${alias}.dont_know) end`);
  return queryRows<{ id: string; name: string; actions: WorkedActionTuple[] }>(
    db,
    sql`with done as materialized (
          select h.workspace_id, a.health_check_id as origin_id, c.key, q.health_check_id as asking_id, q.counts
          from workspaces w
          join health_checks h on h.workspace_id = w.id
          join action_items a on a.health_check_id = h.id
          left join health_check_components c on c.id = a.component_id
          left join follow_up_questions q on q.action_item_id = a.id
          where w.organization_id = ${organizationId} and a.status = 'completed'
            ${since ? sql`and a.completed_at >= ${since.toISOString()}::timestamptz` : sql``}
        ),
        grouped as (
          select d.workspace_id,
                 json_agg(json_build_array(
                   s.health_check_id is not null, coalesce(s.shown, false), coalesce(s.floor, 0),
                   case when s.health_check_id is not null then d.counts end,
                   ${tally('bt')}, ${tally('nt')})) as actions
          from done d
          left join health_check_summaries s on s.health_check_id = d.asking_id
          left join health_check_tallies bt on bt.health_check_id = d.origin_id and bt.key = d.key
          left join health_check_tallies nt on nt.health_check_id = s.health_check_id and nt.key = d.key
          group by d.workspace_id
        )
        select w.id, w.name, g.actions
        from grouped g join workspaces w on w.id = g.workspace_id
        order by lower(w.name), w.id`,
  );
}
