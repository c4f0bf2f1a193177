import { sql } from 'drizzle-orm';
import { OVERDUE_AFTER_DAYS } from '@pulsecheck/shared/health-checks/rules';
import { queryRows, type Db } from '../../db/client';

type ItemRow = {
  id: string;
  title: string;
  description: string | null;
  phase: string;
  created_at: string | Date;
  phase_started_at: string | Date;
  completed_at: string | Date | null;
  responses: number;
  total: number;
  overdue: boolean;
};

/** Per check of the workspace, newest first: responses (completed participants), participants and overdue. */
export async function findDashboardItems(db: Db, workspaceId: string) {
  return queryRows<ItemRow>(
    db,
    sql`
  select hc.id, hc.title, hc.description, hc.phase, hc.created_at, hc.phase_started_at, hc.completed_at,
         (count(p.id) filter (where p.status = 'completed'))::int as responses,
         count(p.id)::int as total,
         (hc.phase = 'collect' and hc.phase_started_at < now() - make_interval(days => ${OVERDUE_AFTER_DAYS}))
           as overdue
  from health_checks hc
  left join participants p on p.health_check_id = hc.id
  where hc.workspace_id = ${workspaceId}
  group by hc.id
  order by hc.created_at desc`,
  );
}
