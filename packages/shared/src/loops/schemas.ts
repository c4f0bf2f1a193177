import { z } from 'zod';
import { FOLLOW_UP_ANSWERS, FOLLOW_UP_MESSAGES, FOLLOW_UP_ROUND_MAX } from '../action-items/follow-up';
import { requiredText } from '../api/fields';
import { CONTENT_MESSAGES, contentTranslations, sameLanguageTranslations } from '../i18n/content';
import type { Language } from '../i18n/languages';
import { languageSchema } from '../i18n/schemas';
import {
  CADENCES,
  DEFAULT_LOOP_SETTINGS,
  ENPS_MAX,
  ENPS_MIN,
  LOOP_LIMITS,
  LOOP_MESSAGES,
  MIN_ANONYMOUS_RESPONSES,
  SCALE_MAX,
  SCALE_MIN,
  WEEKDAYS,
  audienceProblem,
  type QuestionKind,
} from './rules';
import { firstRoundProblem } from './schedule';
import { isPlainDate, isTimeOfDay, isTimeZone } from './zoned-time';

/**
 * What a loop definition and a round's answers may be, for the Configure Loop form, the API and the answer form.
 * The words (LOOP_MESSAGES), limits and vocabulary live in rules.ts, without zod: import them from there.
 */

const questionText = requiredText(
  LOOP_MESSAGES.questionRequired,
  LOOP_LIMITS.questionMax,
  LOOP_MESSAGES.questionTooLong,
);
const scaleLabel = requiredText(
  LOOP_MESSAGES.scaleLabelRequired,
  LOOP_LIMITS.scaleLabelMax,
  LOOP_MESSAGES.scaleLabelTooLong,
);

/** A question's wording in another language: each text as the original's (a scale's end labels too). */
export const questionTranslationSchema = z.strictObject({ text: questionText });
export const scaleQuestionTranslationSchema = z.strictObject({
  text: questionText,
  lowLabel: scaleLabel,
  highLabel: scaleLabel,
});
export type QuestionTranslation = z.infer<typeof questionTranslationSchema> & {
  lowLabel?: string;
  highLabel?: string;
};

/**
 * A question as the builder sends it. `id` is an existing question's id when a loop is edited (the server keeps
 * it, and so the trend line, only while `sameQuestion` holds, rules.ts); new questions have none. `translations`:
 * its wording in other languages than the loop's (i18n/content.ts); changing them keeps the question.
 */
const questionBase = {
  id: z.uuid().optional(),
  text: questionText,
  translations: contentTranslations(questionTranslationSchema),
};

export const scaleQuestionSchema = z.strictObject({
  ...questionBase,
  kind: z.literal('scale'),
  lowLabel: scaleLabel,
  highLabel: scaleLabel,
  translations: contentTranslations(scaleQuestionTranslationSchema),
});
export const enpsQuestionSchema = z.strictObject({ ...questionBase, kind: z.literal('enps') });
export const textQuestionSchema = z.strictObject({ ...questionBase, kind: z.literal('text') });

export const questionSchema = z.discriminatedUnion(
  'kind',
  [scaleQuestionSchema, enpsQuestionSchema, textQuestionSchema],
  { error: LOOP_MESSAGES.questionKind },
);
export type LoopQuestion = z.infer<typeof questionSchema>;

export const questionsSchema = z
  .array(questionSchema, { error: LOOP_MESSAGES.questionsMin })
  .min(LOOP_LIMITS.questionsMin, LOOP_MESSAGES.questionsMin)
  .max(LOOP_LIMITS.questionsMax, LOOP_MESSAGES.questionsMax)
  .refine((questions) => {
    const ids = questions.flatMap((question) => (question.id ? [question.id] : []));
    return new Set(ids).size === ids.length;
  }, LOOP_MESSAGES.questionTwice);

