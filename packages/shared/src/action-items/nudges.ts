/**
 * Nudges (issue 33 item 6, decision 0019): an action item overdue by 7 days, or done without a follow-up for 30 days,
 * is listed on the admin dashboard ('Actions to follow up') and in its owner's weekly digest. The rule and its words
 * live here once; the SQL that finds the candidates uses the same two numbers. Without zod.
 */
import type { Words } from './follow-up';

/** An open action item is nudged once its due date is this many days past. */
export const NUDGE_OVERDUE_DAYS = 7;
/** A done action item no check has asked about is nudged this many days after it was marked done. */
export const NUDGE_NO_FOLLOW_UP_DAYS = 30;

export type NudgeReason = 'overdue' | 'no-follow-up';

export type NudgeCandidate = {
  status: string;
  /** 'YYYY-MM-DD' or null. */
  dueDate: string | null;
  /** When it was marked done; null when not done, or done before done dates were recorded. */
  completedAt: string | Date | null;
  /** Whether a check has asked about it (decision 0019: each action is asked once). */
  asked: boolean;
};

const DAY_MS = 24 * 3600_000;
/** Whole days from `from` to `to`, counted in UTC calendar days. */
const daysBetween = (from: Date, to: Date) =>
  Math.floor(
    (Date.UTC(to.getUTCFullYear(), to.getUTCMonth(), to.getUTCDate()) -
      Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate())) /
      DAY_MS,
  );

/**
 * Whether an action item needs following up at `now`, and why: not done and its due date at least 7 days past
 * ('overdue'), or done at least 30 days ago and never asked about ('no-follow-up'). A done item without a done date
 * (marked done before they were recorded) is never nudged: no check can ask about it, so a nudge could never end.
 */
export function nudgeOf(action: NudgeCandidate, now: Date): { reason: NudgeReason; days: number } | null {
  if (action.status !== 'completed') {
    if (!action.dueDate) return null;
    const days = daysBetween(new Date(`${action.dueDate}T00:00:00Z`), now);
    return days >= NUDGE_OVERDUE_DAYS ? { reason: 'overdue', days } : null;
  }
  if (action.asked || action.completedAt === null) return null;
  const days = daysBetween(new Date(action.completedAt), now);
  return days >= NUDGE_NO_FOLLOW_UP_DAYS ? { reason: 'no-follow-up', days } : null;
}

/** Catalogue keys (packages/shared/messages/<language>/actionItems.json). */
export const NUDGE_MESSAGES = {
  title: 'actionItems.nudge.title',
  /** `{ overdueDays, noFollowUpDays }`: NUDGE_HINT_VALUES. */
  hint: 'actionItems.nudge.hint',
  digestHeading: 'actionItems.nudge.digestHeading',
  /** `{ workspace, action, check, why }`: one action of the digest, `why` its nudgeWords. */
  digestLine: 'actionItems.nudge.digestLine',
  /** `{ days }`. */
  overdue: 'actionItems.nudge.overdue',
  /** `{ days }`. */
  noFollowUp: 'actionItems.nudge.noFollowUp',
} as const;

/** The values of NUDGE_MESSAGES.hint: the rule's two numbers. */
export const NUDGE_HINT_VALUES = {
  overdueDays: NUDGE_OVERDUE_DAYS,
  noFollowUpDays: NUDGE_NO_FOLLOW_UP_DAYS,
} as const;

/**
 * Why an action is listed, in the language of `words`: 'Overdue by 9 days', 'Done 31 days ago; no check has asked
 * whether it helped'.
 */
export function nudgeWords(nudge: { reason: NudgeReason; days: number }, words: Words): string {
  return words.t(nudge.reason === 'overdue' ? NUDGE_MESSAGES.overdue : NUDGE_MESSAGES.noFollowUp, {
    days: nudge.days,
  });
}
