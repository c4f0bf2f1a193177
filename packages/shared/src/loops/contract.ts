import { z } from 'zod';
import { NOT_FOUND_MESSAGES } from '../api/errors';
import { brandingSchema } from '../branding/rules';
import { mailStateSchema } from '../mail/contract';
import { CADENCES, LOOP_MESSAGES, LOOP_STATUSES, QUESTION_KINDS, ROUND_STATUSES, WEEKDAYS } from './rules';
import { ROUND_RESULT_STATES } from './release';
import { audienceSchema, followUpAnswersSchema, loopTemplateSchema } from './schemas';
import { followUpCountsSchema } from '../results/schemas';
import { languageSchema } from '../i18n/schemas';

/**
 * What the loops API answers and takes (docs/api/loops.md; design in docs/decisions/0009-loops.md). The bodies
 * the web validates are in schemas.ts (launch, definition, template, answers); this module holds the answers,
 * the few small bodies of their own, and the web addresses the server links to. Times are ISO 8601 strings.
 */

const iso = z.string();

// ---------------------------------------------------------------------------------------------------------
// Questions and rounds

/**
 * A question as the server answers it; an eNPS question carries its fixed end labels, free text none. Its words
 * are in the reader's language when it has them (its translation, i18n/content.ts `pickContent`), else in the
 * loop's language, which `shownIn` then names (the screens say so, and mark the text with it).
 */
export const loopQuestionOutSchema = z.object({
  id: z.uuid(),
  kind: z.enum(QUESTION_KINDS),
  text: z.string(),
  lowLabel: z.string().nullable(),
  highLabel: z.string().nullable(),
  /** The language of `text` (and its labels) when it is not the reader's; null when it is. */
  shownIn: languageSchema.nullable(),
});

/** A question's translations as its editor gets them back: each language's texts, exactly as written. */
export const questionTranslationsOutSchema = z.partialRecord(
  languageSchema,
  z.object({ text: z.string(), lowLabel: z.string().optional(), highLabel: z.string().optional() }),
);

/** A current question for Configure Loop: its wording as written, in the loop's language, and its translations. */
export const loopQuestionEditSchema = loopQuestionOutSchema.extend({
  translations: questionTranslationsOutSchema,
});
export type LoopQuestionOut = z.infer<typeof loopQuestionOutSchema>;
export type LoopQuestionEdit = z.infer<typeof loopQuestionEditSchema>;

/** One round as lists and headers show it. `audience` is the snapshot at opening; `answered` its respondents. */
export const roundSummarySchema = z.object({
  id: z.uuid(),
  number: z.number().int(),
  status: z.enum(ROUND_STATUSES),
  openedAt: iso,
  /** When it closes (open) or was due to close (closed). */
  closesAt: iso,
  closedAt: iso.nullable(),
  audience: z.number().int(),
  answered: z.number().int(),
  /** answered / audience in rounded percent (stats.ts `responseRate`). */
  responseRate: z.number().int(),
  anonymous: z.boolean(),
  minResponses: z.number().int(),
});
export type RoundSummary = z.infer<typeof roundSummarySchema>;

// ---------------------------------------------------------------------------------------------------------
// Launch, read, edit, pause/resume/stop

/** The answer of 'Launch Loop' (POST /api/loops): the loop, when its first round opens, whether e-mail goes out. */
export const launchLoopResponseSchema = z.object({
  id: z.uuid(),
  /** The first round's opening instant ('Start now': the launch's own instant, the round is already open). */
  firstRoundAt: iso,
  startedNow: z.boolean(),
  mail: mailStateSchema,
});
export type LaunchLoopResponse = z.infer<typeof launchLoopResponseSchema>;

