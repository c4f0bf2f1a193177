import { sql } from 'drizzle-orm';
import { OVERDUE_AFTER_DAYS } from '@pulsecheck/shared/health-checks/rules';
import { queryRows, type Db } from '../../db/client';

type ItemRow = {
  id: string;
  title: string;
  description: string | null;
  status: string;
  phase: string;
  created_at: string | Date;
  phase_started_at: string | Date;
  completed_at: string | Date | null;
  responses: number;
  total: number;
  completion_rate: number;
  overdue: boolean;
};

/** Per check: responses (completed participants), participants, completion rate and overdue, in SQL. */
const items = (workspaceId: string) => sql`
  select hc.id, hc.title, hc.description, hc.status, hc.phase, hc.created_at, hc.phase_started_at,
         hc.completed_at,
         (count(p.id) filter (where p.status = 'completed'))::int as responses,
         count(p.id)::int as total,
         case when count(p.id) = 0 then 0
              else round((count(p.id) filter (where p.status = 'completed')) * 100.0 / count(p.id))::int end
           as completion_rate,
         (hc.phase = 'collect' and hc.phase_started_at < now() - make_interval(days => ${OVERDUE_AFTER_DAYS}))
           as overdue
  from health_checks hc
  left join participants p on p.health_check_id = hc.id
  where hc.workspace_id = ${workspaceId}
  group by hc.id`;

export async function findDashboardItems(db: Db, workspaceId: string) {
  return queryRows<ItemRow>(db, sql`${items(workspaceId)} order by hc.created_at desc`);
}

type StatsRow = {
  active_count: number;
  completed_count: number;
  total_responses: number;
  avg_completion_rate: number;
};

/** The three stat cards and the tab counts (PRODUCT-DECISIONS 9), aggregated over the items in SQL. */
export async function findDashboardStats(db: Db, workspaceId: string) {
  const [row] = await queryRows<StatsRow>(
    db,
    sql`with items as (${items(workspaceId)})
        select (count(*) filter (where status in ('phase_1', 'phase_2')))::int as active_count,
               (count(*) filter (where status = 'completed'))::int as completed_count,
               coalesce(sum(responses), 0)::int as total_responses,
               coalesce(round(avg(completion_rate)), 0)::int as avg_completion_rate
        from items`,
  );
  return row ?? { active_count: 0, completed_count: 0, total_responses: 0, avg_completion_rate: 0 };
}
