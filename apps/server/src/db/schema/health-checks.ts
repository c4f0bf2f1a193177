import { PHASES, STATUSES } from '@pulsecheck/shared/health-checks/rules';
import { FOLLOW_UP_ANSWERS, type FollowUpCounts } from '@pulsecheck/shared/action-items/follow-up';
import { PARTICIPATION_RATINGS } from '@pulsecheck/shared/participation/rules';
import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  primaryKey,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, instant, sqlList, updatedAt, uuidPrimaryKey } from './columns';
import { ownerRef, userRef } from './auth';
import { workspaceMembers, workspaceRef, workspaces } from './organizations';
import { loopRounds } from './loops';

/** The columns that tie a row to its check, component or participant (deleted with them). */
const checkRef = () =>
  uuid('health_check_id')
    .notNull()
    .references(() => healthChecks.id, { onDelete: 'cascade' });
const componentRef = () =>
  uuid('component_id')
    .notNull()
    .references(() => healthCheckComponents.id, { onDelete: 'cascade' });
const participantRef = () =>
  uuid('participant_id')
    .notNull()
    .references(() => participants.id, { onDelete: 'cascade' });

export const templates = pgTable(
  'templates',
  {
    id: uuidPrimaryKey(),
    title: text('title').notNull(),
    description: text('description'),
    type: text('type').notNull(),
    /** Null for a global template. */
    workspaceId: uuid('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    isGlobal: boolean('is_global').notNull().default(false),
    /**
     * A launch's copy of the components it was launched with: it belongs to its check (health_checks.template_id),
     * is never listed as a template and cannot be opened, configured or launched from as one.
     */
    isSnapshot: boolean('is_snapshot').notNull().default(false),
    settings: jsonb('settings'),
    createdBy: userRef('created_by'),
    createdAt: createdAt(),
  },
  (t) => [
    index('templates_workspace_id_idx').on(t.workspaceId),
    index('templates_global_idx').on(t.isGlobal),
    check('templates_type_check', sql`${t.type} in ('health-check', 'loop')`),
    check('templates_global_check', sql`${t.isGlobal} = (${t.workspaceId} is null)`),
    check('templates_snapshot_check', sql`not (${t.isSnapshot} and ${t.isGlobal})`),
  ],
);

export const healthCheckComponents = pgTable(
  'health_check_components',
  {
    id: uuidPrimaryKey(),
    templateId: uuid('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'cascade' }),
    /** Stable key (c1..c29 for the catalogue), kept when launch copies a component, so checks compare by key. */
    key: text('key').notNull(),
    title: text('title').notNull(),
    description: text('description'),
    category: text('category'),
    orderIndex: integer('order_index').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    examples: jsonb('examples')
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
  },
  (t) => [
    uniqueIndex('health_check_components_template_key').on(t.templateId, t.key),
    index('health_check_components_template_order_idx').on(t.templateId, t.orderIndex),
  ],
);

export type HealthCheckSettings = {
  minResponses: number;
  allowAnonymous: boolean;
  enableComments: boolean;
  votesPerPerson: number;
  showResultsAfterVoting: boolean;
};

export const healthChecks = pgTable(
  'health_checks',
  {
    id: uuidPrimaryKey(),
    title: text('title').notNull(),
    description: text('description'),
    settings: jsonb('settings').$type<HealthCheckSettings>().notNull(),
    status: text('status').notNull().default('phase_1'),
    phase: text('phase').notNull().default('collect'),
    phaseStartedAt: instant('phase_started_at').notNull().defaultNow(),
    createdAt: createdAt(),
    completedAt: instant('completed_at'),
    createdBy: userRef('created_by'),
    createdByWorkspaceMemberId: uuid('created_by_workspace_member_id').references(() => workspaceMembers.id, {
      onDelete: 'set null',
    }),
    workspaceId: workspaceRef(),
    templateId: uuid('template_id')
      .notNull()
      .references(() => templates.id, { onDelete: 'restrict' }),
    /** Idempotency key of the launch request, so one click never creates two checks. */
    launchKey: text('launch_key'),
    /**
     * Its ratings counted per component and rating, `[componentId, rating, count]` each, stored by the first read of
     * its results once collection has ended; null until then. Ratings never change after collection (submit is
     * refused outside `collect` and the phase only moves on), so results read these instead of counting every rating
     * again (features/results/queries.ts).
     */
    ratingCounts: jsonb('rating_counts').$type<[componentId: string, rating: string, count: number][]>(),
  },
  (t) => [
    index('health_checks_workspace_created_idx').on(t.workspaceId, t.createdAt),
    uniqueIndex('health_checks_launch_key').on(t.createdBy, t.launchKey),
    check('health_checks_status_check', sql`${t.status} in ${sqlList(STATUSES)}`),
    check('health_checks_phase_check', sql`${t.phase} in ${sqlList(PHASES)}`),
  ],
);

export type InterimResponses = {
  votes: Record<string, string>;
  comments: Record<string, string>;
  last_component_index: number;
  follow_ups?: Record<string, string>;
  follow_up_comments?: Record<string, string>;
};

export const participants = pgTable(
  'participants',
  {
    id: uuidPrimaryKey(),
    healthCheckId: checkRef(),
    feedbackType: text('feedback_type').notNull().default('health-check'),
    /**
     * Null once the person deleted their account: their submitted answers stay in the check's figures, and an
     * attributed comment shows 'Former member' (features/account/deletion.ts).
     */
    userId: userRef('user_id'),
    status: text('status').notNull().default('pending'),
    responses: jsonb('responses').$type<InterimResponses>(),
    progress: integer('progress').notNull().default(0),
    lastActivity: instant('last_activity'),
    completedAt: instant('completed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('participants_check_user_key').on(t.healthCheckId, t.userId),
    index('participants_check_status_idx').on(t.healthCheckId, t.status),
    index('participants_user_id_idx').on(t.userId),
    check('participants_status_check', sql`${t.status} in ('pending', 'in_progress', 'completed')`),
  ],
);

export const healthCheckRatings = pgTable(
  'health_check_ratings',
  {
    id: uuidPrimaryKey(),
    healthCheckId: checkRef(),
    componentId: componentRef(),
    participantId: participantRef(),
    rating: text('rating').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('health_check_ratings_participant_component_key').on(t.participantId, t.componentId),
    index('health_check_ratings_check_component_idx').on(t.healthCheckId, t.componentId, t.rating),
    check('health_check_ratings_rating_check', sql`${t.rating} in ${sqlList(PARTICIPATION_RATINGS)}`),
  ],
);

export const comments = pgTable(
  'comments',
  {
    id: uuidPrimaryKey(),
    participantId: participantRef(),
    targetId: uuid('target_id').notNull(),
    targetType: text('target_type').notNull().default('health_check_rating'),
    /** The rated check and component, copied from the target rating so results read comments by check. */
    healthCheckId: checkRef(),
    componentId: componentRef(),
    content: text('content').notNull(),
    /** Whether the check was anonymous when the comment was written; an anonymous comment never shows a name. */
    anonymous: boolean('anonymous').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('comments_participant_target_key').on(t.participantId, t.targetId),
    index('comments_target_idx').on(t.targetType, t.targetId),
    index('comments_check_component_idx').on(t.healthCheckId, t.componentId),
  ],
);

/** Dots of the voting phase: one row per participant and component, with how many dots it holds. */
export const healthCheckVotes = pgTable(
  'health_check_votes',
  {
    id: uuidPrimaryKey(),
    healthCheckId: checkRef(),
    participantId: participantRef(),
    componentId: componentRef(),
    count: integer('count').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('health_check_votes_participant_component_key').on(t.participantId, t.componentId),
    index('health_check_votes_check_component_idx').on(t.healthCheckId, t.componentId),
    check('health_check_votes_count_check', sql`${t.count} > 0`),
  ],
);

export const actionItems = pgTable(
  'action_items',
  {
    id: uuidPrimaryKey(),
    healthCheckId: checkRef(),
    componentId: uuid('component_id').references(() => healthCheckComponents.id, { onDelete: 'set null' }),
    description: text('description').notNull(),
    ownerId: userRef('owner_id'),
    dueDate: date('due_date'),
    status: text('status').notNull().default('pending'),
    /** When it was marked done (status 'completed'); null otherwise. Later checks ask about it (decision 0019). */
    completedAt: instant('completed_at'),
    createdBy: userRef('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('action_items_check_idx').on(t.healthCheckId),
    index('action_items_done_idx').on(t.status, t.completedAt),
    check('action_items_status_check', sql`${t.status} in ('pending', 'in-progress', 'completed')`),
  ],
);

export const actionItemMentions = pgTable(
  'action_item_mentions',
  {
    actionItemId: uuid('action_item_id')
      .notNull()
      .references(() => actionItems.id, { onDelete: 'cascade' }),
    userId: ownerRef(),
  },
  (t) => [primaryKey({ columns: [t.actionItemId, t.userId] })],
);

/**
 * The closed loop (decision 0019): the done action items a check asks about, fixed at its launch, each after the
 * rating of `componentId` (a component of this check). One row per action item at most: each is asked once.
 */
export const followUpQuestions = pgTable(
  'follow_up_questions',
  {
    id: uuidPrimaryKey(),
    /** The check that asks, or null when a loop round asks (`loop_round_id`); exactly one of the two. */
    healthCheckId: uuid('health_check_id').references(() => healthChecks.id, { onDelete: 'cascade' }),
    /** The loop round that asks ('Follow-up on actions', issue 33 item 3); its answers are loop_follow_up_answers. */
    loopRoundId: uuid('loop_round_id').references(() => loopRounds.id, { onDelete: 'cascade' }),
    actionItemId: uuid('action_item_id')
      .notNull()
      .references(() => actionItems.id, { onDelete: 'cascade' }),
    /** The check's component it follows; a round's question has none. */
    componentId: uuid('component_id').references(() => healthCheckComponents.id, { onDelete: 'cascade' }),
    /**
     * Its answers counted (`{ yes, partly, no, 'too-early' }`), stored by the first read of its check's results once
     * collection has ended, as `health_checks.rating_counts` (decision 0019, Speed), or when its round closes; null
     * until then. Answers are written only while collecting, so the counts never change afterwards.
     */
    counts: jsonb('counts').$type<FollowUpCounts>(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('follow_up_questions_action_item_key').on(t.actionItemId),
    index('follow_up_questions_check_idx').on(t.healthCheckId, t.componentId),
    index('follow_up_questions_round_idx')
      .on(t.loopRoundId)
      .where(sql`${t.loopRoundId} is not null`),
    // The questions whose answers are not counted yet: those of checks still collecting (storeFollowUpCounts).
    index('follow_up_questions_uncounted_idx')
      .on(t.healthCheckId)
      .where(sql`${t.counts} is null`),
    check(
      'follow_up_questions_asker_check',
      sql`(${t.healthCheckId} is null) <> (${t.loopRoundId} is null) and (${t.healthCheckId} is null or ${t.componentId} is not null)`,
    ),
  ],
);

/**
 * Answers to follow-up questions, stored at submit like ratings: tied to the participant row only (never shown
 * with it), with the optional comment and whether the check was anonymous when it was written.
 */
export const followUpAnswers = pgTable(
  'follow_up_answers',
  {
    id: uuidPrimaryKey(),
    questionId: uuid('question_id')
      .notNull()
      .references(() => followUpQuestions.id, { onDelete: 'cascade' }),
    healthCheckId: checkRef(),
    participantId: participantRef(),
    answer: text('answer').notNull(),
    comment: text('comment'),
    anonymous: boolean('anonymous').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('follow_up_answers_participant_question_key').on(t.participantId, t.questionId),
    index('follow_up_answers_question_idx').on(t.questionId, t.answer),
    // The few answers with a comment, read by the results without visiting every answer (decision 0019, Speed).
    index('follow_up_answers_comment_idx')
      .on(t.questionId)
      .where(sql`${t.comment} is not null`),
    check('follow_up_answers_answer_check', sql`${t.answer} in ${sqlList(FOLLOW_UP_ANSWERS)}`),
  ],
);
