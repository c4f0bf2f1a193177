/**
 * The words and small rules of loops, the recurring pulse surveys (issue 12, PRODUCT-DECISIONS 7; design in
 * docs/decisions/0009-loops.md). Without zod, so answer screens and e-mails can use them at first paint.
 * Where the other rules live: schemas.ts (what a loop definition and an answer may be), schedule.ts (when rounds
 * open and close), stats.ts (figures of a round and real change between rounds), release.ts (when a round's
 * results show, and the order of free-text answers), catalogue.ts (the global loop templates).
 */

import { messageWith } from '../i18n/message';
import { RELEASE_MESSAGES } from '../results/release';
import { isoWeekday, parsePlainDate } from './zoned-time';

export const QUESTION_KINDS = ['scale', 'enps', 'text'] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

export const QUESTION_KIND_LABELS: Record<QuestionKind, string> = {
  scale: 'loops.kindScale',
  enps: 'loops.kindEnps',
  text: 'loops.kindText',
};

/** A scale question's answers: whole numbers from 1 to 5, its two ends labelled by the question. */
export const SCALE_MIN = 1;
export const SCALE_MAX = 5;
export const DEFAULT_SCALE_LABELS = { low: 'loops.scaleLow', high: 'loops.scaleHigh' } as const;

/** An eNPS question's answers: whole numbers from 0 to 10, with fixed end labels. */
export const ENPS_MIN = 0;
export const ENPS_MAX = 10;
export const ENPS_LABELS = { low: 'loops.enpsLow', high: 'loops.enpsHigh' } as const;

export const CADENCES = ['weekly', 'biweekly', 'monthly'] as const;
export type Cadence = (typeof CADENCES)[number];

export const CADENCE_LABELS: Record<Cadence, string> = {
  weekly: 'loops.cadenceWeekly',
  biweekly: 'loops.cadenceBiweekly',
  monthly: 'loops.cadenceMonthly',
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
  monday: 'loops.weekdayMonday',
  tuesday: 'loops.weekdayTuesday',
  wednesday: 'loops.weekdayWednesday',
  thursday: 'loops.weekdayThursday',
  friday: 'loops.weekdayFriday',
  saturday: 'loops.weekdaySaturday',
  sunday: 'loops.weekdaySunday',
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
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
] as const;

/**
 * A calendar date in words, as a message (message.ts): 'Sunday 29 March 2026' for '2026-03-29' in English,
 * 'Sonntag, 29. März 2026' in German. Written by the catalogue, not by Intl, so every browser says the same and
 * the first render loads no locale data.
 */
export function longDate(date: string): string {
  const parsed = parsePlainDate(date);
  if (!parsed) return date;
  return messageWith('loops.longDate', {
    weekday: WEEKDAYS[isoWeekday(date) - 1] ?? 'monday',
    day: String(parsed.day),
    month: MONTHS[parsed.month - 1] ?? 'january',
    year: String(parsed.year),
  });
}

/**
 * The loops' wording, written once for the forms, the server and the e-mails: catalogue keys (decision 0027; the
 * words are in packages/shared/messages/<language>/loops.json), some with placeholders, noted with their values.
 */
