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
  notAccepting: (status: string) => `Health check is not accepting participants (status: ${status})`,
  notMember: 'participation.notMember',
  notParticipant: 'participation.notParticipant',
  doesNotExist: 'participation.doesNotExist',
  loadFailed: 'participation.loadFailed',
  notAvailable: 'participation.notAvailable',
  alreadySubmitted: 'participation.alreadySubmitted',
  submitFailed: 'participation.submitFailed',
  /** The spec's wording for every n, one included. */
  unanswered: (n: number) =>
    `You have ${n} unanswered components. Please complete all ratings before submitting.`,
  selectRating: 'participation.selectRating',
  progressSaved: 'participation.progressSaved',
  saveFailed: 'participation.saveFailed',
  restored: 'participation.restored',
  ratingClosed: 'participation.ratingClosed',
  unknownComponent: 'participation.unknownComponent',
  invalidRating: 'participation.invalidRating',
  commentTooLong: `Comments can be at most ${COMMENT_MAX} characters`,
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

/** The completion screen's 'Coming up next' card by phase (PRODUCT-DECISIONS 9). */
export function comingUpNext(phase: string, healthCheckId: string): NextStep {
  switch (phase) {
    case 'collect':
      return {
        title: 'Phase 2 Problem Solving',
        description: 'Once everyone has rated, the team votes on which areas to fix first.',
        action: 'Share Ideas',
        to: `/health-check/${healthCheckId}/vote`,
        disabledReason: 'Opens when voting starts',
      };
    case 'vote':
      return {
        title: 'Phase 2 Problem Solving',
        description: 'Voting is open: put your dots on the areas the team should fix first.',
        action: 'Share Ideas',
        to: `/health-check/${healthCheckId}/vote`,
      };
    case 'summarize':
      return {
        title: 'Phase 3 Action Planning',
        description: 'The results are in. Next, the team agrees on actions for the top priorities.',
        action: 'Plan Actions',
        to: `/health-check/${healthCheckId}/results`,
      };
    case 'plan':
      return {
        title: 'Implementation',
        description: 'Actions are planned. Follow their progress on the roadmap.',
        action: 'View Roadmap',
        to: `/health-check/${healthCheckId}/results#action-items`,
      };
    default:
      return {
        title: 'Next Steps',
        description: 'Check the status of your health checks.',
        action: 'Check Status',
        to: '/dashboard',
      };
  }
}

export type NextAction = { label: string; to: string } | null;

/** What a participant can do next with a check, for their /dashboard. */
export function nextActionFor(item: {
  id: string;
  phase: Phase;
  participantStatus: ParticipantStatus;
  resultsReleased: boolean;
}): NextAction {
  const base = `/health-check/${item.id}`;
  if (item.phase === 'collect') {
    if (item.participantStatus === 'completed') return { label: 'View Status', to: `${base}/complete` };
    return {
      label: item.participantStatus === 'pending' ? 'Start' : 'Continue',
      to: `${base}/voting`,
    };
  }
  if (item.participantStatus !== 'completed') return null;
  if (item.phase === 'vote') return { label: 'Vote', to: `${base}/vote` };
  return item.resultsReleased ? { label: 'View Results', to: `${base}/results` } : null;
}

export const PARTICIPANT_STATUS_LABELS: Record<ParticipantStatus, string> = {
  pending: 'participation.statusPending',
  in_progress: 'participation.statusInProgress',
  completed: 'participation.statusCompleted',
};