/** Everyone active in the workspace when each round opens, or the chosen workspace members (membership ids). */
export const audienceSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('all') }),
    z.strictObject({
      kind: z.literal('members'),
      memberIds: z
        .array(z.uuid(LOOP_MESSAGES.audienceMember), { error: LOOP_MESSAGES.audienceEmpty })
        .min(1, LOOP_MESSAGES.audienceEmpty)
        .max(LOOP_LIMITS.audienceMax, LOOP_MESSAGES.audienceTooLarge)
        .refine((ids) => new Set(ids).size === ids.length, LOOP_MESSAGES.audienceDuplicate),
    }),
  ],
  { error: LOOP_MESSAGES.audienceKind },
);
export type LoopAudience = z.infer<typeof audienceSchema>;

/** A whole number in range; one message for every way to miss it, another when it is missing. */
const integer = (min: number, max: number, message: string, missing = message) =>
  z
    .number({ error: (issue) => (issue.input === undefined ? missing : message) })
    .int(message)
    .min(min, message)
    .max(max, message);

/** The schedule and the settings that protect respondents, as a template's defaults or a loop's own. */
const settingsFields = {
  cadence: z.enum(CADENCES, { error: LOOP_MESSAGES.cadence }),
  weekday: z.enum(WEEKDAYS, { error: LOOP_MESSAGES.weekday }),
  /** Time of day the rounds open, 'HH:MM', in `timeZone`. */
  time: z.string({ error: LOOP_MESSAGES.time }).refine(isTimeOfDay, LOOP_MESSAGES.time),
  /** How many days a round stays open. */
  roundDays: integer(LOOP_LIMITS.roundDaysMin, LOOP_LIMITS.roundDaysMax, LOOP_MESSAGES.roundDays),
  anonymous: z.boolean().default(DEFAULT_LOOP_SETTINGS.anonymous),
  /** Answers a round needs before its results show; at least 3 when anonymous. */
  minResponses: integer(1, LOOP_LIMITS.minResponsesMax, LOOP_MESSAGES.minResponsesRange).default(
    DEFAULT_LOOP_SETTINGS.minResponses,
  ),
  /** A reminder to those who have not answered, before the round closes. */
  reminder: z.boolean().default(DEFAULT_LOOP_SETTINGS.reminder),
};

/** The loop fields, for forms that pick from them (`loopDefinitionSchema` adds the rules across fields). */
export const loopDefinitionFields = {
  title: requiredText(LOOP_MESSAGES.titleRequired, LOOP_LIMITS.titleMax, LOOP_MESSAGES.titleTooLong),
  /**
   * The language the questions are written in (the admin's when left out at launch); their `translations` are
   * into the others.
   */
  language: languageSchema.optional(),
  description: z
    .string()
    .trim()
    .max(LOOP_LIMITS.descriptionMax, LOOP_MESSAGES.descriptionTooLong)
    .default(''),
  questions: questionsSchema,
  audience: audienceSchema,
  ...settingsFields,
  /** IANA time zone of `weekday` and `time` (the form offers the browser's). */
  timeZone: z.string({ error: LOOP_MESSAGES.timeZone }).refine(isTimeZone, LOOP_MESSAGES.timeZone),
  /** 'Follow-up on actions' (issue 33 item 3): rounds also ask about the workspace's done actions. Off by default. */
  followUpActions: z.boolean().default(false),
};

type Checked = {
  anonymous: boolean;
  minResponses: number;
  audience?: LoopAudience;
  language?: Language | undefined;
  questions?: readonly { translations?: Partial<Record<string, unknown>> | undefined }[];
};

/** A question's translation in the language it is written in is refused (its original says it). */
function checkTranslations(value: Pick<Checked, 'language' | 'questions'>, ctx: z.RefinementCtx) {
  // Without one, the server decides the language (the admin's, or the loop's as it is) and checks it then.
  const language = value.language;
  // An object's refinements run even when a field failed: `questions` may be anything.
  const questions = Array.isArray(value.questions)
    ? (value.questions as NonNullable<Checked['questions']>)
    : [];
  if (!language) return;
  for (const [index, question] of questions.entries()) {
    if (sameLanguageTranslations(question?.translations, language))
      ctx.addIssue({
        code: 'custom',
        path: ['questions', index, 'translations', language],
        message: CONTENT_MESSAGES.translationSameLanguage,
      });
  }
}