/** A loop for Configure Loop (edit) and the headers of its screens. */
export const loopDetailSchema = z.object({
  id: z.uuid(),
  workspace: z.object({ id: z.uuid(), name: z.string() }),
  title: z.string(),
  description: z.string(),
  status: z.enum(LOOP_STATUSES),
  /** The language its questions are written in; their translations are into the others. */
  language: languageSchema,
  /** The current questions, in order (retired versions are only in insights), as written, with translations. */
  questions: z.array(loopQuestionEditSchema),
  audience: audienceSchema,
  cadence: z.enum(CADENCES),
  weekday: z.enum(WEEKDAYS),
  time: z.string(),
  timeZone: z.string(),
  roundDays: z.number().int(),
  anonymous: z.boolean(),
  minResponses: z.number().int(),
  reminder: z.boolean(),
  /** 'Follow-up on actions' (issue 33 item 3). */
  followUpActions: z.boolean(),
  /** 'Every Monday at 09:00 (Europe/Berlin)' (schedule.ts `scheduleSentence`). */
  schedule: z.string(),
  /** When the next round opens by the schedule; null while paused or once completed. */
  nextRoundAt: iso.nullable(),
  currentRound: roundSummarySchema.nullable(),
  roundCount: z.number().int(),
  /** Any round has answers: the protective settings can then only get stricter (rules.ts). */
  hasAnswers: z.boolean(),
  templateId: z.uuid().nullable(),
  createdAt: iso,
  completedAt: iso.nullable(),
  /** The caller may edit, pause, resume, stop and run rounds (workspace admins and the loop's creator). */
  canChange: z.boolean(),
});
export type LoopDetail = z.infer<typeof loopDetailSchema>;
export const loopDetailResponseSchema = z.object({ loop: loopDetailSchema });

// ---------------------------------------------------------------------------------------------------------
// Completion Status

export const personSchema = z.object({ memberId: z.uuid(), name: z.string() });
export type Person = z.infer<typeof personSchema>;

/** Completion Status: the current round's rate and who has and has not answered (names only), and the history. */
export const completionStatusSchema = z.object({
  loop: loopDetailSchema.pick({
    id: true,
    title: true,
    status: true,
    anonymous: true,
    reminder: true,
    schedule: true,
    nextRoundAt: true,
    canChange: true,
  }),
  /** The server's clock, so 'time left' does not depend on the browser's. */
  now: iso,
  /** The open round, or null between rounds. */
  current: roundSummarySchema
    .extend({
      timeLeftMs: z.number().int(),
      answeredBy: z.array(personSchema),
      notAnswered: z.array(personSchema),
      /** The last reminder of this round (automatic or 'Send Reminder'), if any. */
      remindedAt: iso.nullable(),
    })
    .nullable(),
  /** Every round, newest first, the open one included. */
  history: z.array(roundSummarySchema),
});
export type CompletionStatus = z.infer<typeof completionStatusSchema>;

/** 'Send Reminder': how many members were reminded (those who have not answered and want reminders). */
export const remindResponseSchema = z.object({ reminded: z.number().int(), mail: mailStateSchema });
export type RemindResponse = z.infer<typeof remindResponseSchema>;

/** 'Start Next Round Now' and 'Close Round Now' answer the round they opened or closed. */
export const roundResponseSchema = z.object({ round: roundSummarySchema });

// ---------------------------------------------------------------------------------------------------------
// Loop Results

export const freeTextSchema = z.object({
  text: z.string(),
  /** The member's name in a round that was not anonymous; always null in an anonymous one. */
  author: z.string().nullable(),
});

/**
 * One question of a round. Figures only when `state` is 'released' (release.ts, applied to the question's own
 * answers); otherwise `message` says why and every figure is null.
 */
export const questionResultSchema = loopQuestionOutSchema.extend({
  answers: z.number().int(),
  state: z.enum(ROUND_RESULT_STATES),
  message: z.string().nullable(),
  /** Scale: answers per value 1..5; eNPS: per score 0..10. */
  counts: z.array(z.number().int()).nullable(),
  /** Each bar's share in rounded percent. */
  shares: z.array(z.number().int()).nullable(),
  /** Scale: the mean with one decimal. */
  mean: z.number().nullable(),
  enps: z
    .object({
      promoters: z.number().int(),
      passives: z.number().int(),
      detractors: z.number().int(),
      /** −100..+100 */
      score: z.number().int().nullable(),
    })
    .nullable(),
  /** Free text, in the order of release.ts `orderFreeText`. */
  texts: z.array(freeTextSchema).nullable(),
});
export type QuestionResult = z.infer<typeof questionResultSchema>;

/**
 * One action a round asked about ('Follow-up on actions'): released by the round's rule applied to its own answers
 * (release.ts `roundResultState`), as every question of the round; figures null otherwise.
 */
