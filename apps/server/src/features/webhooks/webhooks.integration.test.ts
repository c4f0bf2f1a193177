import { sql } from 'drizzle-orm';
import { WEBHOOK_MESSAGES, WEBHOOK_SIGNATURE_HEADER } from '@pulsecheck/shared/webhooks/events';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countsOf, queryRows, withClause } from '../../db/client';
import { addMember, createAdmin, type Admin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { latestMail } from '../../test/mail';
import { english } from '../../test/requests';
import { documentedVerifier, startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver';
import { deliverWebhooks, type DeliveryOptions } from '../../webhooks/delivery';
import { recordWebhookEvent, webhookEventPart } from '../../webhooks/record';

/**
 * Webhooks (issue 35 item 3) through the API, delivered by the worker to a real HTTP server on a loopback port:
 * the documented signature recipe, retries after 500s and timeouts, order, the pause after the retry budget and
 * the owner's e-mail, the URL rules, and who may manage them.
 */
describe('webhooks', () => {
  const ctx = useTestContext({ allowLoopbackWebhooks: true });
  let receiver: WebhookReceiver;
  let admin: Admin;
  let organizationId: string;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    admin = await createAdmin(ctx);
    const [row] = await queryRows<{ organization_id: string }>(
      ctx.deps.db,
      sql`select organization_id from workspaces where id = ${admin.workspaceId}`,
    );
    organizationId = row!.organization_id;
  });
  afterAll(() => receiver.close());

  const worker = (overrides: Partial<DeliveryOptions> = {}): DeliveryOptions => ({
    db: ctx.deps.db,
    logger: ctx.deps.logger,
    mailer: ctx.deps.mailer,
    config: ctx.deps.config,
    timeoutMs: 1_000,
    ...overrides,
  });
  const deliver = (overrides: Partial<DeliveryOptions> = {}) => deliverWebhooks(worker(overrides));
  /** Makes every pending delivery due now (instead of waiting for its backoff). */
  const makeDue = () =>
    ctx.deps.db.execute(sql`update webhook_deliveries set next_attempt_at = now() where status = 'pending'`);

  async function createWebhook(events = ['action_item.created', 'member.joined'], url = receiver.url) {
    const response = await ctx.call(admin.jar, 'POST', `/api/workspaces/${admin.workspaceId}/webhooks`, {
      url,
      events,
    });
    expect(response.status, await response.clone().text()).toBe(201);
    return (await response.json()) as { webhook: { id: string }; secret: string };
  }
  const deliveries = async (webhookId: string, jar = admin.jar) => {
    const response = await ctx.call(jar, 'GET', `/api/webhooks/${webhookId}/deliveries`);
    expect(response.status).toBe(200);
    return (
      (await response.json()) as {
        deliveries: {
          id: string;
          eventId: string;
          type: string;
          status: string;
          attempts: { ok: boolean; statusCode: number | null; error: string | null }[];
        }[];
      }
    ).deliveries;
  };
  const event = (title: string) =>
    recordWebhookEvent(ctx.deps.db, {
      type: 'action_item.created',
      workspaceId: admin.workspaceId,
      data: { actionItem: { id: crypto.randomUUID(), title, status: 'open', healthCheckId: null } },
    });
  const pause = (webhookId: string) =>
    ctx.call(admin.jar, 'PATCH', `/api/webhooks/${webhookId}`, { paused: true });
  const resume = (webhookId: string) =>
    ctx.call(admin.jar, 'PATCH', `/api/webhooks/${webhookId}`, { paused: false });

  it('shows the secret once, signs each delivery as documented, and lists it with its response code', async () => {
    receiver.answer(() => ({ status: 200 }));
    const { webhook, secret } = await createWebhook();
    expect(secret).toMatch(/^whsec_/);
    const list = await (
      await ctx.call(admin.jar, 'GET', `/api/workspaces/${admin.workspaceId}/webhooks`)
    ).text();
    expect(list).toContain(webhook.id);
    expect(list).not.toContain(secret);
    // Sealed at rest: the database never holds the secret itself.
    const [stored] = await queryRows<{ secret: string }>(
      ctx.deps.db,
      sql`select secret from webhook_subscriptions where id = ${webhook.id}`,
    );
    expect(stored!.secret).not.toContain(secret.slice(6));

    const start = receiver.received.length;
    expect(await event('Fix onboarding')).toBe(1);
    await deliver();
    const got = receiver.received.slice(start);
    expect(got).toHaveLength(1);
    const verify = await documentedVerifier();
    const header = got[0]!.headers[WEBHOOK_SIGNATURE_HEADER.toLowerCase()] as string;
    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verify(got[0]!.body, header, secret)).toBe(true);
    // The recipe refuses another secret, an altered body and a timestamp outside its replay window.
    expect(verify(got[0]!.body, header, 'whsec_other')).toBe(false);
    expect(verify(got[0]!.body.replace('Fix', 'Fax'), header, secret)).toBe(false);
    expect(verify(got[0]!.body, header, secret, 300, Date.now() + 600_000)).toBe(false);
    const body = JSON.parse(got[0]!.body) as { id: string; type: string; data: Record<string, unknown> };
    expect(body.type).toBe('action_item.created');
    expect(body.data).toMatchObject({
      organizationId,
      workspaceId: admin.workspaceId,
      actionItem: { title: 'Fix onboarding' },
    });
    expect(got[0]!.headers['pulsecheck-event']).toBe('action_item.created');

    const [listed] = await deliveries(webhook.id);
    expect(listed).toMatchObject({
      eventId: body.id,
      status: 'delivered',
      attempts: [{ ok: true, statusCode: 200 }],
    });
    await ctx.call(admin.jar, 'DELETE', `/api/webhooks/${webhook.id}`);
  });

  it('retries after a 500 and after a timeout, and delivers in order: a failing event holds back the next', async () => {
    const { webhook } = await createWebhook();
    const start = receiver.received.length;
    let calls = 0;
    receiver.answer(() => {
      calls += 1;
      if (calls === 1) return { status: 500 };
      if (calls === 2) return { status: 200, delayMs: 2_000 };
      return { status: 200 };
    });
    await event('first');
    await event('second');
    await event('third');
    await deliver();
    // The first answered 500: nothing after it went out.
    expect(receiver.received.length - start).toBe(1);
    let [first] = (await deliveries(webhook.id)).slice(-1);
    expect(first).toMatchObject({ status: 'pending', attempts: [{ ok: false, statusCode: 500 }] });
    // Not due yet: its backoff holds the queue.
    await deliver();
    expect(receiver.received.length - start).toBe(1);
    await makeDue();
    await deliver();
    // The second attempt timed out (the receiver answered after the 1 s allowed here).
    [first] = (await deliveries(webhook.id)).slice(-1);
    expect(first!.attempts.map((a) => [a.ok, a.statusCode, a.error])).toEqual([
      [false, 500, 'HTTP 500'],
      [false, null, 'timed out'],
    ]);
    await makeDue();
    await deliver();
    const titles = receiver
      .events()
      .slice(start)
      .map((e) => (e.data.actionItem as { title: string }).title);
    expect(titles).toEqual(['first', 'first', 'first', 'second', 'third']);
    expect((await deliveries(webhook.id)).map((d) => d.status)).toEqual([
      'delivered',
      'delivered',
      'delivered',
    ]);
    await ctx.call(admin.jar, 'DELETE', `/api/webhooks/${webhook.id}`);
  });

  it('pauses the webhook after 24 hours of failures and e-mails its owner; resume sends what is queued', async () => {
    const { webhook } = await createWebhook();
    receiver.answer(() => ({ status: 503 }));
    await event('never arrives');
    await deliver();
    // Its first attempt 25 hours ago: this failure is past the budget.
    await ctx.deps.db.execute(
      sql`update webhook_attempts set created_at = now() - interval '25 hours'
          where delivery_id in (select id from webhook_deliveries where subscription_id = ${webhook.id})`,
    );
    await makeDue();
    await deliver();
    const [failed] = await deliveries(webhook.id);
    expect(failed).toMatchObject({ status: 'failed' });
    expect(failed!.attempts).toHaveLength(2);
    const listed = (await (
      await ctx.call(admin.jar, 'GET', `/api/workspaces/${admin.workspaceId}/webhooks`)
    ).json()) as {
      webhooks: { id: string; paused: boolean; pausedReason: string | null }[];
    };
    expect(listed.webhooks.find((w) => w.id === webhook.id)).toMatchObject({
      paused: true,
      pausedReason: english(WEBHOOK_MESSAGES.pausedAfterFailures),
    });
    const mail = await latestMail(ctx, admin.email, 'webhook was paused');
    expect(mail.text).toContain(receiver.url);
    // Paused: new events are not recorded for it.
    await event('while paused');
    expect(await deliveries(webhook.id)).toHaveLength(1);
    // Resumed: new events go out again.
    receiver.answer(() => ({ status: 200 }));
    expect((await resume(webhook.id)).status).toBe(200);
    await event('after resume');
    await deliver();
    expect((await deliveries(webhook.id)).map((d) => d.status)).toEqual(['delivered', 'failed']);
    await ctx.call(admin.jar, 'DELETE', `/api/webhooks/${webhook.id}`);
  });

  it("sends a test event and 'Send again' (same event id), and lets admins pause and change a webhook", async () => {
    receiver.answer(() => ({ status: 204 }));
    const { webhook } = await createWebhook();
    const test = await ctx.call(admin.jar, 'POST', `/api/webhooks/${webhook.id}/test`);
    expect(test.status).toBe(202);
    await deliver();
    const [sent] = await deliveries(webhook.id);
    expect(sent).toMatchObject({
      type: 'webhook.test',
      status: 'delivered',
      attempts: [{ statusCode: 204 }],
    });
    const again = await ctx.call(
      admin.jar,
      'POST',
      `/api/webhooks/${webhook.id}/deliveries/${sent!.id}/resend`,
    );
    expect(again.status).toBe(202);
    await deliver();
    const [resent] = await deliveries(webhook.id);
    expect(resent).toMatchObject({ eventId: sent!.eventId, status: 'delivered' });
    const ids = receiver
      .events()
      .slice(-2)
      .map((e) => e.id);
    expect(ids).toEqual([sent!.eventId, sent!.eventId]);

    expect((await pause(webhook.id)).status).toBe(200);
    const changed = await ctx.call(admin.jar, 'PATCH', `/api/webhooks/${webhook.id}`, {
      events: ['member.joined'],
      url: `${receiver.url}?v=2`,
    });
    expect(await changed.json()).toMatchObject({ webhook: { paused: true, events: ['member.joined'] } });
    await ctx.call(admin.jar, 'DELETE', `/api/webhooks/${webhook.id}`);
    expect((await ctx.call(admin.jar, 'GET', `/api/webhooks/${webhook.id}/deliveries`)).status).toBe(404);
  });

  it("records an event as a WITH query part of the caller's statement, and none when that statement rolls back", async () => {
    const { webhook } = await createWebhook(['member.joined']);
    const part = webhookEventPart({
      type: 'member.joined',
      workspaceId: admin.workspaceId,
      data: { member: { id: crypto.randomUUID(), name: 'Wanda With' } },
    });
    const [counts] = await queryRows<Record<string, number>>(
      ctx.deps.db,
      sql`${withClause([part])} select ${countsOf([part])}`,
    );
    expect(counts).toEqual({ webhook_event: 1 });
    await expect(
      ctx.deps.db.transaction(async (tx) => {
        await recordWebhookEvent(tx, {
          type: 'member.joined',
          workspaceId: admin.workspaceId,
          data: { member: { id: crypto.randomUUID(), name: 'Rolled Back' } },
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    const listed = await deliveries(webhook.id);
    expect(listed.map((d) => d.type)).toEqual(['member.joined']);
    await ctx.call(admin.jar, 'DELETE', `/api/webhooks/${webhook.id}`);
  });

  it('refuses URLs that are not https, point to private addresses, or are http without the loopback flag', async () => {
    const refused = async (url: string, message: string) => {
      const response = await ctx.call(admin.jar, 'POST', `/api/workspaces/${admin.workspaceId}/webhooks`, {
        url,
        events: ['member.joined'],
      });
      expect(response.status, url).toBe(400);
      expect(
        ((await response.json()) as { error: { fields: Record<string, string> } }).error.fields.url,
      ).toBe(english(message));
    };
    await refused('http://hooks.example.com/x', WEBHOOK_MESSAGES.urlHttps);
    await refused('https://10.1.2.3/x', WEBHOOK_MESSAGES.urlPrivate);
    await refused('https://192.168.0.10/x', WEBHOOK_MESSAGES.urlPrivate);
    await refused('https://169.254.169.254/latest/meta-data', WEBHOOK_MESSAGES.urlPrivate);
    await refused('https://[fd00::1]/x', WEBHOOK_MESSAGES.urlPrivate);
    await refused('https://user:pw@hooks.example.com/x', WEBHOOK_MESSAGES.urlCredentials);
    const config = ctx.deps.config;
    config.allowLoopbackWebhooks = false;
    try {
      await refused(receiver.url, WEBHOOK_MESSAGES.urlHttps);
      await refused('https://127.0.0.1/x', WEBHOOK_MESSAGES.urlPrivate);
    } finally {
      config.allowLoopbackWebhooks = true;
    }
  });

  it('refuses a delivery whose host resolves to a private address at the time of the call (the outbound guard)', async () => {
    const { webhook } = await createWebhook();
    // Saved while loopback was allowed; the guard refuses it once it is not.
    const config = ctx.deps.config;
    config.allowLoopbackWebhooks = false;
    const start = receiver.received.length;
    try {
      await event('refused');
      await deliver();
    } finally {
      config.allowLoopbackWebhooks = true;
    }
    expect(receiver.received.length).toBe(start);
    const [refused] = await deliveries(webhook.id);
    expect(refused!.attempts[0]).toMatchObject({ ok: false, statusCode: null });
    expect(refused!.attempts[0]!.error).toMatch(/not a public address/);
    await ctx.call(admin.jar, 'DELETE', `/api/webhooks/${webhook.id}`);
  });

  it('lets nobody of another organisation, nor a workspace member who is not an admin, see or manage a webhook', async () => {
    const { webhook } = await createWebhook();
    await event('private');
    await deliver();
    const [delivery] = await deliveries(webhook.id);
    const other = await createAdmin(ctx);
    const member = await addMember(ctx, { jar: admin.jar, workspaceId: admin.workspaceId });
    const before = (await deliveries(webhook.id)).length;
    for (const jar of [other.jar, member.jar]) {
      expect((await ctx.call(jar, 'GET', `/api/webhooks/${webhook.id}/deliveries`)).status).toBe(404);
      expect((await ctx.call(jar, 'PATCH', `/api/webhooks/${webhook.id}`, { paused: true })).status).toBe(
        404,
      );
      expect((await ctx.call(jar, 'POST', `/api/webhooks/${webhook.id}/test`)).status).toBe(404);
      expect(
        (await ctx.call(jar, 'POST', `/api/webhooks/${webhook.id}/deliveries/${delivery!.id}/resend`)).status,
      ).toBe(404);
      expect((await ctx.call(jar, 'DELETE', `/api/webhooks/${webhook.id}`)).status).toBe(404);
      expect((await ctx.call(jar, 'GET', `/api/workspaces/${admin.workspaceId}/webhooks`)).status).toBe(404);
      const create = await ctx.call(jar, 'POST', `/api/workspaces/${admin.workspaceId}/webhooks`, {
        url: receiver.url,
        events: ['member.joined'],
      });
      expect(create.status).toBe(404);
      expect((await ctx.call(jar, 'GET', `/api/organizations/${organizationId}/webhooks`)).status).toBe(404);
    }
    // Another admin's own webhook never receives this organisation's events.
    const [otherOrg] = await queryRows<{ organization_id: string }>(
      ctx.deps.db,
      sql`select organization_id from workspaces where id = ${other.workspaceId}`,
    );
    const wide = await ctx.call(
      other.jar,
      'POST',
      `/api/organizations/${otherOrg!.organization_id}/webhooks`,
      {
        url: receiver.url,
        events: ['action_item.created'],
      },
    );
    expect(wide.status).toBe(201);
    const { webhook: otherHook } = (await wide.json()) as { webhook: { id: string } };
    expect(await event('not theirs')).toBe(1);
    expect(await deliveries(otherHook.id, other.jar)).toEqual([]);
    // The refused 'Send again' and test events added nothing; only the event of this organisation did.
    expect((await deliveries(webhook.id)).length).toBe(before + 1);
    await ctx.call(admin.jar, 'DELETE', `/api/webhooks/${webhook.id}`);
  });

  it("sends an organisation-wide webhook every workspace's events; the owner manages it", async () => {
    const created = await ctx.call(admin.jar, 'POST', `/api/organizations/${organizationId}/webhooks`, {
      url: receiver.url,
      events: ['action_item.created'],
    });
    expect(created.status).toBe(201);
    const { webhook } = (await created.json()) as { webhook: { id: string; workspaceId: string | null } };
    expect(webhook.workspaceId).toBeNull();
    const listed: unknown = await (
      await ctx.call(admin.jar, 'GET', `/api/organizations/${organizationId}/webhooks`)
    ).json();
    expect(listed).toMatchObject({ webhooks: [{ id: webhook.id }] });
    // Not among the workspace's own.
    const own = await (
      await ctx.call(admin.jar, 'GET', `/api/workspaces/${admin.workspaceId}/webhooks`)
    ).text();
    expect(own).not.toContain(webhook.id);
    receiver.answer(() => ({ status: 200 }));
    await event('everywhere');
    await deliver();
    expect(await deliveries(webhook.id)).toMatchObject([
      { type: 'action_item.created', status: 'delivered' },
    ]);
    await ctx.call(admin.jar, 'DELETE', `/api/webhooks/${webhook.id}`);
  });
});
