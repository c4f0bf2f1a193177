/**
 * 'Actions that worked' (issue 33 item 5, decision 0019): per team and for the organisation, the actions done in
 * a period, the share of follow-up answers that said 'Yes' or 'Partly', and the share of actions whose component
 * improved by the next check, under the privacy floor of organisation insights (decision 0011). Without zod.
 */
import type { RatingCounts } from '../results/rules';
import { componentHealth, healthChange, type FollowUpCounts } from './follow-up';

/** Catalogue keys (packages/shared/messages/<language>/actionItems.json). */
export const WORKED_MESSAGES = {
  title: 'actionItems.worked.title',
  loadFailed: 'actionItems.worked.loadFailed',
  noActions: 'actionItems.worked.noActions',
  noActionsHint: 'actionItems.worked.noActionsHint',
  team: 'actionItems.worked.team',
  organisation: 'actionItems.worked.organisation',
  done: 'actionItems.worked.done',
  asked: 'actionItems.worked.asked',
  worked: 'actionItems.worked.worked',
  improved: 'actionItems.worked.improved',
  tooFew: 'actionItems.worked.tooFew',
  notCompared: 'actionItems.worked.notCompared',
  notAsked: 'actionItems.worked.notAsked',
  answersCounted: 'actionItems.worked.answersCounted',
  loopNote: 'actionItems.worked.loopNote',
  floorNote: 'actionItems.worked.floorNote',
} as const;

/**
 * One done action as insights read it: whether a completed check asked about it, that check's floor and whether it
 * shows (decision 0011), its answers, and its component's ratings in the check it came from and in the check that
 * asked, each only where that figure shows (null otherwise).
 */
export type WorkedAction = {
  asked: boolean;
  checkShown: boolean;
  floor: number;
  counts: FollowUpCounts | null;
  before: RatingCounts | null;
  after: RatingCounts | null;
};

export type WorkedFigures = {
  /** Actions marked done in the period. */
  done: number;
  /** Of those, asked about by a completed check. */
  asked: number;
  /** Answers counted: only of questions that reach the floor. */
  answered: number;
  /** Of those, 'Yes' or 'Partly'. */
  worked: number;
  /** Actions whose component shows in both checks. */
  compared: number;
  /** Of those, the component's health improved (healthChange). */
  improved: number;
};

const answeredOf = (c: FollowUpCounts) => c.yes + c.partly + c.no + c['too-early'];

/**
 * Whether a question's answers may count: its check shows (completed responses reach the floor) and at least `floor`
 * people answered it, so no figure ever rests on fewer answers than the floor.
 */
export function followUpCounted(action: Pick<WorkedAction, 'checkShown' | 'floor' | 'counts'>): boolean {
  return action.checkShown && action.counts !== null && answeredOf(action.counts) >= action.floor;
}

/** A team's figures from its done actions. */
export function workedFigures(actions: readonly WorkedAction[]): WorkedFigures {
  const figures: WorkedFigures = { done: 0, asked: 0, answered: 0, worked: 0, compared: 0, improved: 0 };
  for (const action of actions) {
    figures.done += 1;
    if (!action.asked) continue;
    figures.asked += 1;
    if (followUpCounted(action)) {
      figures.answered += answeredOf(action.counts!);
      figures.worked += action.counts!.yes + action.counts!.partly;
    }
    const change = healthChange(
      action.before && componentHealth(action.before),
      action.after && componentHealth(action.after),
    );
    if (change === null) continue;
    figures.compared += 1;
    if (change === 'improved') figures.improved += 1;
  }
  return figures;
}

/**
 * The organisation's figures: the teams' figures summed, and nothing else. Each team figure is itself a sum of
 * questions that each reach the floor, so the organisation minus any set of teams is again such a sum: nothing below
 * the floor can be had by subtraction.
 */
export function poolWorked(teams: Iterable<WorkedFigures>): WorkedFigures {
  const sum: WorkedFigures = { done: 0, asked: 0, answered: 0, worked: 0, compared: 0, improved: 0 };
  for (const t of teams) {
    sum.done += t.done;
    sum.asked += t.asked;
    sum.answered += t.answered;
    sum.worked += t.worked;
    sum.compared += t.compared;
    sum.improved += t.improved;
  }
  return sum;
}

/** A whole percentage, or null with nothing to divide. */
export const shareOf = (part: number, whole: number) =>
  whole === 0 ? null : Math.round((part * 100) / whole);
