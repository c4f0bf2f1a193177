/**
 * The closed loop (issue 33, decision 0019): which done action items a new check asks about, the answers and
 * their words, when the answers are shown (the release rule of the ratings), and a component's health before and
 * after in words. Without zod, so the participation screens can use it at first paint.
 */

import type { Translator } from '../i18n/translate';
import type { RatingCounts } from '../results/rules';
import type { ReleaseState } from '../results/release';

export const FOLLOW_UP_ANSWERS = ['yes', 'partly', 'no', 'too-early'] as const;
export type FollowUpAnswer = (typeof FOLLOW_UP_ANSWERS)[number];

/** The answers as the question offers them, in order (catalogue keys, decision 0027). */
export const FOLLOW_UP_ANSWER_LABELS: Record<FollowUpAnswer, string> = {
  yes: 'actionItems.answer.yes',
  partly: 'actionItems.answer.partly',
  no: 'actionItems.answer.no',
  'too-early': 'actionItems.answer.tooEarly',
};

/** Catalogue keys (packages/shared/messages/<language>/actionItems.json). */
export const FOLLOW_UP_MESSAGES = {
  sectionTitle: 'actionItems.followUp.sectionTitle',
  configureTitle: 'actionItems.followUp.configureTitle',
  configureHint: 'actionItems.followUp.configureHint',
  configureNone: 'actionItems.followUp.configureNone',
  invalidAnswer: 'actionItems.followUp.invalidAnswer',
  unknownQuestion: 'actionItems.followUp.unknownQuestion',
  unknownRoundQuestion: 'actionItems.followUp.unknownRoundQuestion',
  noAnswersYet: 'actionItems.followUp.noAnswersYet',
  answersHidden: 'actionItems.followUp.answersHidden',
  /** `{ min }`: the fewest answers a question shows with. */
  tooFewAnswers: 'actionItems.followUp.tooFewAnswers',
  noEffect: 'actionItems.followUp.noEffect',
  loopSwitch: 'actionItems.followUp.loopSwitch',
  loopSwitchHint: 'actionItems.followUp.loopSwitchHint',
  loopSectionTitle: 'actionItems.followUp.loopSectionTitle',
  loopAnswerHint: 'actionItems.followUp.loopAnswerHint',
  /** `{ action }`: the question without a component (a loop round's). */
  question: 'actionItems.followUp.question',
  /** `{ action, component }`. */
  questionAbout: 'actionItems.followUp.questionAbout',
  /** `{ before, after }`: the ratings' names. */
  improved: 'actionItems.followUp.improved',
  /** `{ after }`. */
  stayed: 'actionItems.followUp.stayed',
  /** `{ before, after }`. */
  worsened: 'actionItems.followUp.worsened',
} as const;

/** What says a message in a language: the web's `{ t }`, or the server's translator of a request or person. */
export type Words = Pick<Translator, 't'>;

/**
 * The question a participant sees after the component's rating; a loop round asks about actions that may have no
 * component (issue 33 item 3), and then only 'Did "<action title>" help?'.
 */
export const followUpQuestion = (actionTitle: string, componentTitle: string | null, words: Words) =>
  componentTitle
    ? words.t(FOLLOW_UP_MESSAGES.questionAbout, { action: actionTitle, component: componentTitle })
    : words.t(FOLLOW_UP_MESSAGES.question, { action: actionTitle });

/** A done action item as the launch sees it. */
export type DoneActionCandidate = {
  id: string;
  status: string;
  /** When it was marked done; null when it is not done. */
  completedAt: string | Date | null;
  /** The stable key of the component it is tied to (kept across checks); null without a component. */
  componentKey: string | null;
  /** Whether an earlier check has already asked about it. */
  asked: boolean;
};

/**
 * Which actions a check launched at `launchAt` with components `componentKeys` asks about: done (status
 * 'completed') before the launch, tied to one of the check's components, not asked by an earlier check, and not
 * left out by the facilitator. In the order given.
 */
export function actionsToAsk<T extends DoneActionCandidate>(
  actions: readonly T[],
  options: { componentKeys: Iterable<string>; launchAt: Date; leaveOut?: Iterable<string> },
): T[] {
  const keys = new Set(options.componentKeys);
  const leaveOut = new Set(options.leaveOut ?? []);
  const launch = options.launchAt.getTime();
  return actions.filter(
    (action) =>
      action.status === 'completed' &&
      action.completedAt !== null &&
      new Date(action.completedAt).getTime() <= launch &&
      action.componentKey !== null &&
      keys.has(action.componentKey) &&
      !action.asked &&
      !leaveOut.has(action.id),
  );
}