export const followUpResultSchema = z.object({
  id: z.uuid(),
  actionItemId: z.uuid(),
  actionTitle: z.string(),
  question: z.string(),
  answers: z.number().int(),
  state: z.enum(ROUND_RESULT_STATES),
  message: z.string().nullable(),
  counts: followUpCountsSchema.nullable(),
  percentages: followUpCountsSchema.nullable(),
});
export type FollowUpResult = z.infer<typeof followUpResultSchema>;

export const roundResultsSchema = roundSummarySchema.extend({
  state: z.enum(ROUND_RESULT_STATES),
  message: z.string().nullable(),
  questions: z.array(questionResultSchema),
  /** The actions the round asked about, in the order asked. */
  followUps: z.array(followUpResultSchema),
});
export type RoundResults = z.infer<typeof roundResultsSchema>;

export const loopResultsSchema = z.object({
  loop: loopDetailSchema.pick({ id: true, title: true, status: true, anonymous: true, canChange: true }),
  /** Every round, newest first, for the round picker. */
  rounds: z.array(roundSummarySchema),
  /** The chosen round (default: the newest); null before the first round opens. */
  round: roundResultsSchema.nullable(),
});
export type LoopResults = z.infer<typeof loopResultsSchema>;

/** Which round Loop Results and its CSV export show: the newest when left out. */
export const loopResultsQuerySchema = z.object({ roundId: z.uuid(NOT_FOUND_MESSAGES.round).optional() });

// ---------------------------------------------------------------------------------------------------------
// Loop Insights

export const changeSchema = z.object({
  /** Later minus earlier, unrounded, in the figure's unit. */
  change: z.number(),
  /** Half-width of its 95% interval (stats.ts). */
  margin: z.number(),
  real: z.boolean(),
});

/** A point of a trend: a round's figure, and how it changed from the line's previous point. */
export const trendPointSchema = z.object({
  roundId: z.uuid(),
  number: z.number().int(),
  openedAt: iso,
  answers: z.number().int(),
  state: z.enum(ROUND_RESULT_STATES),
  /** Scale: the mean; eNPS: the score; participation: the response rate. Null when not released. */
  value: z.number().nullable(),
  /** Change from the previous point of the line; null for the first, or when no comparison is possible. */
  change: changeSchema.nullable(),
  /** 'Real change', 'Within normal variation' or 'Too few answers to compare' (stats.ts CHANGE_LABELS). */
  label: z.string(),
});
export type TrendPoint = z.infer<typeof trendPointSchema>;

/**
 * One question's trend line: a question id, so one wording. Editing a question's wording starts a new line
 * (`current` false on the old one, which keeps its points).
 */
export const trendLineSchema = loopQuestionOutSchema.extend({
  current: z.boolean(),
  points: z.array(trendPointSchema),
});
export type TrendLine = z.infer<typeof trendLineSchema>;

export const participationPointSchema = trendPointSchema.extend({ audience: z.number().int() });

export const loopInsightsSchema = z.object({
  loop: loopDetailSchema.pick({ id: true, title: true, status: true, anonymous: true }),
  /** Scale and eNPS questions (free text has no trend), current ones first, in question order. */
  lines: z.array(trendLineSchema),
  /** The eNPS lines again, for the eNPS chart (kind 'enps'). */
  enps: z.array(trendLineSchema),
  /** Response rate per round (no minimum applies: who answered is no secret from the admin). */
  participation: z.array(participationPointSchema),
  /**
   * 'Actions that worked' for the loop's follow-ups (issue 33 item 5): over its closed rounds, the actions asked,
   * the answers counted (only of questions released by the round's rule) and the share 'Yes' or 'Partly'.
   */
  actionsWorked: z.object({
    asked: z.number().int(),
    answered: z.number().int(),
    workedShare: z.number().int().nullable(),
  }),
  /** How the verdicts are computed, for the screen's footnote. */
  method: z.string(),
});
export type LoopInsights = z.infer<typeof loopInsightsSchema>;

/** How Loop Insights calls a change real (a catalogue key: the footnote, in the reader's language). */
export const INSIGHTS_METHOD = 'loops.insightsMethod';

// ---------------------------------------------------------------------------------------------------------
// Answering

