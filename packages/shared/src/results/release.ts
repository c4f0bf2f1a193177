/**
 * When the per-component results are shown, and to whom (PRODUCT-DECISIONS 3): the one release rule of the
 * results, the voting view, the participation screens and every export, with the words that explain it.
 * Without zod, so the participation screens can use it at first paint.
 */

import { messageWith } from '../i18n/message';

export const RELEASE_MESSAGES = {
  facilitatorShares: 'results.facilitatorShares',
  notReleased: 'results.notReleased',
  collecting: 'results.collecting',
  /** `{ count }`: the completed responses still missing. */
  belowThreshold: 'results.belowThreshold',
} as const;

/** PRODUCT-DECISIONS 3: how many more completed responses unlock the per-component results. */
export const missingResponses = (completed: number, minResponses: number) =>
  Math.max(0, minResponses - completed);

/**
 * What a caller may see of a check's per-component figures and comments:
 * - collecting: the check still collects ratings; nobody, admins included, sees figures, so that no two
 *   snapshots differ by one person's answers.
 * - below-threshold: fewer than minResponses completed; nobody sees figures.
 * - released: figures included.
 * - withheld: a participant of a check with showResultsAfterVoting = false.
 * - not-released: a participant who did not complete the rating.
 */
export const RELEASE_STATES = [
  'released',
  'collecting',
  'below-threshold',
  'not-released',
  'withheld',
] as const;
export type ReleaseState = (typeof RELEASE_STATES)[number];

/**
 * PRODUCT-DECISIONS 3, the one release rule of the results, the voting view, the participation screens and
 * every export: figures open when collection ends (voting starts or the check completes) and at least
 * `minResponses` have completed; to managers (workspace admins and members) then, to a participant only when
 * they completed and the check shows results to participants.
 */
export function releaseState(options: {
  phase: string;
  manages: boolean;
  /** Completed participants of the check. */
  completed: number;
  minResponses: number;
  /** The caller's own participant status, if they take part. */
  participantStatus: string | null;
  showResultsAfterVoting: boolean;
}): ReleaseState {
  if (options.phase === 'collect') return 'collecting';
  if (missingResponses(options.completed, options.minResponses) > 0) return 'below-threshold';
  if (options.manages) return 'released';
  if (!options.showResultsAfterVoting) return 'withheld';
  return options.participantStatus === 'completed' ? 'released' : 'not-released';
}

/**
 * Dot totals per component are shown once voting has ended: while it runs, the totals would change with each
 * person's dots, so two snapshots would show what one person voted for.
 */
export const dotsVisible = (phase: string) => phase === 'summarize' || phase === 'plan';

/** Why the figures are not shown, for every state but 'released', as a message (i18n/message.ts). */
export function releaseMessage(state: ReleaseState, missingResponses: number): string {
  if (state === 'collecting') return RELEASE_MESSAGES.collecting;
  if (state === 'below-threshold')
    return messageWith(RELEASE_MESSAGES.belowThreshold, { count: missingResponses });
  if (state === 'withheld') return RELEASE_MESSAGES.facilitatorShares;
  return RELEASE_MESSAGES.notReleased;
}