/**
 * Which actions a loop round opened at `openAt` asks about (issue 33 item 3, 'Follow-up on actions'): done (status
 * 'completed') after `since` (the previous round's opening, or the loop's creation for its first round) and not
 * after the opening, not asked before by a check or a round. A component is not needed: a round asks the workspace.
 * In the order given.
 */
/** The most follow-up answers one answer body may carry (far above what a round asks). */
export const FOLLOW_UP_ROUND_MAX = 500;

export function actionsToAskInRound<T extends DoneActionCandidate>(
  actions: readonly T[],
  options: { since: Date; openAt: Date },
): T[] {
  const since = options.since.getTime();
  const open = options.openAt.getTime();
  return actions.filter((action) => {
    if (action.status !== 'completed' || action.completedAt === null || action.asked) return false;
    const done = new Date(action.completedAt).getTime();
    return done > since && done <= open;
  });
}

export type FollowUpCounts = Record<FollowUpAnswer, number>;

export const emptyFollowUpCounts = (): FollowUpCounts => ({ yes: 0, partly: 0, no: 0, 'too-early': 0 });

/**
 * Answers follow the release of the ratings (PRODUCT-DECISIONS 3): nothing while the check collects, nothing
 * below its minimum of responses; and, since answering is optional, nothing while fewer than `minResponses`
 * people answered this question, so that a lone answer is never shown as a figure.
 */
export function followUpReleased(state: ReleaseState, answered: number, minResponses: number): boolean {
  return state === 'released' && answered >= minResponses;
}

/** Whole percentages summing to 100 (largest remainder), or all 0 without answers. */
export function followUpPercentages(counts: FollowUpCounts): FollowUpCounts {
  const total = FOLLOW_UP_ANSWERS.reduce((sum, answer) => sum + counts[answer], 0);
  const result = emptyFollowUpCounts();
  if (total === 0) return result;
  const exact = FOLLOW_UP_ANSWERS.map((answer) => (counts[answer] * 100) / total);
  const whole = exact.map(Math.floor);
  let left = 100 - whole.reduce((a, b) => a + b, 0);
  const order = [0, 1, 2, 3].sort((a, b) => exact[b]! - whole[b]! - (exact[a]! - whole[a]!) || a - b);
  for (const index of order) {
    if (left <= 0) break;
    whole[index] = whole[index]! + 1;
    left -= 1;
  }
  FOLLOW_UP_ANSWERS.forEach((answer, index) => {
    result[answer] = whole[index]!;
  });
  return result;
}

/** A component's health in one check, in the rating's words (the API's values: they stay English). */
export const COMPONENT_HEALTH = ['Fire Warning', 'Needs Improvement', 'Healthy'] as const;
export type ComponentHealth = (typeof COMPONENT_HEALTH)[number];

/** Each health's name on a screen: the rating's own key (participation/rules.ts, RATING_OPTIONS). */
export const COMPONENT_HEALTH_LABELS: Record<ComponentHealth, string> = {
  'Fire Warning': 'participation.ratingFireWarning',
  'Needs Improvement': 'participation.ratingNeedsImprovement',
  Healthy: 'participation.ratingHealthy',
};

/**
 * The rating most of the team gave a component (don't-know left out); a tie goes to the worse rating, so a
 * component never looks better than half its team says. Null without ratings.
 */
export function componentHealth(counts: RatingCounts): ComponentHealth | null {
  const { healthy, needsImprovement, fireWarning } = counts;
  if (healthy + needsImprovement + fireWarning === 0) return null;
  if (fireWarning >= needsImprovement && fireWarning >= healthy) return 'Fire Warning';
  if (needsImprovement >= healthy) return 'Needs Improvement';
  return 'Healthy';
}

export type HealthChange = 'improved' | 'stayed' | 'worsened';

/** How the component's health moved from the check the action came from to this one; null without both. */
export function healthChange(
  before: ComponentHealth | null,
  after: ComponentHealth | null,
): HealthChange | null {
  if (before === null || after === null) return null;
  const diff = COMPONENT_HEALTH.indexOf(after) - COMPONENT_HEALTH.indexOf(before);
  return diff > 0 ? 'improved' : diff < 0 ? 'worsened' : 'stayed';
}

/**
 * 'improved from Needs Improvement to Healthy', 'stayed Healthy', 'worsened from Healthy to Fire Warning', in the
 * language of `words`.
 */
export function healthChangeWords(
  before: ComponentHealth | null,
  after: ComponentHealth | null,
  words: Words,
): string {
  const change = healthChange(before, after);
  if (change === null || before === null || after === null) return words.t(FOLLOW_UP_MESSAGES.noEffect);
  const names = {
    before: words.t(COMPONENT_HEALTH_LABELS[before]),
    after: words.t(COMPONENT_HEALTH_LABELS[after]),
  };
  return words.t(FOLLOW_UP_MESSAGES[change], names);
}
