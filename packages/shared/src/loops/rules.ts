/**
 * The words and small rules of loops, the recurring pulse surveys (issue 12, PRODUCT-DECISIONS 7; design in
 * docs/decisions/0009-loops.md). Without zod, so answer screens and e-mails can use them at first paint.
 * Where the other rules live: schemas.ts (what a loop definition and an answer may be), schedule.ts (when rounds
 * open and close), stats.ts (figures of a round and real change between rounds), release.ts (when a round's
 * results show, and the order of free-text answers), catalogue.ts (the global loop templates).
 */

import { RELEASE_MESSAGES } from '../results/release';
import { isoWeekday, parsePlainDate } from './zoned-time';
import { countOf } from '../words/plural';

export const QUESTION_KINDS = ['scale', 'enps', 'text'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

export const QUESTION_KIND_LABELS: Record<QuestionKind, string> = {
  scale: 'Scale from 1 to 5',
  enps: 'Recommend score from 0 to 10 (eNPS)',
  text: 'Free text',
};

/** A scale question's answers: whole numbers from 1 to 5, its two ends labelled by the question. */
export const SCALE_MIN = 1;
export const SCALE_MAX = 5;
export const DEFAULT_SCALE_LABELS = { low: 'Strongly disagree', high: 'Strongly agree' } as const;

/** An eNPS question's answers: whole numbers from 0 to 10, with fixed end labels. */
export const ENPS_MIN = 0;
export const ENPS_MAX = 10;
export const ENPS_LABELS = { low: 'Not at all likely', high: 'Extremely likely' } as const;

export const CADENCES = ['weekly', 'biweekly', 'monthly'] as const;
export type Cadence = (typeof CADENCES)[number];

export const CADENCE_LABELS: Record<Cadence, string> = {
  weekly: 'Weekly',
  biweekly: 'Every two weeks',
  monthly: 'Monthly',
};

/** Weekdays in ISO order: the index plus one is the ISO weekday (1 Monday … 7 Sunday). */
export const WEEKDAYS = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const WEEKDAY_LABELS: Record<Weekday, string> = {
  monday: 'Monday',
  tuesday: 'Tuesday',
  wednesday: 'Wednesday',
  thursday: 'Thursday',
  friday: 'Friday',
  saturday: 'Saturday',
  sunday: 'Sunday',
};

export const isoWeekdayOf = (weekday: Weekday) => WEEKDAYS.indexOf(weekday) + 1;

/**
 * A loop is `active` while it recurs, `paused` while an admin holds it (no round opens, its open round takes no
 * answers) and `completed` once stopped, for good. The dashboard knows only active and completed (spec section 4).
 */
export const LOOP_STATUSES = ['active', 'paused', 'completed'] as const;
export type LoopStatus = (typeof LOOP_STATUSES)[number];

export const loopDashboardStatus = (status: string): 'active' | 'completed' =>
  status === 'completed' ? 'completed' : 'active';

/** A round is open from its opening instant until it closes (at its closing instant, or by hand). */
export const ROUND_STATUSES = ['open', 'closed'] as const;
export type RoundStatus = (typeof ROUND_STATUSES)[number];

/** Sizes the form, the API and the database agree on. */
export const LOOP_LIMITS = {
  questionsMin: 1,
  questionsMax: 10,
  titleMax: 200,
  descriptionMax: 2000,
  questionMax: 200,
  scaleLabelMax: 40,
  /** A free-text answer. */
  answerMax: 2000,
  roundDaysMin: 1,
  roundDaysMax: 7,
  minResponsesMax: 50,
  /** Chosen members of an audience (the whole workspace has no limit). */
  audienceMax: 10_000,
} as const;

/**
 * Who a loop's audience may hold: the workspace's admins and members (Team Management's list), never people who
 * only joined a health check by its link (PRODUCT-DECISIONS 7).
 */
export const LOOP_AUDIENCE_ACCESS = ['admin', 'member'] as const;

/** Results of an anonymous loop need at least this many answers, whatever the admin sets. */
export const MIN_ANONYMOUS_RESPONSES = 3;

/** What Configure Loop starts from when no template says otherwise. */
export const DEFAULT_LOOP_SETTINGS = {
  cadence: 'weekly',
  weekday: 'monday',
  time: '09:00',
  roundDays: 3,
  anonymous: true,
  minResponses: 3,
  reminder: true,
} as const satisfies {
  cadence: Cadence;
  weekday: Weekday;
  time: string;
  roundDays: number;
  anonymous: boolean;
  minResponses: number;
  reminder: boolean;
};

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/** 'Sunday 29 March 2026' for '2026-03-29' (written here, not by Intl, so every browser says the same). */
export function longDate(date: string): string {
  const parsed = parsePlainDate(date);
  if (!parsed) return date;
  const weekday = WEEKDAYS[isoWeekday(date) - 1] ?? 'monday';
  return `${WEEKDAY_LABELS[weekday]} ${parsed.day} ${MONTHS[parsed.month - 1] ?? ''} ${parsed.year}`;
}

/** The loops' wording, written once for the forms, the server and the e-mails. */
export const LOOP_MESSAGES = {
  titleRequired: 'Title is required',
  titleTooLong: `Title must be at most ${LOOP_LIMITS.titleMax} characters`,
  descriptionTooLong: `Description must be at most ${LOOP_LIMITS.descriptionMax} characters`,
  questionsMin: 'Add at least one question',
  questionsMax: `A loop has at most ${LOOP_LIMITS.questionsMax} questions`,
  questionRequired: 'Write the question',
  questionTooLong: `A question has at most ${LOOP_LIMITS.questionMax} characters`,
  questionKind: 'Choose a scale, a recommend score or free text',
  scaleLabelRequired: 'Label both ends of the scale',
  scaleLabelTooLong: `A scale label has at most ${LOOP_LIMITS.scaleLabelMax} characters`,
  audienceKind: 'Choose everyone in the workspace or chosen members',
  audienceEmpty: 'Choose at least one member',
  audienceTooLarge: `Choose at most ${LOOP_LIMITS.audienceMax.toLocaleString('en-US')} members, or everyone`,
  audienceMember: 'Unknown member',
  audienceDuplicate: 'A member is chosen twice',
  audienceBelowMinimum: (size: number, minResponses: number) =>
    `The audience has ${countOf(size, 'member')}, fewer than the ${minResponses} responses needed before results show`,
  cadence: 'Choose weekly, every two weeks or monthly',
  weekday: 'Choose a weekday',
  time: 'Enter a time of day as HH:MM, from 00:00 to 23:59',
  timeZone: 'Choose a time zone from the list',
  roundDays: `A round stays open for ${LOOP_LIMITS.roundDaysMin} to ${LOOP_LIMITS.roundDaysMax} days`,
  minResponsesRange: `Minimum responses must be a number from 1 to ${LOOP_LIMITS.minResponsesMax}`,
  minResponsesAnonymous: `An anonymous loop needs at least ${MIN_ANONYMOUS_RESPONSES} responses before results show`,
  start: "Choose 'Start now' or the date of the first round",
  startDate: 'Enter the first round date as a real date (YYYY-MM-DD)',
  noSuchTime: (time: string, date: string, timeZone: string) =>
    `${time} does not exist on ${longDate(date)} in ${timeZone}: the clocks go forward that night. Choose another time or first round date`,
  firstRoundPast: "The first round would open in the past: choose a later date or 'Start now'",
  answerRequired: 'Answer this question',
  scaleAnswer: `Choose a value from ${SCALE_MIN} to ${SCALE_MAX}`,
  enpsAnswer: `Choose a score from ${ENPS_MIN} to ${ENPS_MAX}`,
  textAnswerTooLong: `An answer has at most ${LOOP_LIMITS.answerMax} characters`,
  unknownQuestion: 'This question is not part of the round',
  alreadyAnswered: 'You have already answered this round',
  roundClosed: 'This round has closed',
  loopPaused: 'This loop is paused: answers open again when it resumes',
  loopEnded: 'This loop has ended',
  launch: 'Launch Loop',
  notAllowed: "Only workspace admins and the loop's creator can change this loop",
  reminderTooSoon: 'A reminder went out less than an hour ago: wait before sending another',
  roundAlreadyClosed: 'This round has already closed',
  resultsNotReleased: 'The results of this round are not shown yet, so there is nothing to export',
  templateNotAllowed: "Only workspace admins and the template's creator can change this template",
  globalTemplate: 'Global templates cannot be changed: save a copy in your workspace instead',
  notLoopTemplate: 'Only loop templates can be changed here',
  quickAnswerKind: 'The first question of this round cannot be answered with one click',
  settingsOnlyStricter:
    'People have answered this loop, so the settings that protect them can only get stricter',
  minResponsesOnlyRises: (n: number) =>
    `Minimum responses can only rise now that people have answered (it is ${n})`,
  anonymityStaysOn: 'Anonymous answers cannot be turned off once people have answered',
  collecting:
    'Results of an anonymous round show when it closes, so that no one\u2019s answers can be told apart as they come in.',
  belowThreshold: RELEASE_MESSAGES.belowThreshold,
  closedBelowThreshold: (answers: number, minResponses: number) =>
    `This round closed with ${countOf(answers, 'response')}, fewer than the ${minResponses} needed to show results`,
  /** The loop's creator hears a round open and close (bell and Slack, as Completion Milestones): counts only. */
  roundOpenedNotice: (title: string, number: number, audience: number) =>
    `Round ${number} of "${title}" opened: ${countOf(audience, 'member')} asked`,
  roundClosedNotice: (title: string, number: number, answered: number, audience: number, rate: number) =>
    `Round ${number} of "${title}" closed with a response rate of ${rate}% (${answered} of ${audience})`,
} as const;

/** Why a member's answer is refused, in the order they are told; null: the answer is taken. */
export type AnswerRefusal = 'already-answered' | 'loop-ended' | 'round-closed' | 'loop-paused';

export function answerRefusal(options: {
  loopStatus: string;
  roundStatus: string;
  /** When the round closes by its schedule. */
  closesAt: Date;
  now: Date;
  /** The member has a ledger row for this round. */
  answered: boolean;
}): AnswerRefusal | null {
  if (options.answered) return 'already-answered';
  if (options.loopStatus === 'completed') return 'loop-ended';
  if (options.roundStatus !== 'open' || options.now.getTime() >= options.closesAt.getTime()) {
    return 'round-closed';
  }
  if (options.loopStatus === 'paused') return 'loop-paused';
  return null;
}

export const ANSWER_REFUSAL_MESSAGES: Record<AnswerRefusal, string> = {
  'already-answered': LOOP_MESSAGES.alreadyAnswered,
  'loop-ended': LOOP_MESSAGES.loopEnded,
  'round-closed': LOOP_MESSAGES.roundClosed,
  'loop-paused': LOOP_MESSAGES.loopPaused,
};

/**
 * An audience smaller than the responses a round needs would never show results: the message, or null when it is
 * large enough. The form checks chosen members; the server checks 'all' (the workspace's active members) at launch.
 */
export function audienceProblem(size: number, minResponses: number): string | null {
  return size < minResponses ? LOOP_MESSAGES.audienceBelowMinimum(size, minResponses) : null;
}

export type ProtectiveLoopSettings = { anonymous: boolean; minResponses: number };
export type ProtectiveLoopSetting = keyof ProtectiveLoopSettings;

/**
 * Once any round has answers, the settings that protect respondents only get stricter: `anonymous` may go from
 * off to on, never back, and `minResponses` may only rise. Returns what a change would loosen (none: allowed).
 */
export function loosenedLoopSettings(
  before: ProtectiveLoopSettings,
  after: ProtectiveLoopSettings,
): ProtectiveLoopSetting[] {
  const loosened: ProtectiveLoopSetting[] = [];
  if (before.anonymous && !after.anonymous) loosened.push('anonymous');
  if (after.minResponses < before.minResponses) loosened.push('minResponses');
  return loosened;
}

export function loosenedLoopMessages(before: ProtectiveLoopSettings, fields: ProtectiveLoopSetting[]) {
  const message: Record<ProtectiveLoopSetting, string> = {
    anonymous: LOOP_MESSAGES.anonymityStaysOn,
    minResponses: LOOP_MESSAGES.minResponsesOnlyRises(before.minResponses),
  };
  return Object.fromEntries(fields.map((field) => [field, message[field]]));
}

export type QuestionWording = { kind: QuestionKind; text: string; lowLabel?: string; highLabel?: string };

/**
 * Two versions of a question are one trend line only when they ask the same thing the same way: same kind,
 * same text and, for a scale, the same end labels (whitespace at the ends and letter case aside). Editing the
 * wording starts a new line, so answers to different questions are never mixed in one trend.
 */
export function sameQuestion(a: QuestionWording, b: QuestionWording): boolean {
  const norm = (value: string | undefined) => (value ?? '').trim().replace(/\s+/g, ' ').toLowerCase();
  if (a.kind !== b.kind || norm(a.text) !== norm(b.text)) return false;
  return (
    a.kind !== 'scale' || (norm(a.lowLabel) === norm(b.lowLabel) && norm(a.highLabel) === norm(b.highLabel))
  );
}
