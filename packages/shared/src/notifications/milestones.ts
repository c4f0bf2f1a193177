/**
 * Completion milestones of a health check, announced to its creator (PRODUCT-DECISIONS 9, issue 14): the one
 * rule of when each fires and what its notice says, for any team size. Without zod.
 *
 * The milestones, each a fact about the counts of completed participants (`completed` of `total`, the team as
 * it stands when a participant completes):
 * - `half`: at least half of the team has completed (`completed * 2 >= total`). For one participant that is
 *   1 of 1, for two 1 of 2, for three 2 of 3, for four 2 of 4.
 * - `enough`: `minResponses` have completed, so voting can start (and the results can open once it does).
 * - `all`: every participant has completed and at least `minResponses` have (PRODUCT-DECISIONS 1). Below the
 *   threshold nothing is said of everyone: 'All participants have completed' is what the manage screen shows
 *   beside 'Start Voting Phase', which needs the threshold, so the notice waits for it too.
 *
 * Each fires once per check: the server records `milestoneKey` once (a unique key, so concurrent completions
 * on any number of processes record it once) and announces only what it recorded. Several milestones reached
 * by the same completion make one notice (`milestoneNotice`), named by the largest. A milestone already
 * recorded stays recorded when more people join later; `enough` is keyed by the threshold, because the
 * threshold may still rise while the check collects (settings only get stricter), and the new one is a new
 * milestone.
 *
 * What a notice may say (PRODUCT-DECISIONS 3): counts of completed participants only. The check's managers
 * see every participant's status on the manage screen anyway, so "1 of 1 completed" tells the creator nothing
 * new; what anyone answered (ratings, comments, dots, any figure) never appears in a notice, and a milestone
 * never says results are available: the results follow `releaseState` alone (collection ended and the
 * threshold met), and the results-ready notice (`phase-notices.ts`) with them.
 */
import { messageWith } from '../i18n/message';

export const MILESTONES = ['half', 'enough', 'all'] as const;
export type Milestone = (typeof MILESTONES)[number];

export type TeamCompletion = {
  /** Completed participants of the check. */
  completed: number;
  /** Participants of the check (joined, in any status). */
  total: number;
  minResponses: number;
};

/** The milestones the counts have reached, in the order of `MILESTONES`. */
export function reachedMilestones({ completed, total, minResponses }: TeamCompletion): Milestone[] {
  if (total <= 0 || completed <= 0) return [];
  return MILESTONES.filter((milestone) => {
    if (milestone === 'half') return completed * 2 >= total;
    if (milestone === 'enough') return completed >= minResponses;
    return completed >= total && completed >= minResponses;
  });
}

/** What the server records once per check for a milestone; `enough` per threshold (it may rise). */
export const milestoneKey = (milestone: Milestone, minResponses: number): string =>
  milestone === 'enough' ? `enough:${minResponses}` : milestone;

/**
 * The milestones that fire now: reached, and not recorded before (`recorded` holds `milestoneKey`s). The pure
 * form of what the server does with its unique keys; the tests replay a check's completions through it.
 */
export function freshMilestones(recorded: ReadonlySet<string>, team: TeamCompletion): Milestone[] {
  return reachedMilestones(team).filter((m) => !recorded.has(milestoneKey(m, team.minResponses)));
}

export type MilestoneNotice = {
  /** `all-completed` when everyone has completed (its own settings: PRODUCT-DECISIONS 9), else `completion-milestone`. */
  type: 'all-completed' | 'completion-milestone';
  message: string;
};

/**
 * One notice for the milestones that fired together, or null when none did. Counts only, never figures.
 * Everyone having completed is said whenever it is true of a notice's moment: when `all` fires, and when
 * `enough` fires for a team that has all completed (a threshold raised after the first `all`, then reached).
 */
export function milestoneNotice(
  fired: readonly Milestone[],
  team: TeamCompletion & { title: string },
): MilestoneNotice | null {
  const { completed, total, title } = team;
  // A catalogue key with its values (i18n/message.ts), said in each recipient's language by the server's notify().
  const say = (key: string) => messageWith(`notices.${key}`, { title, completed, total });
  const everyone = total > 0 && completed >= total;
  if (fired.includes('all') || (fired.includes('enough') && everyone)) {
    return { type: 'all-completed', message: say('allCompleted') };
  }
  if (fired.includes('enough')) {
    return {
      type: 'completion-milestone',
      message: say('enoughToVote'),
    };
  }
  if (fired.includes('half')) {
    return {
      type: 'completion-milestone',
      message: say('halfCompleted'),
    };
  }
  return null;
}
