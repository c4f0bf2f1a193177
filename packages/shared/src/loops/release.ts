/**
 * When a round's results show, and how its free-text answers are listed: the one release rule of Loop Results,
 * Loop Insights, the CSV export and the dashboard's preview (docs/decisions/0009-loops.md, "Results and free text").
 * Without zod, so screens can use it at first paint.
 */

import { messageWith } from '../i18n/message';
import { LOOP_MESSAGES } from './rules';

/**
 * What may be shown of a round's figures and free text:
 * - collecting: an anonymous round that is still open. Its figures would change with each answer while the
 *   completion status names who just answered, so together they would tell what that person said; nothing shows
 *   until the round closes, to anyone.
 * - below-threshold: fewer answers than the loop's minimum responses; nothing shows, ever, for a closed round.
 * - released: figures and free text (without names) show.
 */
export const ROUND_RESULT_STATES = ['released', 'collecting', 'below-threshold'] as const;
export type RoundResultState = (typeof ROUND_RESULT_STATES)[number];

/**
 * The state of a round's results. Apply it to the round (`answers` = its respondents) and to each question
 * (`answers` = that question's answers), since a one-click answer from the e-mail may answer the first question only.
 */
export function roundResultState(round: {
  anonymous: boolean;
  open: boolean;
  answers: number;
  minResponses: number;
}): RoundResultState {
  if (round.anonymous && round.open) return 'collecting';
  if (round.answers < round.minResponses) return 'below-threshold';
  return 'released';
}

/** Why a round shows no results, for every state but 'released' (null then), as a message (message.ts). */
export function roundResultMessage(
  state: RoundResultState,
  round: { open: boolean; answers: number; minResponses: number },
): string | null {
  if (state === 'collecting') return LOOP_MESSAGES.collecting;
  if (state === 'released') return null;
  return round.open
    ? messageWith(LOOP_MESSAGES.belowThreshold, { count: round.minResponses - round.answers })
    : messageWith(LOOP_MESSAGES.closedBelowThreshold, {
        count: round.answers,
        minResponses: round.minResponses,
      });
}

/**
 * The round Loop Results (and 'Preview Results') opens when none is asked for: the newest round whose results show;
 * when none shows yet, the newest round, whose message says when it will. `rounds` come newest first.
 */
export function defaultResultsRound<T>(
  rounds: readonly T[],
  stateOf: (round: T) => RoundResultState,
): T | undefined {
  return rounds.find((round) => stateOf(round) === 'released') ?? rounds[0];
}

/** The sort key of a free-text answer: accents dropped (NFD without marks), lower case, spaces collapsed, trimmed. */
const sortKey = (text: string) =>
  text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Free-text answers in alphabetical order (by `sortKey`, ties by the exact text, both compared by UTF-16 code
 * units so every machine and browser agrees): an order that follows from the words alone, so it says nothing of
 * when or by whom an answer came, is the same on every reading and export, and puts like answers side by side.
 * Takes and returns the entries as given (the caller passes text only for anonymous rounds); the input is not
 * changed.
 */
export function orderFreeText<T extends { text: string }>(answers: readonly T[]): T[] {
  return [...answers].sort((a, b) => compare(sortKey(a.text), sortKey(b.text)) || compare(a.text, b.text));
}