/**
 * The rules across fields: the anonymous floor of minResponses, and an audience large enough to show results.
 * Zod runs an object's refinements even when a field failed, so each rule looks only at fields that passed.
 */
function checkProtection(value: Checked, ctx: z.RefinementCtx) {
  if (!Number.isInteger(value.minResponses)) return;
  if (value.anonymous === true && value.minResponses < MIN_ANONYMOUS_RESPONSES) {
    ctx.addIssue({ code: 'custom', path: ['minResponses'], message: LOOP_MESSAGES.minResponsesAnonymous });
  }
  if (value.audience?.kind === 'members' && audienceSchema.safeParse(value.audience).success) {
    const problem = audienceProblem(value.audience.memberIds.length, value.minResponses);
    if (problem) ctx.addIssue({ code: 'custom', path: ['audience', 'memberIds'], message: problem });
  }
  checkTranslations(value, ctx);
}

/** A loop as stored and edited: everything the admin writes on Configure Loop but the first round's start. */
export const loopDefinitionSchema = z.strictObject(loopDefinitionFields).superRefine(checkProtection);
export type LoopDefinition = z.infer<typeof loopDefinitionSchema>;
export type LoopDefinitionInput = z.input<typeof loopDefinitionSchema>;

/** 'now' or the local date ('YYYY-MM-DD') on or after which the first round opens (schedule.ts). */
export const startSchema = z
  .string({ error: LOOP_MESSAGES.start })
  .refine((value) => value === 'now' || isPlainDate(value), LOOP_MESSAGES.startDate);

/** What the first round's instant depends on; checked before asking schedule.ts about it. */
const firstRoundFields = z.object({
  cadence: settingsFields.cadence,
  weekday: settingsFields.weekday,
  time: settingsFields.time,
  timeZone: loopDefinitionFields.timeZone,
  start: startSchema,
});

/**
 * Body of 'Launch Loop'. A first round date whose time the clocks skip is refused here; one in the past needs a
 * clock, so the server asks `firstRoundProblem(rule, start, now)` too.
 */
export const launchLoopSchema = z
  .strictObject({
    ...loopDefinitionFields,
    start: startSchema,
    workspaceId: z.uuid(LOOP_MESSAGES.selectWorkspace),
    /** The template the loop was configured from, if any. */
    templateId: z.uuid(LOOP_MESSAGES.unknownTemplate).nullable().default(null),
    /** Made once per Configure Loop form, so a repeated click returns the first launch instead of a second loop. */
    launchKey: z.string().trim().min(8).max(100),
  })
  .superRefine((value, ctx) => {
    checkProtection(value, ctx);
    if (!firstRoundFields.safeParse(value).success) return;
    const problem = firstRoundProblem(value, value.start);
    if (problem) ctx.addIssue({ code: 'custom', path: ['start'], message: problem });
  });
export type LaunchLoopInput = z.input<typeof launchLoopSchema>;
export type LaunchLoop = z.infer<typeof launchLoopSchema>;

/** A catalogue question's stable key (wp1…), by which the seed's upsert finds it again. */
const templateKey = { key: z.string().min(1).max(40).optional() };

/**
 * What a loop template holds (global ones in catalogue.ts, workspace ones saved by admins): its questions and
 * the defaults Configure Loop starts from.
 */