export const LOOP_MESSAGES = {
  titleRequired: 'loops.titleRequired',
  titleTooLong: 'loops.titleTooLong',
  descriptionTooLong: 'loops.descriptionTooLong',
  questionsMin: 'loops.questionsMin',
  questionsMax: 'loops.questionsMax',
  questionRequired: 'loops.questionRequired',
  questionTooLong: 'loops.questionTooLong',
  questionKind: 'loops.questionKind',
  questionTwice: 'loops.questionTwice',
  scaleLabelRequired: 'loops.scaleLabelRequired',
  scaleLabelTooLong: 'loops.scaleLabelTooLong',
  audienceKind: 'loops.audienceKind',
  audienceEmpty: 'loops.audienceEmpty',
  audienceTooLarge: 'loops.audienceTooLarge',
  audienceMember: 'loops.audienceMember',
  audienceDuplicate: 'loops.audienceDuplicate',
  /** `{ count, minResponses }`: the audience's size and the responses a round needs (`audienceProblem`). */
  audienceBelowMinimum: 'loops.audienceBelowMinimum',
  cadence: 'loops.cadence',
  weekday: 'loops.weekday',
  time: 'loops.time',
  timeZone: 'loops.timeZone',
  roundDays: 'loops.roundDays',
  minResponsesRange: 'loops.minResponsesRange',
  minResponsesAnonymous: 'loops.minResponsesAnonymous',
  start: 'loops.start',
  startDate: 'loops.startDate',
  /** `{ time, date, timeZone }`, `date` in words (`longDate`): see `firstRoundProblem`. */
  noSuchTime: 'loops.noSuchTime',
  firstRoundPast: 'loops.firstRoundPast',
  selectWorkspace: 'loops.selectWorkspace',
  workspaceRequired: 'loops.workspaceRequired',
  unknownTemplate: 'loops.unknownTemplate',
  answerRequired: 'loops.answerRequired',
  scaleAnswer: 'loops.scaleAnswer',
  enpsAnswer: 'loops.enpsAnswer',
  textAnswerTooLong: 'loops.textAnswerTooLong',
  unknownQuestion: 'loops.unknownQuestion',
  alreadyAnswered: 'loops.alreadyAnswered',
  roundClosed: 'loops.roundClosed',
  loopPaused: 'loops.loopPaused',
  loopEnded: 'loops.loopEnded',
  launch: 'loops.launch',
  notAllowed: 'loops.notAllowed',
  reminderTooSoon: 'loops.reminderTooSoon',
  roundAlreadyClosed: 'loops.roundAlreadyClosed',
  resultsNotReleased: 'loops.resultsNotReleased',
  templateNotAllowed: 'loops.templateNotAllowed',
  globalTemplate: 'loops.globalTemplate',
  notLoopTemplate: 'loops.notLoopTemplate',
  quickAnswerKind: 'loops.quickAnswerKind',
  settingsOnlyStricter: 'loops.settingsOnlyStricter',
  /** `{ count }`: the loop's minimum responses now. */
  minResponsesOnlyRises: 'loops.minResponsesOnlyRises',
  anonymityStaysOn: 'loops.anonymityStaysOn',
  collecting: 'loops.collecting',
  /** `{ count }`: the answers still missing (results.json). */
  belowThreshold: RELEASE_MESSAGES.belowThreshold,
  /** `{ count, minResponses }`: a closed round's answers and the minimum it needed. */
  closedBelowThreshold: 'loops.closedBelowThreshold',
  /** The loop's creator hears a round open and close (bell and Slack, as Completion Milestones): counts only.
   * `{ title, number, count }`: the loop, the round's number and its audience. */
  roundOpenedNotice: 'loops.roundOpenedNotice',
  /** `{ title, number, rate, answered, audience }`, `rate` a percentage in the reader's language. */
  roundClosedNotice: 'loops.roundClosedNotice',
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
 * An audience smaller than the responses a round needs would never show results: the message (message.ts), or
 * null when it is large enough. The form checks chosen members; the server checks 'all' (the workspace's active members) at launch.
 */
export function audienceProblem(size: number, minResponses: number): string | null {
  return size < minResponses
    ? messageWith(LOOP_MESSAGES.audienceBelowMinimum, { count: size, minResponses })
    : null;
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

/** Why each loosened setting is refused, as messages (message.ts) for the fields of the answer. */
export function loosenedLoopMessages(before: ProtectiveLoopSettings, fields: ProtectiveLoopSetting[]) {
  const message: Record<ProtectiveLoopSetting, string> = {
    anonymous: LOOP_MESSAGES.anonymityStaysOn,
    minResponses: messageWith(LOOP_MESSAGES.minResponsesOnlyRises, { count: before.minResponses }),
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
