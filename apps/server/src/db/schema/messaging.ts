import { sql } from 'drizzle-orm';
import {
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { uuidPrimaryKey, createdAt, instant, bytea } from './columns';
import { ownerRef } from './auth';
import { workspaces } from './organizations';

/**
 * The body of an e-mail sent to many people alike but for one personal part (a round's invitation and its answer
 * links): stored once, and completed for each message from its `personal` part when it is sent (mail/outbox.ts).
 * It holds nothing about any one recipient. It belongs to a workspace and goes with it, and its messages with it.
 */
export const mailBodies = pgTable('mail_bodies', {
  id: uuidPrimaryKey(),
  workspaceId: uuid('workspace_id')
    .notNull()
    .references(() => workspaces.id, { onDelete: 'cascade' }),
  html: text('html').notNull(),
  text: text('text').notNull(),
  createdAt: createdAt(),
});

/**
 * Every e-mail is written here first and sent by the outbox worker, with retries and backoff. Its content is its
 * own html and text, or a shared body with its personal part.
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuidPrimaryKey(),
    kind: text('kind').notNull(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    html: text('html'),
    text: text('text'),
    bodyId: uuid('body_id').references(() => mailBodies.id, { onDelete: 'cascade' }),
    personal: text('personal'),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at').notNull().defaultNow(),
    lockedUntil: instant('locked_until'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    sentAt: instant('sent_at'),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt),
    index('mail_outbox_to_idx').on(t.to, t.createdAt),
    index('mail_outbox_body_idx')
      .on(t.bodyId)
      .where(sql`${t.bodyId} is not null`),
    check('mail_outbox_status_check', sql`${t.status} in ('pending', 'sent', 'failed')`),
    check(
      'mail_outbox_content_check',
      sql`(${t.bodyId} is null and ${t.personal} is null and ${t.html} is not null and ${t.text} is not null)
          or (${t.bodyId} is not null and ${t.personal} is not null and ${t.html} is null and ${t.text} is null)`,
    ),
  ],
);

/** Scheduled and background work; `unique_key` makes one logical job run once across processes. */
export const jobs = pgTable(
  'jobs',
  {
    id: uuidPrimaryKey(),
    kind: text('kind').notNull(),
    uniqueKey: text('unique_key'),
    payload: jsonb('payload')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    runAt: instant('run_at').notNull().defaultNow(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lockedUntil: instant('locked_until'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    finishedAt: instant('finished_at'),
  },
  (t) => [
    uniqueIndex('jobs_unique_key').on(t.uniqueKey),
    index('jobs_due_idx').on(t.status, t.runAt),
    check('jobs_status_check', sql`${t.status} in ('pending', 'done', 'failed')`),
  ],
);

/** In-app notifications (the bell). */
export const notifications = pgTable(
  'notifications',
  {
    id: uuidPrimaryKey(),
    userId: ownerRef(),
    type: text('type').notNull(),
    message: text('message').notNull(),
    link: text('link'),
    healthCheckId: uuid('health_check_id'),
    /** The workspace a notice is about (team updates): deleted with it. */
    workspaceId: uuid('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    readAt: instant('read_at'),
    createdAt: createdAt(),
  },
  (t) => [index('notifications_user_created_idx').on(t.userId, t.createdAt)],
);

/** Profile photos, kept in the database so every server process serves them. */
export const avatars = pgTable(
  'avatars',
  {
    id: uuidPrimaryKey(),
    userId: ownerRef(),
    contentType: text('content_type').notNull(),
    data: bytea('data').notNull(),
    size: integer('size').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('avatars_user_id_idx').on(t.userId)],
);

/**
 * E-mails that signed-in users had the server send to addresses of their choosing, counted per user and per
 * organisation and UTC day (mail/quota.ts). `scope` is 'user' or 'organization'; `subject_id` the user's or
 * organisation's id.
 */
export const mailQuota = pgTable(
  'mail_quota',
  {
    scope: text('scope').notNull(),
    subjectId: text('subject_id').notNull(),
    day: date('day').notNull(),
    sent: integer('sent').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.subjectId, t.day] }),
    check('mail_quota_scope_check', sql`${t.scope} in ('user', 'organization')`),
  ],
);