export const loopTemplateSchema = z
  .strictObject({
    title: loopDefinitionFields.title,
    /** The language its questions are written in; a catalogue template's are the catalogue's, in every language. */
    language: loopDefinitionFields.language,
    description: loopDefinitionFields.description,
    questions: z
      .array(
        z.discriminatedUnion('kind', [
          scaleQuestionSchema.extend(templateKey),
          enpsQuestionSchema.extend(templateKey),
          textQuestionSchema.extend(templateKey),
        ]),
      )
      .min(LOOP_LIMITS.questionsMin, LOOP_MESSAGES.questionsMin)
      .max(LOOP_LIMITS.questionsMax, LOOP_MESSAGES.questionsMax),
    defaults: z.strictObject(settingsFields).superRefine(checkProtection),
  })
  .superRefine(checkTranslations);
export type LoopTemplate = z.input<typeof loopTemplateSchema>;

/** A question of an open round, as the answer form and the server know it. */
export type RoundQuestion = { id: string; kind: QuestionKind };

/** One answer's value by question kind: a whole number in range, or free text (empty: not answered). */
export function answerValueSchema(kind: QuestionKind) {
  if (kind === 'scale')
    return integer(SCALE_MIN, SCALE_MAX, LOOP_MESSAGES.scaleAnswer, LOOP_MESSAGES.answerRequired);
  if (kind === 'enps')
    return integer(ENPS_MIN, ENPS_MAX, LOOP_MESSAGES.enpsAnswer, LOOP_MESSAGES.answerRequired);
  return z
    .string({ error: LOOP_MESSAGES.textAnswerTooLong })
    .trim()
    .max(LOOP_LIMITS.answerMax, LOOP_MESSAGES.textAnswerTooLong);
}

/** A round's answers keyed by question id: a number for scale and eNPS questions, text for free text. */
export type RoundAnswers = Record<string, number | string>;

/**
 * The answers to a round's questions, keyed by question id. Scale and eNPS questions must be answered, free text
 * may be left out or empty (an empty text is dropped); with `partial` (the one-click answer from the e-mail, and
 * the rest of the form after it) nothing is required. Ids of other questions are refused.
 */
export function roundAnswersSchema(questions: readonly RoundQuestion[], options: { partial?: boolean } = {}) {
  const shape: Record<string, z.ZodType> = {};
  for (const question of questions) {
    const value = answerValueSchema(question.kind);
    shape[question.id] = options.partial || question.kind === 'text' ? value.optional() : value;
  }
  return z
    .strictObject(shape, {
      error: (issue) =>
        issue.code === 'unrecognized_keys' ? LOOP_MESSAGES.unknownQuestion : LOOP_MESSAGES.answerRequired,
    })
    .transform((answers): RoundAnswers => {
      const kept: RoundAnswers = {};
      for (const [id, value] of Object.entries(answers)) {
        if (typeof value === 'number' || (typeof value === 'string' && value !== '')) kept[id] = value;
      }
      return kept;
    });
}

/**
 * Answers to a round's follow-up questions ('Follow-up on actions'), keyed by follow-up question id; each optional.
 * The service checks the ids against the round's own questions.
 */
export const followUpAnswersSchema = z
  .record(
    z.uuid(FOLLOW_UP_MESSAGES.unknownRoundQuestion),
    z.enum(FOLLOW_UP_ANSWERS, { error: FOLLOW_UP_MESSAGES.invalidAnswer }),
  )
  .refine(
    (answers) => Object.keys(answers).length <= FOLLOW_UP_ROUND_MAX,
    FOLLOW_UP_MESSAGES.unknownRoundQuestion,
  );
export type FollowUpAnswers = z.infer<typeof followUpAnswersSchema>;

/** Body of an answer submission; the service checks it against the round with `roundAnswersSchema`. */
export const answersBodySchema = z.strictObject({
  answers: z
    .record(z.uuid(LOOP_MESSAGES.unknownQuestion), z.union([z.number(), z.string()]))
    .refine(
      (answers) => Object.keys(answers).length <= LOOP_LIMITS.questionsMax,
      LOOP_MESSAGES.unknownQuestion,
    ),
  followUps: followUpAnswersSchema.optional(),
});
export type AnswersBody = z.infer<typeof answersBodySchema>;
