import { recipientLanguage, recipientLanguageSql } from '../mail/language';
import { createHmac, randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'drizzle-orm';
import { WEBHOOK_RETRY_BUDGET_HOURS, WEBHOOK_SIGNATURE_HEADER } from '@pulsecheck/shared/webhooks/events';
import type { Config } from '../config';
import { queryRows, type Db } from '../db/client';
import type { DatabaseHealth } from '../db/health';
import { outboundFetch, type OutboundPolicy } from '../lib/outbound';
import { startWorker } from '../lib/worker';
import type { Logger } from '../logger';
import type { Mailer } from '../mail/mailer';
import { webhookPausedMail } from '../mail/templates';
import { openSecret } from './secret';
import { ORGANISATION_SETTINGS_PATH, workspaceSettingsPath } from '@pulsecheck/shared/workspaces/settings';

/**
 * The webhook worker (decision 0021). A run claims webhooks, not single deliveries: a claimed webhook (its row
 * locked for `LOCK`, with a token of this run, SKIP LOCKED so processes share the webhooks) has its due deliveries
 * sent one after the other in the order they were recorded, by this process alone; the next waits while the first
 * is retried, so a receiver sees each webhook's events in order. Each attempt is recorded. A failed delivery is
 * retried after an exponential backoff (`baseSeconds` doubling, at most an hour) until `budgetSeconds` (24 h) after
 * its first attempt; then it fails, the webhook is paused and its owner e-mailed. At least once: a process that dies
 * after sending but before recording sends again once its claim runs out.
 */

/** Stripe's scheme: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`. */
export function signature(secret: string, body: string, unixSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

export type DeliveryOptions = {
  db: Db;
  logger: Logger;
  mailer: Pick<Mailer, 'enqueue'>;
  config: Pick<Config, 'authSecret' | 'appUrl' | 'dnsServers' | 'allowLoopbackWebhooks'>;
  /** The first retry's delay; doubles at each failure, at most an hour. */
  baseSeconds?: number;
  /** How long after its first attempt a delivery is retried. */
  budgetSeconds?: number;
  /** How long a receiver has to answer (the outbound guard's 5 s at most). */
  timeoutMs?: number;
};

const LOCK = '2 minutes';
export const WEBHOOKS_PER_RUN = 10;
/** Deliveries of one webhook per claim: at 5 s each, well within the claim. */
const DELIVERIES_PER_CLAIM = 20;
const POLL_MS = 1_000;

export const webhookPolicy = (config: DeliveryOptions['config']): OutboundPolicy => ({
  dnsServers: config.dnsServers,
  allowLoopback: config.allowLoopbackWebhooks,
});

type Claimed = { id: string; url: string; secret: string };
type Delivery = { id: string; event_type: string; body: string; attempts: number; due: boolean };
type Outcome = { ok: boolean; statusCode: number | null; error: string | null };

/** Sends one delivery through the outbound guard; never throws. */
async function send(options: DeliveryOptions, webhook: Claimed, secret: string, delivery: Delivery) {
  const t = Math.floor(Date.now() / 1000);
  try {
    const response = await outboundFetch(webhookPolicy(options.config), webhook.url, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        'User-Agent': 'Pulsecheck-Webhooks/1',
        'Pulsecheck-Event': delivery.event_type,
        'Pulsecheck-Delivery': delivery.id,
        [WEBHOOK_SIGNATURE_HEADER]: signature(secret, delivery.body, t),
      },
      body: delivery.body,
      signal: AbortSignal.timeout(options.timeoutMs ?? 5_000),
    });
    await response.body?.cancel().catch(() => {});
    const ok = response.status >= 200 && response.status < 300;
    return { ok, statusCode: response.status, error: ok ? null : `HTTP ${response.status}` } as Outcome;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    return { ok: false, statusCode: null, error: timedOut ? 'timed out' : message.slice(0, 500) } as Outcome;
  }
}

/** Records the attempt and its outcome in one statement; answers whether the delivery failed for good. */
async function record(options: DeliveryOptions, delivery: Delivery, outcome: Outcome): Promise<boolean> {
  const base = options.baseSeconds ?? 10;
  const budget = options.budgetSeconds ?? WEBHOOK_RETRY_BUDGET_HOURS * 3600;
  const [row] = await queryRows<{ status: string }>(
    options.db,
    sql`with attempt as (
          insert into webhook_attempts (delivery_id, ok, status_code, error)
          values (${delivery.id}, ${outcome.ok}, ${outcome.statusCode}, ${outcome.error})
          returning delivery_id),
        first_attempt as (
          select coalesce(min(created_at), now()) as at from webhook_attempts where delivery_id = ${delivery.id})
        update webhook_deliveries d set
          attempts = d.attempts + 1,
          last_status_code = ${outcome.statusCode},
          last_error = ${outcome.error},
          status = case when ${outcome.ok} then 'delivered'
                        when now() - (select at from first_attempt) >= make_interval(secs => ${budget}) then 'failed'
                        else 'pending' end,
          delivered_at = case when ${outcome.ok} then now() end,
          next_attempt_at = case when ${outcome.ok} then d.next_attempt_at
                                 else now() + make_interval(secs => least(${base} * power(2, d.attempts), 3600)) end
        from attempt where d.id = attempt.delivery_id
        returning d.status`,
  );
  return row?.status === 'failed';
}

