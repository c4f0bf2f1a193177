import {
  CADENCES,
  LOOP_STATUSES,
  MIN_ANONYMOUS_RESPONSES,
  QUESTION_KINDS,
  ROUND_STATUSES,
  WEEKDAYS,
} from '@pulsecheck/shared/loops/rules';
import { FOLLOW_UP_ANSWERS } from '@pulsecheck/shared/action-items/follow-up';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@pulsecheck/shared/i18n/languages';
import type { Translations } from '@pulsecheck/shared/i18n/content';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  unique,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { userRef } from './auth';
import { createdAt, instant, sqlList, uuidPrimaryKey } from './columns';
import { followUpQuestions, templates } from './health-checks';
import { workspaceMembers, workspaceRef } from './organizations';

/**
 * Loops, the recurring pulse surveys (docs/decisions/0009-loops.md). The tables that hold answers are built so
 * that an anonymous answer cannot be traced to its author by anyone who reads them (0009, "Anonymity against
 * the database"): `loop_responses` and `loop_answers` carry no member, no token, no time; the ledger records
 * only that a member answered; sealing at close rewrites a round's responses in random order.
 */

const loopRef = () =>
  uuid('loop_id')
    .notNull()
    .references(() => loops.id, { onDelete: 'cascade' });
const roundRef = () =>
  uuid('round_id')
    .notNull()
    .references(() => loopRounds.id, { onDelete: 'cascade' });
const memberRef = () =>
  uuid('member_id')
    .notNull()
    .references(() => workspaceMembers.id, { onDelete: 'cascade' });

export const loops = pgTable(
  'loops',
  {
    id: uuidPrimaryKey(),
    workspaceId: workspaceRef(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    /**
     * The language its questions are written in (the admin's when launched; decision 0027, 'Content in several
     * languages'); their translations are into the others.
     */
    language: text('language').$type<Language>().notNull().default(DEFAULT_LANGUAGE),
    status: text('status').notNull().default('active'),
    /** 'all' (every active member when a round opens) or 'members' (those in loop_audience). */
    audienceKind: text('audience_kind').notNull(),
    cadence: text('cadence').notNull(),
    weekday: text('weekday').notNull(),
    /** 'HH:MM' in time_zone. */
    time: text('time').notNull(),
    timeZone: text('time_zone').notNull(),
    /** The local date of slot 0 (schedule.ts). */
    anchorDate: date('anchor_date', { mode: 'string' }).notNull(),
    roundDays: integer('round_days').notNull(),
    anonymous: boolean('anonymous').notNull(),
    minResponses: integer('min_responses').notNull(),
    reminder: boolean('reminder').notNull(),
    /** 'Follow-up on actions': each round also asks about the workspace's actions done since the previous one. */
    followUpActions: boolean('follow_up_actions').notNull().default(false),
    /** When the job opens the next round; null while paused or once completed. */
    nextRoundAt: instant('next_round_at'),
    templateId: uuid('template_id').references(() => templates.id, { onDelete: 'set null' }),
    createdBy: userRef('created_by'),
    /** Idempotency key of 'Launch Loop', so one click never creates two loops. */
    launchKey: text('launch_key'),
    createdAt: createdAt(),
    completedAt: instant('completed_at'),
  },
  (t) => [
    index('loops_workspace_created_idx').on(t.workspaceId, t.createdAt),
    uniqueIndex('loops_launch_key').on(t.createdBy, t.launchKey),
    check('loops_status_check', sql`${t.status} in ${sqlList(LOOP_STATUSES)}`),
    check('loops_language_check', sql`${t.language} in ${sqlList(LANGUAGES)}`),
    check('loops_audience_kind_check', sql`${t.audienceKind} in ('all', 'members')`),
    check('loops_cadence_check', sql`${t.cadence} in ${sqlList(CADENCES)}`),
    check('loops_weekday_check', sql`${t.weekday} in ${sqlList(WEEKDAYS)}`),
    check(
      'loops_min_responses_check',
      sql`${t.minResponses} >= 1 and (not ${t.anonymous} or ${t.minResponses} >= ${sql.raw(String(MIN_ANONYMOUS_RESPONSES))})`,
    ),
  ],
);

type QuestionTranslationRow = { text: string; lowLabel?: string; highLabel?: string };

/** A loop's questions. Editing a question's wording retires it and adds a new one (a new trend line). */
export const loopQuestions = pgTable(
  'loop_questions',
  {
    id: uuidPrimaryKey(),
    loopId: loopRef(),
    kind: text('kind').notNull(),
    text: text('text').notNull(),
    lowLabel: text('low_label'),
    highLabel: text('high_label'),
    /** Its wording in other languages than the loop's, `{ de: { text, lowLabel?, highLabel? } }`; null: none. */
    translations: jsonb('translations').$type<Translations<QuestionTranslationRow>>(),
    position: integer('position').notNull(),
    /** Set when the question left the loop (edited or removed); its answers stay with it. */
    retiredAt: instant('retired_at'),
  },
  (t) => [
    index('loop_questions_loop_idx').on(t.loopId, t.position),
    check('loop_questions_kind_check', sql`${t.kind} in ${sqlList(QUESTION_KINDS)}`),
  ],
);

/** The chosen members of a loop whose audience is 'members'. */
export const loopAudience = pgTable('loop_audience', { loopId: loopRef(), memberId: memberRef() }, (t) => [
  primaryKey({ columns: [t.loopId, t.memberId] }),
  index('loop_audience_member_idx').on(t.memberId),
]);

/** One send of a loop, with a snapshot of what decides its results. At most one round of a loop is open. */
export const loopRounds = pgTable(
  'loop_rounds',
  {
    id: uuidPrimaryKey(),
    loopId: loopRef(),
    number: integer('number').notNull(),
    status: text('status').notNull().default('open'),
    openedAt: instant('opened_at').notNull(),
    closesAt: instant('closes_at').notNull(),
    closedAt: instant('closed_at'),
    /** Members the round was sent to. */
    audience: integer('audience').notNull(),
    /** Members who answered, counted when the round closes (the ledger counts it while open). */
    answered: integer('answered'),
    anonymous: boolean('anonymous').notNull(),
    minResponses: integer('min_responses').notNull(),
    /** The round's questions, in order (questions are never deleted, only retired). */
    questionIds: uuid('question_ids').array().notNull(),
    /**
     * The members the round went to, taken when it opened: recipients are written from it in batches, with their
     * e-mails (`invited` of them so far), and it is cleared once all are.
     */
    audienceIds: uuid('audience_ids').array(),
    invited: integer('invited').notNull().default(0),
    /** The last reminder of the round. */
    remindedAt: instant('reminded_at'),
  },
  (t) => [
    uniqueIndex('loop_rounds_loop_number_key').on(t.loopId, t.number),
    uniqueIndex('loop_rounds_one_open_key')
      .on(t.loopId)
      .where(sql`${t.status} = 'open'`),
    // The target of loop_responses' (round_id, anonymous) reference.
    unique('loop_rounds_id_anonymous_key').on(t.id, t.anonymous),
    check('loop_rounds_status_check', sql`${t.status} in ${sqlList(ROUND_STATUSES)}`),
  ],
);

/**
 * Each member a round was sent to, written with their e-mail, with the hash of their personal link's token (the
 * token itself is derived from the server's secret, never stored). Says nothing of whether or what they answered.
 */
export const loopRoundRecipients = pgTable(
  'loop_round_recipients',
  {
    roundId: roundRef(),
    memberId: memberRef(),
    tokenHash: text('token_hash').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.roundId, t.memberId] }),
    uniqueIndex('loop_round_recipients_token_key').on(t.tokenHash),
    index('loop_round_recipients_member_idx').on(t.memberId),
  ],
);

