import { and, eq, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client';
import { healthCheckComponents, healthCheckVotes } from '../../db/schema/health-checks';

/**
 * Inside a transaction: the check's phase (share lock, so a phase change waits for this vote) and the caller's
 * participant row (update lock, so concurrent votes of one person run one after the other).
 */
export async function lockForVote(tx: Db, healthCheckId: string, userId: string) {
  const [check] = await queryRows<{ phase: string }>(
    tx,
    sql`select phase from health_checks where id = ${healthCheckId} for share`,
  );
  const [participant] = await queryRows<{ id: string; status: string }>(
    tx,
    sql`select id, status from participants
        where health_check_id = ${healthCheckId} and user_id = ${userId} for update`,
  );
  return { phase: check?.phase ?? null, participant: participant ?? null };
}

export async function enabledComponentIds(db: Db, templateId: string) {
  const rows = await db
    .select({ id: healthCheckComponents.id })
    .from(healthCheckComponents)
    .where(and(eq(healthCheckComponents.templateId, templateId), eq(healthCheckComponents.enabled, true)));
  return new Set(rows.map((r) => r.id));
}

/** Replaces the participant's whole allocation (delete, then one insert). */
export async function replaceVotes(
  tx: Db,
  options: { healthCheckId: string; participantId: string; allocation: [string, number][] },
) {
  await tx.delete(healthCheckVotes).where(eq(healthCheckVotes.participantId, options.participantId));
  if (options.allocation.length === 0) return;
  await tx.insert(healthCheckVotes).values(
    options.allocation.map(([componentId, count]) => ({
      healthCheckId: options.healthCheckId,
      participantId: options.participantId,
      componentId,
      count,
    })),
  );
}

export async function allocationOf(db: Db, healthCheckId: string, userId: string) {
  const rows = await queryRows<{ componentId: string; count: number; status: string }>(
    db,
    sql`select v.component_id as "componentId", v.count
        from health_check_votes v join participants p on p.id = v.participant_id
        where p.health_check_id = ${healthCheckId} and p.user_id = ${userId}`,
  );
  return Object.fromEntries(rows.map((r) => [r.componentId, Number(r.count)]));
}

/** Completed participants, how many have placed dots, and the caller's own status, in one query. */
export async function participantState(db: Db, healthCheckId: string, userId: string) {
  const [row] = await queryRows<{ completed: number; voted: number; mine: string | null }>(
    db,
    sql`select count(*) filter (where status = 'completed')::int as completed,
               max(status) filter (where user_id = ${userId}) as mine,
               (select count(distinct participant_id) from health_check_votes
                where health_check_id = ${healthCheckId})::int as voted
        from participants where health_check_id = ${healthCheckId}`,
  );
  return { completed: row?.completed ?? 0, voted: row?.voted ?? 0, mine: row?.mine ?? null };
}