/** Pauses the webhook after its retry budget and e-mails its owner (its creator, else the organisation's owner). */
async function pauseAfterFailures(options: DeliveryOptions, webhookId: string) {
  await options.db.transaction(async (tx) => {
    const [owner] = await queryRows<{
      email: string | null;
      name: string | null;
      url: string;
      workspace_id: string | null;
      language: string;
    }>(
      tx,
      sql`with paused as (
            update webhook_subscriptions set paused_at = now(), paused_reason = 'failures'
            where id = ${webhookId} and paused_at is null
            returning url, workspace_id, created_by, organization_id)
          select p.url, p.workspace_id, u.email, u.name,
                 ${recipientLanguageSql(sql`u.language`, sql`o.default_language`)} as language
          from paused p join organizations o on o.id = p.organization_id
          left join "user" u on u.id = coalesce(p.created_by, o.created_by)`,
    );
    if (!owner?.email) return;
    await options.mailer.enqueue(
      {
        kind: 'webhook-paused',
        to: owner.email,
        ...webhookPausedMail({
          name: owner.name ?? '',
          url: owner.url,
          settingsUrl: `${options.config.appUrl}${owner.workspace_id ? workspaceSettingsPath('webhooks') : ORGANISATION_SETTINGS_PATH}`,
          locale: recipientLanguage({ language: owner.language }),
        }),
      },
      tx,
    );
  });
  options.logger.warn({ webhookId }, 'webhook paused after its retry budget');
}

/** Delivers a claimed webhook's due deliveries in order while its claim holds. */
async function deliverWebhook(options: DeliveryOptions, webhook: Claimed, token: string) {
  const secret = openSecret(options.config.authSecret, webhook.secret);
  if (!secret) {
    options.logger.error({ webhookId: webhook.id }, 'webhook secret cannot be opened (AUTH_SECRET changed?)');
    return;
  }
  for (let sent = 0; sent < DELIVERIES_PER_CLAIM; sent += 1) {
    // The head of the queue, if this run still holds the claim (a run slower than its claim stops).
    const [head] = await queryRows<Delivery>(
      options.db,
      sql`select d.id, d.event_type, d.body, d.attempts, d.next_attempt_at <= now() as due
          from webhook_deliveries d
          where d.subscription_id = ${webhook.id} and d.status = 'pending'
            and exists (select 1 from webhook_subscriptions s where s.id = d.subscription_id
                        and s.locked_by = ${token} and s.locked_until > now() and s.paused_at is null)
          order by d.seq limit 1`,
    );
    if (!head?.due) return;
    const outcome = await send(options, webhook, secret, head);
    const failed = await record(options, head, outcome);
    if (failed) {
      await pauseAfterFailures(options, webhook.id);
      return;
    }
    if (!outcome.ok) return;
    await nextTurn();
  }
}

/**
 * One run: claims up to `WEBHOOKS_PER_RUN` webhooks whose oldest pending delivery is due and delivers each (the
 * webhooks side by side, each one's deliveries in order). Answers how many webhooks it claimed.
 */
export async function deliverWebhooks(options: DeliveryOptions): Promise<number> {
  const token = randomUUID();
  const claimed = await queryRows<Claimed>(
    options.db,
    sql`update webhook_subscriptions set locked_until = now() + ${LOCK}::interval, locked_by = ${token}
        where id in (
          select s.id from webhook_subscriptions s
          where s.paused_at is null and (s.locked_until is null or s.locked_until < now())
            and exists (
              select 1 from webhook_deliveries d
              where d.subscription_id = s.id and d.status = 'pending' and d.next_attempt_at <= now()
                and not exists (select 1 from webhook_deliveries e where e.subscription_id = s.id
                                and e.status = 'pending' and e.seq < d.seq))
          limit ${WEBHOOKS_PER_RUN} for update skip locked)
        returning id, url, secret`,
  );
  await Promise.all(
    claimed.map(async (webhook) => {
      try {
        await deliverWebhook(options, webhook, token);
      } catch (error) {
        options.logger.error({ err: error, webhookId: webhook.id }, 'webhook delivery failed');
      } finally {
        await options.db.execute(
          sql`update webhook_subscriptions set locked_until = null, locked_by = null
              where id = ${webhook.id} and locked_by = ${token}`,
        );
      }
    }),
  );
  return claimed.length;
}

/** Runs `deliverWebhooks` every second and whenever kicked. */
export function startWebhookWorker(options: DeliveryOptions & { health?: DatabaseHealth }) {
  return startWorker({
    name: 'webhooks',
    intervalMs: POLL_MS,
    logger: options.logger,
    health: options.health,
    work: async (stopped) => {
      while ((await deliverWebhooks(options)) === WEBHOOKS_PER_RUN && !stopped());
    },
  });
}
