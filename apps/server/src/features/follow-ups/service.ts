import { actionsToAsk, followUpQuestion } from '@pulsecheck/shared/action-items/follow-up';
import type { FollowUpCandidate } from '@pulsecheck/shared/action-items/schemas';
import type { ParticipationFollowUp } from '@pulsecheck/shared/participation/contract';
import { requireWorkspace } from '../../auth/access';
import type { Db } from '../../db/client';
import * as q from './queries';

const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

/**
 * The workspace's done action items not yet asked about, for Configure (workspace admins and members only; others
 * 404). Configure applies `actionsToAsk` with the components left switched on; the launch applies it again.
 */
export async function listCandidates(
  db: Db,
  options: { userId: string; workspaceId: string },
): Promise<FollowUpCandidate[]> {
  await requireWorkspace(db, options.userId, options.workspaceId);
  const rows = await q.doneActionsOfWorkspace(db, options.workspaceId);
  return actionsToAsk(rows, {
    componentKeys: rows.flatMap((r) => (r.componentKey ? [r.componentKey] : [])),
    launchAt: new Date(),
  }).map((r) => ({ ...r, completedAt: iso(r.completedAt) }));
}

/**
 * At launch, inside its transaction: the questions the new check asks (the shared rule `actionsToAsk`), each tied
 * to the new check's component with the action's component key.
 */
export async function snapshotQuestions(
  tx: Db,
  options: {
    workspaceId: string;
    healthCheckId: string;
    components: { id: string; key: string }[];
    leaveOut: string[];
    launchAt: Date;
  },
) {
  const byKey = new Map(options.components.map((c) => [c.key, c.id]));
  const asked = actionsToAsk(await q.doneActionsOfWorkspace(tx, options.workspaceId), {
    componentKeys: byKey.keys(),
    launchAt: options.launchAt,
    leaveOut: options.leaveOut,
  });
  await q.insertQuestions(
    tx,
    options.healthCheckId,
    asked.map((a) => ({ actionItemId: a.id, componentId: byKey.get(a.componentKey!)! })),
  );
}

/** The check's follow-up questions as participants see them. */
export async function participationQuestions(
  db: Db,
  healthCheckId: string,
): Promise<ParticipationFollowUp[]> {
  const rows = await q.questionsOfCheck(db, healthCheckId);
  return rows.map((r) => ({
    id: r.id,
    componentId: r.componentId,
    actionTitle: r.actionTitle,
    question: followUpQuestion(r.actionTitle, r.componentTitle),
  }));
}

/** A participant's answers at submit, inside its transaction (decision 0019). */
export const storeAnswers = q.insertAnswers;
