/**
 * What each person hears when a health check moves to its next phase (issue 14): one notice per person and
 * change, on the bell and, as their e-mail settings say, by e-mail. Without zod.
 *
 * - `results-ready` when the change opens results to that person: the per-component figures are released to
 *   them for the first time (`releaseState`, PRODUCT-DECISIONS 3: collection ended, the anonymity threshold met,
 *   and for a participant: completed, and the check shows results to participants), or the final results with
 *   the team's dots open (`dotsVisible`) where the figures already were. Never otherwise: a results-ready notice
 *   cannot announce what the threshold or the settings withhold.
 * - `phase-change` for everyone else, worded so that it promises nothing they cannot open.
 *
 * A notice is made of parts, each governed by one e-mail setting (`phaseChanges`, `resultsReady`): the e-mail
 * carries the parts the person wants, and none is sent when they want neither. The bell shows the whole notice.
 */
import { messageWith } from '../i18n/message';
import type { EmailSetting } from '../account/schemas';
import type { Phase } from '../health-checks/rules';
import { dotsVisible, releaseState } from '../results/release';

export type PhaseNoticeType = 'phase-change' | 'results-ready';
export type NoticePart = { setting: Extract<EmailSetting, 'phaseChanges' | 'resultsReady'>; text: string };

export type PhaseNotice = {
  type: PhaseNoticeType;
  /** The bell's text: every part in one sentence. */
  message: string;
  /** Where the notice leads this person: a screen they may open. */
  link: string;
  parts: NoticePart[];
};

export type PhaseNoticeInput = {
  healthCheckId: string;
  title: string;
  /** The phase it leaves (a stored phase, so a string). */
  from: string;
  to: Phase;
  /** The person is an admin or member of the check's workspace. */
  manages: boolean;
  /** Their participant status in the check, if they take part. */
  participantStatus: string | null;
  /** Completed participants of the check (they no longer change once collection has ended). */
  completed: number;
  minResponses: number;
  showResultsAfterVoting: boolean;
};

const releaseIn = (input: PhaseNoticeInput, phase: string) =>
  releaseState({
    phase,
    manages: input.manages,
    completed: input.completed,
    minResponses: input.minResponses,
    participantStatus: input.participantStatus,
    showResultsAfterVoting: input.showResultsAfterVoting,
  });

/** Whether the change opens results to the person (see the module comment). */
export function opensResults(input: PhaseNoticeInput): boolean {
  if (releaseIn(input, input.to) !== 'released') return false;
  return releaseIn(input, input.from) !== 'released' || (dotsVisible(input.to) && !dotsVisible(input.from));
}

const phasePart = (text: string): NoticePart => ({ setting: 'phaseChanges', text });
const resultsPart = (text: string): NoticePart => ({ setting: 'resultsReady', text });

/** The notice one person gets for one phase change. */
export function phaseNotice(input: PhaseNoticeInput): PhaseNotice {
  const { healthCheckId: id, title, to, manages } = input;
  // The texts travel as catalogue keys with their values (i18n/message.ts): the server's notify() says them in each
  // recipient's language (apps/server/messages/<language>/notices.json).
  const say = (key: string) => messageWith(`notices.${key}`, { title });
  const results = manages ? `/admin/health-check/${id}/results` : `/health-check/${id}/results`;
  const vote = `/health-check/${id}/vote`;
  const completed = input.participantStatus === 'completed';
  // Participants who completed the rating vote; nobody else can.
  const votes = !manages && completed;

  if (opensResults(input) && to === 'vote') {
    return {
      type: 'results-ready',
      message: say('votingAndResults'),
      link: votes ? vote : results,
      parts: [phasePart(say('votingStarted')), resultsPart(say('resultsReady'))],
    };
  }
  if (opensResults(input) && to === 'summarize') {
    return {
      type: 'results-ready',
      message: say('completeAndFinal'),
      link: results,
      parts: [phasePart(say('complete')), resultsPart(say('finalResultsReady'))],
    };
  }

  const released = releaseIn(input, to) === 'released';
  const link =
    to === 'vote' && votes
      ? vote
      : released
        ? results
        : manages
          ? `/admin/health-check/${id}/manage`
          : '/dashboard';
  const closedForThem = !manages && !completed;
  const withheld = releaseIn(input, to) === 'withheld';
  const message = {
    collect: say('collecting'),
    vote: closedForThem ? say('ratingClosed') : say('votingStarted'),
    summarize: withheld ? say('completeWithheld') : say('complete'),
    plan: say('planning'),
  }[to];
  return { type: 'phase-change', message, link, parts: [phasePart(message)] };
}
