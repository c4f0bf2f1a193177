import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { NOT_FOUND_MESSAGES } from '@pulsecheck/shared/api/errors';
import {
  WEBHOOK_MESSAGES,
  webhookUrlProblem,
  type Webhook,
  type WebhookDelivery,
  type WebhookEventType,
} from '@pulsecheck/shared/webhooks/events';
import type { AuditAction, AuditChanges } from '@pulsecheck/shared/audit/log';
import { changedFields, recordAudit, type AuditBy } from '../../audit/record';
import { organizationRoleSql, requireOrganization, type Access, type OversightRole } from '../../auth/access';
import { can } from '../../auth/policy';
import { queryRows, type Db } from '../../db/client';
import { webhookAttempts, webhookDeliveries, webhookSubscriptions } from '../../db/schema/webhooks';
import { invalid, notFound } from '../../lib/app-error';
import { outboundUrl, OutboundRefused } from '../../lib/outbound';
import type { AppDeps } from '../../lib/router';
import { webhookPolicy } from '../../webhooks/delivery';
import { recordTestEvent } from '../../webhooks/record';
import { newSecret, sealSecret } from '../../webhooks/secret';

/**
 * Webhooks as people manage them (issue 35 item 3): a workspace's (its admins) and the organisation-wide ones (its
 * owner and organisation admins), through `can(…, 'webhook:manage')`. Anyone else, other organisations included,
 * is answered 404, as if the webhook or workspace did not exist.
 */

type Deps = Pick<AppDeps, 'db' | 'config'>;
type Row = typeof webhookSubscriptions.$inferSelect;

const toWebhook = (row: Row): Webhook => ({
  id: row.id,
  workspaceId: row.workspaceId,
  url: row.url,
  events: row.events,
  paused: row.pausedAt !== null,
  pausedReason: row.pausedReason === 'failures' ? WEBHOOK_MESSAGES.pausedAfterFailures : null,
  createdAt: row.createdAt.toISOString(),
});

/** The URL rule: https (http only to loopback with WEBHOOKS_ALLOW_LOOPBACK), never an address that is not public. */
function checkUrl(deps: Deps, url: string) {
  const problem = webhookUrlProblem(url, { allowLoopback: deps.config.allowLoopbackWebhooks });
  if (problem) throw invalid(problem, { url: problem });
  try {
    // The guard's own check of the URL: an IP address in it must be public (a host name is checked on each call).
    outboundUrl(webhookPolicy(deps.config), url);
  } catch (error) {
    if (error instanceof OutboundRefused) throw invalid(WEBHOOKS_URL_PRIVATE, { url: WEBHOOKS_URL_PRIVATE });
    throw error;
  }
}
const WEBHOOKS_URL_PRIVATE = WEBHOOK_MESSAGES.urlPrivate;

/** The workspace's organisation, when the user may manage its webhooks; a 404 otherwise. */
async function manageableWorkspace(db: Db, userId: string, workspaceId: string) {
  const [row] = await queryRows<{ organization_id: string; access: Access | null }>(
    db,
    sql`select w.organization_id,
               (select m.access from workspace_members m where m.workspace_id = w.id and m.user_id = ${userId}
                  and m.status = 'active') as access
        from workspaces w where w.id = ${workspaceId}`,
  );
  if (!row || !can({ userId, access: row.access }, 'webhook:manage'))
    throw notFound(NOT_FOUND_MESSAGES.workspace);
  return row.organization_id;
}

/** The webhook, when the user may manage it; 'Webhook not found' otherwise. */
async function manageableWebhook(db: Db, userId: string, webhookId: string): Promise<Row> {
  const [access] = await queryRows<{ access: Access | null; role: OversightRole | null }>(
    db,
    sql`select (select m.access from workspace_members m where m.workspace_id = s.workspace_id
                  and m.user_id = ${userId} and m.status = 'active') as access,
               ${organizationRoleSql(userId, sql`s.organization_id`)} as role
        from webhook_subscriptions s where s.id = ${webhookId}`,
  );
  const [row] = await db.select().from(webhookSubscriptions).where(eq(webhookSubscriptions.id, webhookId));
  if (
    !access ||
    !row ||
    !can({ userId, access: access.access, organizationRole: access.role }, 'webhook:manage', {
      organizationWide: row.workspaceId === null,
    })
  )
    throw notFound(WEBHOOK_MESSAGES.notFound);
  return row;
}