/** That a member answered a round: no time, no link to the answer. One row per member and round. */
export const loopRoundLedger = pgTable(
  'loop_round_ledger',
  { roundId: roundRef(), memberId: memberRef() },
  (t) => [primaryKey({ columns: [t.roundId, t.memberId] })],
);

/**
 * One member's answers to a round. In an anonymous round: a random id, the round, and nothing else that could
 * lead to the member (no member, no token, no time). `member_id` only in rounds that are not anonymous.
 */
export const loopResponses = pgTable(
  'loop_responses',
  {
    id: uuidPrimaryKey(),
    roundId: uuid('round_id').notNull(),
    anonymous: boolean('anonymous').notNull(),
    memberId: uuid('member_id').references(() => workspaceMembers.id, { onDelete: 'set null' }),
    /** Hash of the one-click answer's continuation secret, while the round is open; cleared by sealing. */
    continuationHash: text('continuation_hash'),
  },
  (t) => [
    foreignKey({
      name: 'loop_responses_round_fk',
      columns: [t.roundId, t.anonymous],
      foreignColumns: [loopRounds.id, loopRounds.anonymous],
    }).onDelete('cascade'),
    index('loop_responses_round_idx').on(t.roundId),
    uniqueIndex('loop_responses_continuation_key').on(t.continuationHash),
    check('loop_responses_anonymous_check', sql`not ${t.anonymous} or ${t.memberId} is null`),
  ],
);

export const loopAnswers = pgTable(
  'loop_answers',
  {
    responseId: uuid('response_id')
      .notNull()
      .references(() => loopResponses.id, { onDelete: 'cascade' }),
    questionId: uuid('question_id')
      .notNull()
      .references(() => loopQuestions.id, { onDelete: 'cascade' }),
    score: smallint('score'),
    text: text('text'),
  },
  (t) => [
    primaryKey({ columns: [t.responseId, t.questionId] }),
    check('loop_answers_value_check', sql`(${t.score} is null) <> (${t.text} is null)`),
  ],
);

/**
 * Answers to a round's follow-up questions ('Follow-up on actions', decision 0019), hanging off the response as
 * loop_answers do: no member, no time; sealing rewrites them with their response. One per response and question.
 */
export const loopFollowUpAnswers = pgTable(
  'loop_follow_up_answers',
  {
    responseId: uuid('response_id')
      .notNull()
      .references(() => loopResponses.id, { onDelete: 'cascade' }),
    questionId: uuid('question_id')
      .notNull()
      .references(() => followUpQuestions.id, { onDelete: 'cascade' }),
    answer: text('answer').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.responseId, t.questionId] }),
    index('loop_follow_up_answers_question_idx').on(t.questionId, t.answer),
    check('loop_follow_up_answers_answer_check', sql`${t.answer} in ${sqlList(FOLLOW_UP_ANSWERS)}`),
  ],
);

/**
 * A closed round's answers per question and value, counted (GROUP BY) when it closes: closed rounds never
 * change, so insights read 52 rounds of counts instead of millions of answers.
 */
export const loopRoundCounts = pgTable(
  'loop_round_counts',
  {
    roundId: roundRef(),
    questionId: uuid('question_id')
      .notNull()
      .references(() => loopQuestions.id, { onDelete: 'cascade' }),
    value: smallint('value').notNull(),
    count: integer('count').notNull(),
  },
  (t) => [primaryKey({ columns: [t.roundId, t.questionId, t.value] })],
);
