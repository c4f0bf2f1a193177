import { randomUUID } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import type { WebhookEventData, WebhookEventType } from '@pulsecheck/shared/webhooks/events';
import { queryRows, type Db, type WithQuery } from '../db/client';

/**
 * Recording webhook events (decision 0021): ONE statement writes a delivery for every active webhook that wants
 * the event (the workspace's own, and the organisation-wide ones of its organisation) into the outbox
 * `webhook_deliveries`; the worker (delivery.ts) sends them. Run it inside the caller's transaction, or as a WITH
 * query of the caller's own statement (`webhookEventPart`), so that an event is recorded exactly when what it
 * tells of is, and delivered at least once.
 */

/** What the caller knows of the event: its type, the workspace it happened in, and its data without the ids. */
export type WebhookEventInput<T extends WebhookEventType = WebhookEventType> = {
  type: T;
  /** The workspace (an id, or a column of the caller's statement): the organisation follows from it. */
  workspaceId: string | SQL;
  data: Omit<WebhookEventData[T], 'organizationId' | 'workspaceId'>;
};

/**
 * The envelope as JSON text, built by the database so that the organisation and workspace ids come from the
 * workspace row: `{ id, type, createdAt, data: { …, organizationId, workspaceId } }`. jsonb's text form is what is
 * stored, signed and sent.
 */
const envelope = (eventId: string, type: string, data: object, workspace: SQL, organization: SQL) =>
  sql`jsonb_build_object('id', ${eventId}::text, 'type', ${type}::text,
        'createdAt', to_char(now() at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'data', ${JSON.stringify(data)}::jsonb
                || jsonb_build_object('organizationId', ${organization}, 'workspaceId', ${workspace}))::text`;

/** `insert … returning id` of the event's deliveries: to run alone or as a WITH query. */
export function webhookEventInsert(event: WebhookEventInput): SQL {
  const eventId = randomUUID();
  return sql`insert into webhook_deliveries (subscription_id, event_id, event_type, body)
    select s.id, ${eventId}::uuid, ${event.type},
           ${envelope(eventId, event.type, event.data, sql`w.id`, sql`w.organization_id`)}
    from workspaces w
    join webhook_subscriptions s on s.organization_id = w.organization_id
      and (s.workspace_id is null or s.workspace_id = w.id)
    where w.id = ${event.workspaceId}::uuid and s.paused_at is null and ${event.type}::text = any(s.events)
    order by s.id
    returning id`;
}

/** The event as a part of the caller's statement (db/client.ts `withClause`). */
export const webhookEventPart = (event: WebhookEventInput, name = 'webhook_event'): WithQuery => ({
  name,
  query: webhookEventInsert(event),
});

/** Records the event now, in `db` (pass the caller's transaction). Answers how many deliveries it queued. */
export async function recordWebhookEvent<T extends WebhookEventType>(
  db: Db,
  event: WebhookEventInput<T>,
): Promise<number> {
  const rows = await queryRows<{ id: string }>(db, webhookEventInsert(event));
  return rows.length;
}

/** 'Send a test event': one delivery of `webhook.test` to this webhook only, paused or not. */
export async function recordTestEvent(db: Db, subscriptionId: string): Promise<string> {
  const eventId = randomUUID();
  const data = { message: 'A test event from Pulsecheck' };
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`insert into webhook_deliveries (subscription_id, event_id, event_type, body)
        select s.id, ${eventId}::uuid, 'webhook.test',
               ${envelope(eventId, 'webhook.test', data, sql`s.workspace_id`, sql`s.organization_id`)}
        from webhook_subscriptions s where s.id = ${subscriptionId}
        returning id`,
  );
  return row!.id;
}