/**
 * How the audit log names a webhook: the host it calls, never the whole URL (a path or query may be a secret, as
 * in chat tools' incoming webhooks).
 */
const hostOf = (url: string) => new URL(url).host;

/** A webhook's creation, change or deletion, recorded in the change's transaction. */
function recordWebhook(tx: Db, row: Row, by: AuditBy, action: AuditAction, changes?: AuditChanges) {
  return recordAudit(tx, row.organizationId, by, {
    action,
    targetType: row.workspaceId === null ? 'organisation webhook' : 'webhook',
    targetId: row.id,
    targetLabel: hostOf(row.url),
    changes: changes ?? null,
  });
}

async function create(
  deps: Deps,
  input: {
    userId: string;
    organizationId: string;
    workspaceId: string | null;
    url: string;
    events: WebhookEventType[];
    by: AuditBy;
  },
) {
  checkUrl(deps, input.url);
  const secret = newSecret();
  const row = await deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(webhookSubscriptions)
      .values({
        organizationId: input.organizationId,
        workspaceId: input.workspaceId,
        url: input.url,
        events: input.events,
        secret: sealSecret(deps.config.authSecret, secret),
        createdBy: input.userId,
      })
      .returning();
    await recordWebhook(tx, created!, input.by, 'webhook.created', { events: input.events });
    return created!;
  });
  return { webhook: toWebhook(row), secret };
}

export async function createWorkspaceWebhook(
  deps: Deps,
  input: { userId: string; workspaceId: string; url: string; events: WebhookEventType[]; by: AuditBy },
) {
  const organizationId = await manageableWorkspace(deps.db, input.userId, input.workspaceId);
  return create(deps, { ...input, organizationId });
}

export async function listWorkspaceWebhooks(deps: Deps, input: { userId: string; workspaceId: string }) {
  await manageableWorkspace(deps.db, input.userId, input.workspaceId);
  const rows = await deps.db
    .select()
    .from(webhookSubscriptions)
    .where(eq(webhookSubscriptions.workspaceId, input.workspaceId))
    .orderBy(asc(webhookSubscriptions.createdAt));
  return { webhooks: rows.map(toWebhook) };
}

/** The organisation, when the user may manage its organisation-wide webhooks; 'Organisation not found' otherwise. */
async function manageableOrganization(db: Db, userId: string, organizationId: string) {
  const organization = await requireOrganization(db, userId, organizationId);
  if (
    !can({ userId, access: null, organizationRole: organization.role }, 'webhook:manage', {
      organizationWide: true,
    })
  )
    throw notFound(NOT_FOUND_MESSAGES.organization);
}

export async function createOrganizationWebhook(
  deps: Deps,
  input: { userId: string; organizationId: string; url: string; events: WebhookEventType[]; by: AuditBy },
) {
  await manageableOrganization(deps.db, input.userId, input.organizationId);
  return create(deps, { ...input, workspaceId: null });
}

export async function listOrganizationWebhooks(
  deps: Deps,
  input: { userId: string; organizationId: string },
) {
  await manageableOrganization(deps.db, input.userId, input.organizationId);
  const rows = await deps.db
    .select()
    .from(webhookSubscriptions)
    .where(
      and(
        eq(webhookSubscriptions.organizationId, input.organizationId),
        isNull(webhookSubscriptions.workspaceId),
      ),
    )
    .orderBy(asc(webhookSubscriptions.createdAt));
  return { webhooks: rows.map(toWebhook) };
}

