import type { Phase } from '../health-checks/rules';
import { HEALTH_CHECK_NOT_FOUND } from '../health-checks/rules';

/**
 * Participation's constants, messages and pure rules, without zod: the participation screen needs them at first
 * paint, the schemas only to check a stored draft (see contract.ts, which re-exports everything here).
 */

export const PARTICIPATION_RATINGS = ['healthy', 'needs-improvement', 'fire-warning', 'dont-know'] as const;
export type ParticipationRating = (typeof PARTICIPATION_RATINGS)[number];

/** The four rating buttons of the participation screen, in order (keys 1 to 4). */
export const RATING_OPTIONS: { value: ParticipationRating; label: string; hint: string }[] = [
  { value: 'healthy', label: 'participation.ratingHealthy', hint: 'participation.ratingHealthyHint' },
  {
    value: 'needs-improvement',
    label: 'participation.ratingNeedsImprovement',
    hint: 'participation.ratingNeedsImprovementHint',
  },
  {
    value: 'fire-warning',
    label: 'participation.ratingFireWarning',
    hint: 'participation.ratingFireWarningHint',
  },
  { value: 'dont-know', label: 'participation.ratingDontKnow', hint: 'participation.ratingDontKnowHint' },
];

export const COMMENT_MAX = 2000;
/** Far above any template (the catalogue has 29); bounds the work a hostile body can cause. */
export const COMPONENTS_MAX = 200;

/** The spec's wording (sections 5 and 8, PRODUCT-DECISIONS 2 and 3), written once. */
export const PARTICIPATION_MESSAGES = {
  notFound: HEALTH_CHECK_NOT_FOUND,
  /** `{ status }`: the check's status as stored. */
  notAccepting: 'participation.notAccepting',
  notMember: 'participation.notMember',
  notParticipant: 'participation.notParticipant',
  doesNotExist: 'participation.doesNotExist',
  loadFailed: 'participation.loadFailed',
  notAvailable: 'participation.notAvailable',
  alreadySubmitted: 'participation.alreadySubmitted',
  submitFailed: 'participation.submitFailed',
  /** `{ count }`; in English the spec's wording for every count, one included. */
  unanswered: 'participation.unanswered',
  selectRating: 'participation.selectRating',
  progressSaved: 'participation.progressSaved',
  saveFailed: 'participation.saveFailed',
  restored: 'participation.restored',
  ratingClosed: 'participation.ratingClosed',
  unknownComponent: 'participation.unknownComponent',
  invalidRating: 'participation.invalidRating',
  commentTooLong: 'participation.commentTooLong',
  completionLoadFailed: 'participation.completionLoadFailed',
  unknownWorkspace: 'participation.unknownWorkspace',
  invalidLink: 'participation.invalidLink',
  joinFailed: 'participation.joinFailed',
  /** Join: the check behind the link could not be read (not a 404, which goes to /invalid-link). */
  fetchFailed: 'participation.fetchFailed',
  /** Join: whether the user already takes part could not be read. */
  participantStatusFailed: 'participation.participantStatusFailed',
  previewNotSaved: 'participation.previewNotSaved',
} as const;

export const PARTICIPANT_STATUSES = ['pending', 'in_progress', 'completed'] as const;
export type ParticipantStatus = (typeof PARTICIPANT_STATUSES)[number];

/** How many of the components have no rating in `votes`. */
export const unansweredCount = (componentIds: readonly string[], votes: Record<string, string>) =>
  componentIds.filter((id) => !votes[id]).length;

/** Share of the components rated, 0 to 100. */
export const answeredPercent = (componentIds: readonly string[], votes: Record<string, string>) =>
  componentIds.length === 0
    ? 0
    : Math.round(((componentIds.length - unansweredCount(componentIds, votes)) / componentIds.length) * 100);

export type NextStep = {
  title: string;
  description: string;
  action: string;
  to: string;
  /** Shown instead of the action while it cannot be used yet. */
  disabledReason?: string;
};

/** The completion screen's 'Coming up next' card by phase (PRODUCT-DECISIONS 9): its texts are catalogue keys. */
export function comingUpNext(phase: string, healthCheckId: string): NextStep {
  switch (phase) {
    case 'collect':
      return {
        title: 'participation.nextProblemSolving',
        description: 'participation.nextWhenRated',
        action: 'participation.nextShareIdeas',
        to: `/health-check/${healthCheckId}/vote`,
        disabledReason: 'participation.nextOpensWithVoting',
      };
    case 'vote':
      return {
        title: 'participation.nextProblemSolving',
        description: 'participation.nextVotingOpen',
        action: 'participation.nextShareIdeas',
        to: `/health-check/${healthCheckId}/vote`,
      };
    case 'summarize':
      return {
        title: 'participation.nextActionPlanning',
        description: 'participation.nextResultsIn',
        action: 'participation.nextPlanActions',
        to: `/health-check/${healthCheckId}/results`,
      };
    case 'plan':
      return {
        title: 'participation.nextImplementation',
        description: 'participation.nextActionsPlanned',
        action: 'participation.nextViewRoadmap',
        to: `/health-check/${healthCheckId}/results#action-items`,
      };
    default:
      return {
        title: 'participation.nextSteps',
        description: 'participation.nextCheckYourChecks',
        action: 'participation.nextCheckStatus',
        to: '/dashboard',
      };
  }
}

export type NextAction = { label: string; to: string } | null;

/** What a participant can do next with a check, for their /dashboard (`label`: a catalogue key). */
export function nextActionFor(item: {
  id: string;
  phase: Phase;
  participantStatus: ParticipantStatus;
  resultsReleased: boolean;
}): NextAction {
  const base = `/health-check/${item.id}`;
  if (item.phase === 'collect') {
    if (item.participantStatus === 'completed')
      return { label: 'participation.actionViewStatus', to: `${base}/complete` };
    return {
      label:
        item.participantStatus === 'pending' ? 'participation.actionStart' : 'participation.actionContinue',
      to: `${base}/voting`,
    };
  }
  if (item.participantStatus !== 'completed') return null;
  if (item.phase === 'vote') return { label: 'participation.actionVote', to: `${base}/vote` };
  return item.resultsReleased ? { label: 'participation.actionViewResults', to: `${base}/results` } : null;
}

export const PARTICIPANT_STATUS_LABELS: Record<ParticipantStatus, string> = {
  pending: 'participation.statusPending',
  in_progress: 'participation.statusInProgress',
  completed: 'participation.statusCompleted',
};
