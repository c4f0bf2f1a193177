import { FORMER_MEMBER } from '@pulsecheck/shared/account/deletion';
import type { HealthCheckSettings } from '@pulsecheck/shared/health-checks/schemas';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { type Db, first, queryRows } from '../../db/client';
import { user } from '../../db/schema/auth';
import { healthCheckComponents, healthChecks, templates } from '../../db/schema/health-checks';

export async function findCheckByLaunchKey(db: Db, userId: string, launchKey: string) {
  const row = await first(
    db
      .select({ id: healthChecks.id })
      .from(healthChecks)
      .where(and(eq(healthChecks.createdBy, userId), eq(healthChecks.launchKey, launchKey))),
  );
  return row?.id ?? null;
}

/** A launch's snapshot: the template row its copied components hang off, owned by the check, never listed. */
export async function insertSnapshotTemplate(
  db: Db,
  values: { title: string; description: string; workspaceId: string; createdBy: string },
) {
  const [row] = await db
    .insert(templates)
    .values({ ...values, type: 'health-check', isGlobal: false, isSnapshot: true })
    .returning({ id: templates.id });
  if (!row) throw new Error('template insert returned nothing');
  return row.id;
}

export async function insertComponents(db: Db, rows: (typeof healthCheckComponents.$inferInsert)[]) {
  return db
    .insert(healthCheckComponents)
    .values(rows)
    .returning({ id: healthCheckComponents.id, key: healthCheckComponents.key });
}

/** Inserts the check unless this user already launched one with the same key; then returns null. */
export async function insertHealthCheck(db: Db, values: typeof healthChecks.$inferInsert) {
  const [row] = await db
    .insert(healthChecks)
    .values(values)
    .onConflictDoNothing({ target: [healthChecks.createdBy, healthChecks.launchKey] })
    .returning({ id: healthChecks.id });
  return row?.id ?? null;
}

/** The check's row, locked for the rest of the transaction, so two phase changes run one after the other. */
export async function lockHealthCheck(db: Db, healthCheckId: string) {
  return first(
    db
      .select({
        id: healthChecks.id,
        title: healthChecks.title,
        phase: healthChecks.phase,
        status: healthChecks.status,
        settings: healthChecks.settings,
        workspaceId: healthChecks.workspaceId,
        templateId: healthChecks.templateId,
        createdBy: healthChecks.createdBy,
      })
      .from(healthChecks)
      .where(eq(healthChecks.id, healthCheckId))
      .for('update'),
  );
}

export async function updatePhase(
  db: Db,
  healthCheckId: string,
  values: { phase: string; status: string; completed: boolean },
) {
  await db
    .update(healthChecks)
    .set({
      phase: values.phase,
      status: values.status,
      phaseStartedAt: sql`now()`,
      ...(values.completed ? { completedAt: sql`now()` } : {}),
    })
    .where(eq(healthChecks.id, healthCheckId));
}

export async function updateSettings(db: Db, healthCheckId: string, settings: HealthCheckSettings) {
  await db.update(healthChecks).set({ settings }).where(eq(healthChecks.id, healthCheckId));
}

type DetailRow = {
  id: string;
  title: string;
  description: string | null;
  phase: string;
  status: string;
  settings: HealthCheckSettings;
  created_at: string | Date;
  phase_started_at: string | Date;
  completed_at: string | Date | null;
  created_by: string | null;
  workspace_id: string;
  workspace_name: string;
  total: number;
  completed: number;
};

/** The check with its workspace and participant counts, in one query. */
export async function findHealthCheckDetail(db: Db, healthCheckId: string) {
  const [row] = await queryRows<DetailRow>(
    db,
    sql`select hc.id, hc.title, hc.description, hc.phase, hc.status, hc.settings, hc.created_at,
               hc.phase_started_at, hc.completed_at, hc.created_by, w.id as workspace_id, w.name as workspace_name,
               count(p.id)::int as total,
               (count(p.id) filter (where p.status = 'completed'))::int as completed
        from health_checks hc
        join workspaces w on w.id = hc.workspace_id
        left join participants p on p.health_check_id = hc.id
        where hc.id = ${healthCheckId}
        group by hc.id, w.id`,
  );
  return row;
}

type ParticipantRow = {
  id: string;
  name: string | null;
  email: string;
  status: 'pending' | 'in_progress' | 'completed';
  progress: number;
  last_activity: string | Date | null;
  completed_at: string | Date | null;
};

/** Participants with their names, status, progress and last activity: one query with a join. */
export async function findParticipants(db: Db, healthCheckId: string) {
  return queryRows<ParticipantRow>(
    db,
    sql`select p.id, coalesce(u.name, ${FORMER_MEMBER}) as name, coalesce(u.email, '') as email, p.status,
               p.progress, coalesce(p.last_activity, p.completed_at, p.created_at) as last_activity, p.completed_at
        from participants p
        left join "user" u on u.id = p.user_id
        where p.health_check_id = ${healthCheckId}
        order by p.created_at, u.name`,
  );
}

/**
 * Who hears of a phase change: the workspace's admins and members (`manages`), and the check's participants
 * with their status (what the release rule needs to know of each).
 */
export async function findPhaseRecipients(db: Db, healthCheckId: string) {
  return queryRows<{ user_id: string; manages: boolean; participant_status: string | null }>(
    db,
    sql`select coalesce(m.user_id, p.user_id) as user_id, (m.user_id is not null) as manages,
               p.status as participant_status
        from (select wm.user_id from health_checks hc
                join workspace_members wm on wm.workspace_id = hc.workspace_id
              where hc.id = ${healthCheckId} and wm.status = 'active' and wm.user_id is not null
                and wm.access in ('admin', 'member')) m
        full join (select user_id, status from participants
                   where health_check_id = ${healthCheckId} and user_id is not null) p
          on p.user_id = m.user_id`,
  );
}

/** The language each of these addresses' accounts chose (`user.language`), for the e-mails a launch sends. */
export async function findAccountLanguages(db: Db, emails: string[]) {
  if (emails.length === 0) return [];
  return db
    .select({ email: user.email, language: user.language })
    .from(user)
    .where(inArray(user.email, emails));
}