/** Why a round cannot take this answer now; null when it can (rules.ts `answerRefusal`). */
export const ANSWER_STATES = [
  'open',
  'already-answered',
  'round-closed',
  'loop-paused',
  'loop-ended',
] as const;
export type AnswerState = (typeof ANSWER_STATES)[number];

/** The answer page's data, by personal link or for a signed-in member. */
export const roundToAnswerSchema = z.object({
  loop: z.object({ id: z.uuid(), title: z.string(), description: z.string(), anonymous: z.boolean() }),
  workspaceName: z.string(),
  round: z.object({ id: z.uuid(), number: z.number().int(), closesAt: iso }),
  questions: z.array(loopQuestionOutSchema),
  /** The actions the round asks about ('Follow-up on actions'): each optional, answered with FOLLOW_UP_ANSWERS. */
  followUps: z.array(z.object({ id: z.uuid(), question: z.string() })),
  state: z.enum(ANSWER_STATES),
  /** Why it cannot be answered (LOOP_MESSAGES), null while open. */
  message: z.string().nullable(),
  /** The branding of the organisation the loop belongs to (its name, logo and accent colour; nothing else of it). */
  branding: brandingSchema.nullable(),
});
export type RoundToAnswer = z.infer<typeof roundToAnswerSchema>;

/** Body of the one-click answer: the first question's value, as clicked in the e-mail. */
export const quickAnswerBodySchema = z.strictObject({ value: z.number().int() });

/**
 * The answer of the one-click answer: a random secret for adding the other answers while the round is open
 * (kept by the browser; stored hashed on the response, never with anything of the member).
 */
export const quickAnswerResponseSchema = z.object({ continuation: z.string() });

/** Body of the rest of the form after a one-click answer (answers are partial; each replaces one before). */
export const continueAnswerBodySchema = z.strictObject({
  continuation: z.string().min(20).max(200),
  answers: z.record(z.string(), z.union([z.number(), z.string()])),
  followUps: followUpAnswersSchema.optional(),
});

// ---------------------------------------------------------------------------------------------------------
// Templates of type loop

/** Body of POST /api/templates (a workspace loop template) and PUT /api/templates/{id}. */
export const saveLoopTemplateSchema = z.strictObject({
  workspaceId: z.uuid(LOOP_MESSAGES.workspaceRequired),
  template: loopTemplateSchema,
});
export type SaveLoopTemplate = z.input<typeof saveLoopTemplateSchema>;
export const updateLoopTemplateSchema = z.strictObject({ template: loopTemplateSchema });

export const savedTemplateResponseSchema = z.object({ id: z.uuid() });

// ---------------------------------------------------------------------------------------------------------
// Dashboards

/**
 * A loop on the admin dashboard (GET /api/dashboard, `loops`). `status` is what the dashboard knows: paused
 * shows as active (rules.ts `loopDashboardStatus`); `loopStatus` tells paused apart. The figures are those of
 * the current round, or of the last one when none is open (0 before the first).
 */
export const loopDashboardItemSchema = z.object({
  id: z.uuid(),
  kind: z.literal('loop'),
  title: z.string(),
  description: z.string().nullable(),
  status: z.enum(['active', 'completed']),
  loopStatus: z.enum(LOOP_STATUSES),
  createdAt: iso,
  completedAt: iso.nullable(),
  responses: z.number().int(),
  totalParticipants: z.number().int(),
  completionRate: z.number().int(),
  overdue: z.literal(false),
  currentRound: z.number().int().nullable(),
  roundOpen: z.boolean(),
  nextRoundAt: iso.nullable(),
  /** Active: Completion Status; completed: Loop Results (spec section 4). */
  link: z.string(),
});
export type LoopDashboardItem = z.infer<typeof loopDashboardItemSchema>;

/** An open round the signed-in member may answer (GET /api/my/loop-rounds, /dashboard and the bell). */
export const myLoopRoundSchema = z.object({
  roundId: z.uuid(),
  loopId: z.uuid(),
  title: z.string(),
  workspaceName: z.string(),
  number: z.number().int(),
  closesAt: iso,
  answered: z.boolean(),
  /** LOOP_LINKS.round */
  link: z.string(),
});
export type MyLoopRound = z.infer<typeof myLoopRoundSchema>;
export const myLoopRoundsSchema = z.object({ rounds: z.array(myLoopRoundSchema) });
