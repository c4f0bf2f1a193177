import { z } from 'zod';

/**
 * Webhooks (issue 35 item 3, decision 0021): the one home of the event names, the shape of each event's body, the
 * URL rule, the signature header and the words of the 'Webhooks' cards. A body carries ids, names and released
 * figures only: never an individual answer, and never who answered what in an anonymous check.
 */

export const WEBHOOK_EVENTS = [
  'health_check.launched',
  'health_check.phase_changed',
  'health_check.completed',
  'results.released',
  'action_item.created',
  'action_item.updated',
  'action_item.completed',
  'loop.round_opened',
  'loop.round_closed',
  'member.joined',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** The event 'Send a test event' sends; no subscription chooses it. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** What the 'Webhooks' card says of each event beside its checkbox (catalogue keys; the event names stay). */
export const WEBHOOK_EVENT_LABELS: Record<WebhookEventType, string> = {
  'health_check.launched': 'webhooks.event.healthCheckLaunched',
  'health_check.phase_changed': 'webhooks.event.healthCheckPhaseChanged',
  'health_check.completed': 'webhooks.event.healthCheckCompleted',
  'results.released': 'webhooks.event.resultsReleased',
  'action_item.created': 'webhooks.event.actionItemCreated',
  'action_item.updated': 'webhooks.event.actionItemUpdated',
  'action_item.completed': 'webhooks.event.actionItemCompleted',
  'loop.round_opened': 'webhooks.event.loopRoundOpened',
  'loop.round_closed': 'webhooks.event.loopRoundClosed',
  'member.joined': 'webhooks.event.memberJoined',
};

/** The header that signs every delivery: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">` (Stripe's scheme). */
export const WEBHOOK_SIGNATURE_HEADER = 'Pulsecheck-Signature';
/** How long a receiver should accept a signature's timestamp (docs/api/webhooks.md). */
export const WEBHOOK_REPLAY_WINDOW_SECONDS = 300;
/** Deliveries of one event are retried with exponential backoff for this long; then the subscription pauses. */
export const WEBHOOK_RETRY_BUDGET_HOURS = 24;

type Ids = { organizationId: string; workspaceId: string | null };
type Check = { id: string; title: string; anonymous: boolean };

/** The body of each event, by type: ids, names and released figures only. */
export type WebhookEventData = {
  'health_check.launched': Ids & { healthCheck: Check };
  'health_check.phase_changed': Ids & { healthCheck: Check & { phase: string; previousPhase: string } };
  'health_check.completed': Ids & { healthCheck: Check };
  /**
   * Released figures only (the release rule let the check's managers see them): how many completed, and per
   * component how many gave each rating. Never who rated what.
   */
  'results.released': Ids & {
    healthCheck: Check;
    responses: number;
    components: {
      id: string;
      title: string;
      healthy: number;
      needsImprovement: number;
      fireWarning: number;
      dontKnow: number;
    }[];
  };
  'action_item.created': Ids & { actionItem: ActionItemBody };
  'action_item.updated': Ids & { actionItem: ActionItemBody };
  'action_item.completed': Ids & { actionItem: ActionItemBody };
  'loop.round_opened': Ids & { loop: { id: string; title: string }; round: { id: string; number: number } };
  'loop.round_closed': Ids & { loop: { id: string; title: string }; round: { id: string; number: number } };
  'member.joined': Ids & { member: { id: string; name: string } };
  'webhook.test': Ids & { message: string };
};
type ActionItemBody = { id: string; title: string; status: string; healthCheckId: string | null };

/** What a receiver gets: `{ id, type, createdAt, data }`; `id` is the event's, the same on a retry or 'Send again'. */
export type WebhookEnvelope<T extends keyof WebhookEventData = keyof WebhookEventData> = {
  id: string;
  type: T;
  createdAt: string;
  data: WebhookEventData[T];
};

/** Catalogue keys (packages/shared/messages/<language>/webhooks.json). */
export const WEBHOOK_MESSAGES = {
  cardTitle: 'webhooks.cardTitle',
  organizationCardTitle: 'webhooks.organizationCardTitle',
  url: 'webhooks.url',
  events: 'webhooks.events',
  add: 'webhooks.add',
  secretOnce: 'webhooks.secretOnce',
  copy: 'webhooks.copy',
  pause: 'webhooks.pause',
  resume: 'webhooks.resume',
  delete: 'webhooks.delete',
  deliveries: 'webhooks.deliveries',
  sendAgain: 'webhooks.sendAgain',
  sendTest: 'webhooks.sendTest',
  none: 'webhooks.none',
  noDeliveries: 'webhooks.noDeliveries',
  notFound: 'webhooks.notFound',
  deliveryNotFound: 'webhooks.deliveryNotFound',
  urlHttps: 'webhooks.urlHttps',
  urlInvalid: 'webhooks.urlInvalid',
  urlPrivate: 'webhooks.urlPrivate',
  urlCredentials: 'webhooks.urlCredentials',
  eventsRequired: 'webhooks.eventsRequired',
  adminsOnly: 'webhooks.adminsOnly',
  organizationAdminsOnly: 'webhooks.organizationAdminsOnly',
  pausedAfterFailures: 'webhooks.pausedAfterFailures',
} as const;

/**
 * Why a URL cannot be a webhook's (a WEBHOOK_MESSAGES key), or null when its form is fine (its host is checked when
 * it is called).
 */
export function webhookUrlProblem(input: string, options: { allowLoopback: boolean }): string | null {
  // Without the URL class (this package has no platform types); the server parses it again (lib/outbound.ts).
  const match = /^([a-z][a-z\d+.-]*):\/\/([^/?#\s]+)[^\s]*$/i.exec(input.trim());
  if (!match) return WEBHOOK_MESSAGES.urlInvalid;
  const scheme = (match[1] ?? '').toLowerCase();
  const authority = match[2] ?? '';
  if (authority.includes('@')) return WEBHOOK_MESSAGES.urlCredentials;
  const bare = authority.startsWith('[')
    ? authority.slice(1, authority.indexOf(']'))
    : authority.split(':')[0];
  const host = (bare ?? '').toLowerCase().replace(/\.$/, '');
  if (!host) return WEBHOOK_MESSAGES.urlInvalid;
  const loopback =
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host === '::1' ||
    /^127\.\d+\.\d+\.\d+$/.test(host);
  if (scheme === 'https') return loopback && !options.allowLoopback ? WEBHOOK_MESSAGES.urlPrivate : null;
  if (scheme === 'http' && loopback && options.allowLoopback) return null;
  return WEBHOOK_MESSAGES.urlHttps;
}

const eventsSchema = z
  .array(z.enum(WEBHOOK_EVENTS))
  .min(1, WEBHOOK_MESSAGES.eventsRequired)
  .transform((events) => [...new Set(events)]);

export const webhookCreateSchema = z.object({
  url: z.string().trim().min(1, WEBHOOK_MESSAGES.urlInvalid).max(2000),
  events: eventsSchema,
});
export const webhookUpdateSchema = z.object({
  url: z.string().trim().min(1, WEBHOOK_MESSAGES.urlInvalid).max(2000).optional(),
  events: eventsSchema.optional(),
  paused: z.boolean().optional(),
});

export const webhookSchema = z.object({
  id: z.string(),
  workspaceId: z.string().nullable(),
  url: z.string(),
  events: z.array(z.string()),
  paused: z.boolean(),
  pausedReason: z.string().nullable(),
  createdAt: z.string(),
});
export type Webhook = z.infer<typeof webhookSchema>;
export const webhookListSchema = z.object({ webhooks: z.array(webhookSchema) });
/** A new webhook with its signing secret: the only answer that ever holds it. */
export const webhookCreatedSchema = z.object({ webhook: webhookSchema, secret: z.string() });

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export const webhookAttemptSchema = z.object({
  at: z.string(),
  ok: z.boolean(),
  statusCode: z.number().nullable(),
  error: z.string().nullable(),
});
export const webhookDeliverySchema = z.object({
  id: z.string(),
  eventId: z.string(),
  type: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  createdAt: z.string(),
  attempts: z.array(webhookAttemptSchema),
});
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;
export const webhookDeliveryListSchema = z.object({ deliveries: z.array(webhookDeliverySchema) });
