import { okSchema } from '@pulsecheck/shared/auth/schemas';
import {
  webhookCreatedSchema,
  webhookCreateSchema,
  webhookDeliveryListSchema,
  webhookListSchema,
  webhookSchema,
  webhookUpdateSchema,
} from '@pulsecheck/shared/webhooks/events';
import { z } from 'zod';
import { routes } from '../../lib/openapi';
import * as service from './service';

const updatedSchema = z.object({ webhook: webhookSchema });
const queuedSchema = z.object({ deliveryId: z.string() });

// Webhooks (issue 35 item 3, docs/api/webhooks.md, decision 0021): signed-in people only, through the policy's
// 'webhook:manage'. Deliveries are sent by the worker (delivery.ts), never by these routes.
export const webhookRoutes = routes('webhooks')
  .call(
    'get /workspaces/{workspaceId}/webhooks',
    "The workspace's webhooks (its admins); never their secrets",
    { ok: [200, webhookListSchema, 'Webhooks'] },
    service.listWorkspaceWebhooks,
  )
  .call(
    'post /workspaces/{workspaceId}/webhooks',
    "Add a webhook for the workspace's events; the answer holds its signing secret, shown this once",
    { body: webhookCreateSchema, ok: [201, webhookCreatedSchema, 'Created'] },
    service.createWorkspaceWebhook,
  )
  .call(
    'get /organizations/{organizationId}/webhooks',
    "The organisation-wide webhooks (every workspace's events; its owner and organisation admins)",
    { ok: [200, webhookListSchema, 'Webhooks'] },
    service.listOrganizationWebhooks,
  )
  .call(
    'post /organizations/{organizationId}/webhooks',
    'Add an organisation-wide webhook; the answer holds its signing secret, shown this once',
    { body: webhookCreateSchema, ok: [201, webhookCreatedSchema, 'Created'] },
    service.createOrganizationWebhook,
  )
  .call(
    'patch /webhooks/{webhookId}',
    'Change the URL or the events, pause or resume',
    { body: webhookUpdateSchema, ok: [200, updatedSchema, 'Saved'] },
    service.updateWebhook,
  )
  .call(
    'delete /webhooks/{webhookId}',
    'Delete the webhook and its deliveries',
    { ok: [200, okSchema, 'Deleted'] },
    service.deleteWebhook,
  )
  .call(
    'get /webhooks/{webhookId}/deliveries',
    "The webhook's latest deliveries, newest first, each attempt with its time, outcome and response code",
    { ok: [200, webhookDeliveryListSchema, 'Deliveries'] },
    service.listDeliveries,
  )
  .call(
    'post /webhooks/{webhookId}/deliveries/{deliveryId}/resend',
    "'Send again': the delivery's event (same id and body) queued again",
    { ok: [202, queuedSchema, 'Queued'] },
    service.sendAgain,
  )
  .call(
    'post /webhooks/{webhookId}/test',
    "'Send a test event': a webhook.test event to this webhook",
    { ok: [202, queuedSchema, 'Queued'] },
    service.sendTest,
  ).router;
