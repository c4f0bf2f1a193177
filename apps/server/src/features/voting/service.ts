import { LIVE_EVENT, topics } from '@pulsecheck/shared/realtime/topics';
import { RESULTS_MESSAGES } from '@pulsecheck/shared/results/messages';
import { dotsUsed, VOTING_MESSAGES, type VotingState } from '@pulsecheck/shared/voting/schemas';
import type { AppDeps } from '../../lib/router';
import { conflict, forbidden, invalid } from '../../lib/app-error';
import { checkForViewer, prioritizedTallies, releaseFor, settingsOf } from '../results/service';
import * as q from './queries';

type Phase = VotingState['phase'];

/**
 * What the voting view shows: the caller's dots, the live tally (how many voted, never for what), and the
 * components in prioritized order with their distribution to those to whom the results are released (the one
 * release rule of the results: PRODUCT-DECISIONS 3); to everyone else template order without figures.
 */
export async function getVotingState(
  deps: Pick<AppDeps, 'db'>,
  options: { userId: string; healthCheckId: string },
): Promise<VotingState> {
  const { db } = deps;
  const { access, check } = await checkForViewer(db, options.userId, options.healthCheckId);
  const settings = settingsOf(check);
  const [tallies, allocation, summary] = [
    await prioritizedTallies(db, check),
    await q.allocationOf(db, check.id, options.userId),
    await q.participantState(db, check.id, options.userId),
  ];
  const eligible = check.phase === 'vote' && summary.mine === 'completed';
  const showFigures =
    releaseFor(check, settings, {
      manages: access.manages,
      completed: summary.completed,
      participantStatus: summary.mine,
    }) === 'released';
  const ordered = showFigures ? tallies : [...tallies].sort((a, b) => a.orderIndex - b.orderIndex);
  return {
    title: check.title.trim() || RESULTS_MESSAGES.untitledCheck,
    phase: check.phase as Phase,
    votesPerPerson: settings.votesPerPerson,
    eligible,
    allocation,
    used: dotsUsed(allocation),
    tally: { voted: summary.voted, eligible: summary.completed },
    components: ordered.map((t) => ({
      id: t.id,
      title: t.title?.trim() || RESULTS_MESSAGES.untitledComponent,
      description: t.description,
      category: t.category?.trim() || RESULTS_MESSAGES.uncategorized,
      counts: showFigures
        ? {
            healthy: t.healthy,
            needsImprovement: t.needsImprovement,
            fireWarning: t.fireWarning,
            dontKnow: t.dontKnow,
          }
        : null,
    })),
  };
}

/**
 * Sets the caller's whole allocation `{ componentId: dots }` atomically. The participant row is locked, so
 * concurrent requests of one person run one after another and the total never exceeds `votesPerPerson`.
 */
export async function putVotes(
  deps: Pick<AppDeps, 'db' | 'realtime'>,
  options: { userId: string; healthCheckId: string; allocation: Record<string, number> },
): Promise<VotingState> {
  const { check } = await checkForViewer(deps.db, options.userId, options.healthCheckId);
  const settings = settingsOf(check);
  const entries = Object.entries(options.allocation).filter(([, count]) => count > 0);
  const total = entries.reduce((sum, [, count]) => sum + count, 0);
  if (total > settings.votesPerPerson)
    throw invalid(VOTING_MESSAGES.tooMany, undefined, { count: settings.votesPerPerson });
  const known = await q.enabledComponentIds(deps.db, check.templateId);
  if (entries.some(([id]) => !known.has(id))) throw invalid(VOTING_MESSAGES.foreignComponent);

  await deps.db.transaction(async (tx) => {
    const locked = await q.lockForVote(tx, check.id, options.userId);
    if (locked.phase !== 'vote') throw conflict(VOTING_MESSAGES.notOpen);
    if (!locked.participant || locked.participant.status !== 'completed') {
      throw forbidden(VOTING_MESSAGES.notEligible);
    }
    await q.replaceVotes(tx, {
      healthCheckId: check.id,
      participantId: locked.participant.id,
      allocation: entries,
    });
    await deps.realtime.publish({ topic: topics.healthCheck(check.id), type: LIVE_EVENT.votesChanged }, tx);
  });
  return getVotingState(deps, options);
}
