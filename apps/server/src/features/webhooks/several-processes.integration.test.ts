import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTestSettings } from '../../config';
import { openPostgres, type Database } from '../../db/client';
import { createAdmin } from '../../test/accounts';
import { contextOn, copyPostgresTemplate, testConfig, type TestContext } from '../../test/harness';
import {
  processOfLocalPort,
  serverBundleMissing,
  startServer,
  type ServerProcess,
} from '../../test/server-process';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver';
import { WEBHOOKS_PER_RUN } from '../../webhooks/delivery';
import { recordWebhookEvent } from '../../webhooks/record';

/**
 * Two built server processes on one PostgreSQL database deliver webhooks side by side (the scale-out test of
 * issue 35): every event reaches each webhook exactly once, and each webhook's events arrive in order, though both
 * processes' workers claim work at the same time, and both take a share (the sender of each request is found
 * from its socket).
 */
const kind = loadTestSettings().kind;
const missing = kind !== 'postgres' || serverBundleMissing('the webhooks several-processes test');
const SECRET = `webhooks-${randomBytes(16).toString('hex')}`;
// More webhooks than one run claims, answered slowly enough that a run outlasts the other process's poll.
const WEBHOOKS = 2 * WEBHOOKS_PER_RUN;
const EVENTS = 5;

describe.skipIf(missing)('webhooks delivered by two server processes on one PostgreSQL database', () => {
  let servers: ServerProcess[] = [];
  let database: Database;
  let setup: TestContext;
  let receiver: WebhookReceiver;
  const cleanups: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    const copy = await copyPostgresTemplate('webhooks_several_');
    cleanups.push(() => copy.drop());
    receiver = await startWebhookReceiver();
    cleanups.push(() => receiver.close());
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pulsecheck-webhooks-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    servers = await Promise.all(
      [1, 2].map(() =>
        startServer({
          dataDir,
          databaseUrl: copy.url,
          authSecret: SECRET,
          startTimeoutMs: 90_000,
          env: { WEBHOOKS_ALLOW_LOOPBACK: 'true', MAIL_DISABLED: 'true' },
        }),
      ),
    );
    database = openPostgres(copy.url, { max: 2, applicationName: 'pulsecheck test' });
    setup = await contextOn(database, {
      config: testConfig({ authSecret: SECRET, allowLoopbackWebhooks: true }),
    });
    cleanups.push(() => setup.close());
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) if (!server.exited()) await server.kill();
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('delivers each event to each webhook once, in order per webhook', async () => {
    const admin = await createAdmin(setup);
    for (let hook = 0; hook < WEBHOOKS; hook += 1) {
      const response = await setup.call(admin.jar, 'POST', `/api/workspaces/${admin.workspaceId}/webhooks`, {
        url: `${receiver.url}?hook=${hook}`,
        events: ['action_item.created'],
      });
      expect(response.status).toBe(201);
    }
    // Answers take a little while, so both processes' workers run at the same time. Which process sent each
    // request is read while its socket is open.
    const senders = new Map<number, number>();
    receiver.answer((request) => {
      const pid = processOfLocalPort(
        request.peerPort,
        servers.map((server) => server.pid),
      );
      // A request whose socket the lookup does not find (some are not, on a busy machine) names no process.
      if (pid) senders.set(pid, (senders.get(pid) ?? 0) + 1);
      return { status: 200, delayMs: 300 + Math.floor(Math.random() * 100) };
    });
    for (let n = 0; n < EVENTS; n += 1)
      await recordWebhookEvent(setup.deps.db, {
        type: 'action_item.created',
        workspaceId: admin.workspaceId,
        data: {
          actionItem: { id: crypto.randomUUID(), title: `item ${n}`, status: 'pending', healthCheckId: null },
        },
      });
    const deadline = Date.now() + 60_000;
    while (receiver.received.length < WEBHOOKS * EVENTS && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    // A moment more: a duplicate would arrive now.
    await new Promise((resolve) => setTimeout(resolve, 2_000));

    const byHook = new Map<string, string[]>();
    const seen = new Set<string>();
    for (const request of receiver.received) {
      const hook = /hook=(\d+)/.exec(request.url)?.[1] ?? '?';
      const body = JSON.parse(request.body) as { id: string; data: { actionItem: { title: string } } };
      const key = `${hook}:${body.id}`;
      expect(seen.has(key), `delivered twice: ${key}`).toBe(false);
      seen.add(key);
      byHook.set(hook, [...(byHook.get(hook) ?? []), body.data.actionItem.title]);
    }
    const inOrder = Array.from({ length: EVENTS }, (_, n) => `item ${n}`);
    expect(byHook.size).toBe(WEBHOOKS);
    for (const titles of byHook.values()) expect(titles).toEqual(inOrder);
    // Both processes delivered (each webhook is claimed by one process at a time, so they share the work).
    expect([...senders.keys()].sort(), JSON.stringify([...senders])).toEqual(
      servers.map((server) => server.pid).sort(),
    );
  }, 120_000);
});
