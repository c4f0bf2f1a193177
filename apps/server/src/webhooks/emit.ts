import { releaseState } from '@pulsecheck/shared/results/release';
import type { HealthCheckSettings } from '@pulsecheck/shared/health-checks/schemas';
import type { Db } from '../db/client';
import { recordWebhookEvent } from './record';

/**
 * The events the services emit (issue 35 item 3), each built here from what the service already holds, and
 * recorded in the service's transaction (`tx`). Bodies carry ids, names and released figures only; nothing here
 * reads an individual answer or who answered.
 */

type Tally = {
  id: string;
  title: string | null;
  healthy: number;
  needsImprovement: number;
  fireWarning: number;
  dontKnow: number;
};

type CheckFacts = {
  id: string;
  title: string;
  workspaceId: string;
  settings: Pick<HealthCheckSettings, 'allowAnonymous' | 'minResponses'>;
};
const checkBody = (check: CheckFacts) => ({
  id: check.id,
  title: check.title,
  anonymous: check.settings.allowAnonymous,
});

export const healthCheckLaunched = (tx: Db, check: CheckFacts) =>
  recordWebhookEvent(tx, {
    type: 'health_check.launched',
    workspaceId: check.workspaceId,
    data: { healthCheck: checkBody(check) },
  });

/**
 * A phase change: `health_check.phase_changed`; `health_check.completed` when it completes; and
 * `results.released` when it ends collection with enough completed responses for the release rule to show the
 * figures to the check's managers (`releaseState`, the one rule), with those figures.
 */
export async function healthCheckPhaseChanged(
  tx: Db,
  check: CheckFacts,
  change: { from: string; to: string; completed: number; completes: boolean },
  /** The check's released figures per component (the results feature's tallies), read only when released. */
  tallies: () => Promise<Tally[]>,
) {
  await recordWebhookEvent(tx, {
    type: 'health_check.phase_changed',
    workspaceId: check.workspaceId,
    data: { healthCheck: { ...checkBody(check), phase: change.to, previousPhase: change.from } },
  });
  if (change.completes)
    await recordWebhookEvent(tx, {
      type: 'health_check.completed',
      workspaceId: check.workspaceId,
      data: { healthCheck: checkBody(check) },
    });
  const released = (phase: string) =>
    releaseState({
      phase,
      manages: true,
      completed: change.completed,
      minResponses: check.settings.minResponses,
      participantStatus: null,
      showResultsAfterVoting: true,
    }) === 'released';
  if (released(change.to) && !released(change.from)) {
    await recordWebhookEvent(tx, {
      type: 'results.released',
      workspaceId: check.workspaceId,
      data: {
        healthCheck: checkBody(check),
        responses: change.completed,
        components: (await tallies()).map((t) => ({
          id: t.id,
          title: t.title ?? '',
          healthy: t.healthy,
          needsImprovement: t.needsImprovement,
          fireWarning: t.fireWarning,
          dontKnow: t.dontKnow,
        })),
      },
    });
  }
}

type Item = { id: string; description: string; status: string };

/** `action_item.created`, or `.updated` (and `.completed` when this change completed it). */
export async function actionItemChanged(
  tx: Db,
  options: {
    workspaceId: string;
    healthCheckId: string;
    item: Item;
    created: boolean;
    completedNow: boolean;
  },
) {
  const actionItem = {
    id: options.item.id,
    title: options.item.description,
    status: options.item.status,
    healthCheckId: options.healthCheckId,
  };
  await recordWebhookEvent(tx, {
    type: options.created ? 'action_item.created' : 'action_item.updated',
    workspaceId: options.workspaceId,
    data: { actionItem },
  });
  if (options.completedNow)
    await recordWebhookEvent(tx, {
      type: 'action_item.completed',
      workspaceId: options.workspaceId,
      data: { actionItem },
    });
}

export const loopRoundChanged = (
  tx: Db,
  type: 'loop.round_opened' | 'loop.round_closed',
  loop: { id: string; title: string; workspaceId: string },
  round: { id: string; number: number },
) =>
  recordWebhookEvent(tx, {
    type,
    workspaceId: loop.workspaceId,
    data: { loop: { id: loop.id, title: loop.title }, round: { id: round.id, number: round.number } },
  });

export const memberJoined = (tx: Db, workspaceId: string, member: { id: string; name: string }) =>
  recordWebhookEvent(tx, { type: 'member.joined', workspaceId, data: { member } });