export async function updateWebhook(
  deps: Deps,
  input: {
    userId: string;
    webhookId: string;
    url?: string;
    events?: WebhookEventType[];
    paused?: boolean;
    by: AuditBy;
  },
) {
  const current = await manageableWebhook(deps.db, input.userId, input.webhookId);
  if (input.url !== undefined) checkUrl(deps, input.url);
  const pausing =
    input.paused === undefined
      ? {}
      : input.paused
        ? current.pausedAt
          ? {}
          : { pausedAt: new Date(), pausedReason: null }
        : { pausedAt: null, pausedReason: null };
  const changes = changedFields(
    { host: hostOf(current.url), events: current.events, paused: current.pausedAt !== null },
    {
      host: input.url === undefined ? undefined : hostOf(input.url),
      events: input.events,
      paused: input.paused,
    },
  );
  // A new URL on the same host is a change the entry says without the URL itself.
  if (input.url !== undefined && input.url !== current.url && !changes.host) changes.url = 'changed';
  const row = await deps.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(webhookSubscriptions)
      .set({
        ...(input.url !== undefined && { url: input.url }),
        ...(input.events !== undefined && { events: input.events }),
        ...pausing,
      })
      .where(eq(webhookSubscriptions.id, input.webhookId))
      .returning();
    if (Object.keys(changes).length > 0)
      await recordWebhook(tx, updated!, input.by, 'webhook.changed', changes);
    return updated!;
  });
  return { webhook: toWebhook(row) };
}

export async function deleteWebhook(deps: Deps, input: { userId: string; webhookId: string; by: AuditBy }) {
  const current = await manageableWebhook(deps.db, input.userId, input.webhookId);
  await deps.db.transaction(async (tx) => {
    await tx.delete(webhookSubscriptions).where(eq(webhookSubscriptions.id, input.webhookId));
    await recordWebhook(tx, current, input.by, 'webhook.deleted');
  });
}

const DELIVERIES_SHOWN = 50;

/** The webhook's latest deliveries, newest first, each with its attempts (oldest first). */
export async function listDeliveries(
  deps: Deps,
  input: { userId: string; webhookId: string },
): Promise<{ deliveries: WebhookDelivery[] }> {
  await manageableWebhook(deps.db, input.userId, input.webhookId);
  const rows = await deps.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.subscriptionId, input.webhookId))
    .orderBy(desc(webhookDeliveries.seq))
    .limit(DELIVERIES_SHOWN);
  const attempts =
    rows.length === 0
      ? []
      : await deps.db
          .select()
          .from(webhookAttempts)
          .where(
            inArray(
              webhookAttempts.deliveryId,
              rows.map((row) => row.id),
            ),
          )
          .orderBy(asc(webhookAttempts.at));
  return {
    deliveries: rows.map((row) => ({
      id: row.id,
      eventId: row.eventId,
      type: row.eventType,
      status: row.status as WebhookDelivery['status'],
      createdAt: row.createdAt.toISOString(),
      attempts: attempts
        .filter((attempt) => attempt.deliveryId === row.id)
        .map((attempt) => ({
          at: attempt.at.toISOString(),
          ok: attempt.ok,
          statusCode: attempt.statusCode,
          error: attempt.error,
        })),
    })),
  };
}

/**
 * 'Send again': the delivery's event (same event id and body) queued once more at the end of the webhook's queue;
 * a receiver that already has it recognises it by its id.
 */
export async function sendAgain(
  deps: Deps,
  input: { userId: string; webhookId: string; deliveryId: string },
) {
  await manageableWebhook(deps.db, input.userId, input.webhookId);
  const rows = await queryRows<{ id: string }>(
    deps.db,
    sql`insert into webhook_deliveries (subscription_id, event_id, event_type, body)
        select subscription_id, event_id, event_type, body from webhook_deliveries
        where id = ${input.deliveryId} and subscription_id = ${input.webhookId}
        returning id`,
  );
  if (!rows[0]) throw notFound(WEBHOOK_MESSAGES.deliveryNotFound);
  return { deliveryId: rows[0].id };
}

/** 'Send a test event': a `webhook.test` event to this webhook alone. */
export async function sendTest(deps: Deps, input: { userId: string; webhookId: string }) {
  await manageableWebhook(deps.db, input.userId, input.webhookId);
  return { deliveryId: await recordTestEvent(deps.db, input.webhookId) };
}
