import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { DELIVERY_STATUSES } from '@pulsecheck/shared/webhooks/events';
import { createdAt, instant, sqlList, uuidPrimaryKey } from './columns';
import { userRef } from './auth';
import { organizations, workspaces } from './organizations';

/**
 * A webhook (issue 35 item 3, decision 0021): an organisation's URL that receives the events it chose, of one
 * workspace or (workspace_id null) of every workspace of the organisation. The signing secret is encrypted at rest
 * (auth/sealed-column.ts, features/webhooks/secret.ts): it must be read to sign. A paused webhook records no events.
 */
export const webhookSubscriptions = pgTable(
  'webhook_subscriptions',
  {
    id: uuidPrimaryKey(),
    organizationId: uuid('organization_id')
      .notNull()
      .references(() => organizations.id, { onDelete: 'cascade' }),
    workspaceId: uuid('workspace_id').references(() => workspaces.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    /** The signing secret, sealed (v1.…); never answered after creation. */
    secret: text('secret').notNull(),
    createdBy: userRef('created_by'),
    pausedAt: instant('paused_at'),
    /** Why it was paused: null when someone paused it, 'failures' after the retry budget. */
    pausedReason: text('paused_reason'),
    /** The claim of the worker delivering its events (one process at a time, so they go in order). */
    lockedUntil: instant('locked_until'),
    lockedBy: uuid('locked_by'),
    createdAt: createdAt(),
  },
  (t) => [
    index('webhook_subscriptions_organization_idx').on(t.organizationId),
    index('webhook_subscriptions_workspace_idx').on(t.workspaceId),
  ],
);

/**
 * The outbox of webhook deliveries: one row per event and subscription, delivered in `seq` order per
 * subscription, at least once, retried with backoff (features/webhooks/worker.ts).
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuidPrimaryKey(),
    subscriptionId: uuid('subscription_id')
      .notNull()
      .references(() => webhookSubscriptions.id, { onDelete: 'cascade' }),
    /** Order within the subscription: the order events were recorded in. */
    seq: bigint('seq', { mode: 'number' }).generatedByDefaultAsIdentity().notNull(),
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').notNull(),
    /** The JSON body exactly as it is sent and signed. */
    body: text('body').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: instant('next_attempt_at').notNull().defaultNow(),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    deliveredAt: instant('delivered_at'),
  },
  (t) => [
    index('webhook_deliveries_queue_idx').on(t.subscriptionId, t.status, t.seq),
    index('webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'pending'`),
    check('webhook_deliveries_status_check', sql`${t.status} in ${sqlList(DELIVERY_STATUSES)}`),
  ],
);

/** Each attempt of a delivery, for its 'Deliveries' list: when, whether it succeeded, the response code or error. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuidPrimaryKey(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    ok: boolean('ok').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    at: createdAt(),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.at)],
);
