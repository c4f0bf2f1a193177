import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ActionItem } from '@pulsecheck/shared/results/schemas';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTestSettings } from '../../config';
import { openPostgres, queryRows, type Database } from '../../db/client';
import { createAdmin, type Admin } from '../../test/accounts';
import { startFakeGitlab, type FakeGitlab } from '../../test/gitlab-server';
import { contextOn, copyPostgresTemplate, testConfig, type TestContext } from '../../test/harness';
import { createCheck, type CheckFixture } from '../../test/health-checks';
import {
  httpRequest,
  processOfLocalPort,
  serverBundleMissing,
  startServer,
  type ServerProcess,
} from '../../test/server-process';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver';

/**
 * The scale-out test of tracker syncs (issue 36, decision 0023): two built server processes on one PostgreSQL
 * database share the job queue and receive the tracker's webhooks. Every 'Create issue' is performed exactly once
 * (the stand-in GitLab counts the POSTs per action item) though both processes' workers claim jobs at the same time
 * and both take a share; every webhook delivery, sent to both processes at once, is recorded once and moves its
 * action item once.
 */
const kind = loadTestSettings().kind;
const missing = kind !== 'postgres' || serverBundleMissing('the trackers several-processes test');
const SECRET = `trackers-${randomBytes(16).toString('hex')}`;
// Three claims' worth (a claim takes 20 jobs), answered slowly enough that a claim outlasts the other process's
// 5-second poll.
const ITEMS = 60;
const TOKEN = 'glpat-several-processes';

describe.skipIf(missing)('tracker syncs by two server processes on one PostgreSQL database', () => {
  let servers: ServerProcess[] = [];
  let database: Database;
  let setup: TestContext;
  let gitlab: FakeGitlab;
  let receiver: WebhookReceiver;
  let admin: Admin;
  let check: CheckFixture;
  let connectionId = '';
  let secretToken = '';
  const items: ActionItem[] = [];
  const cleanups: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    const copy = await copyPostgresTemplate('trackers_several_');
    cleanups.push(() => copy.drop());
    gitlab = await startFakeGitlab();
    cleanups.push(() => gitlab.close());
    gitlab.tokens.set(TOKEN, 'project_1_bot');
    gitlab.projects.push({ path: 'acme/web' });
    receiver = await startWebhookReceiver();
    cleanups.push(() => receiver.close());
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pulsecheck-trackers-'));
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

    admin = await createAdmin(setup);
    check = await createCheck(setup, admin, { phase: 'summarize', title: 'Scale-out check' });
    const connected = await setup.call(
      admin.jar,
      'PUT',
      `/api/workspaces/${admin.workspaceId}/tracker-connection`,
      {
        kind: 'gitlab',
        baseUrl: gitlab.origin,
        token: TOKEN,
      },
    );
    expect(connected.status).toBe(200);
    const answer = (await connected.json()) as { webhookSecret: string; connection: { id: string } };
    secretToken = answer.webhookSecret;
    connectionId = answer.connection.id;
    // Pulsecheck's own webhooks record each action item's completion: the count shows how often each moved.
    const hook = await setup.call(admin.jar, 'POST', `/api/workspaces/${admin.workspaceId}/webhooks`, {
      url: receiver.url,
      events: ['action_item.completed'],
    });
    expect(hook.status).toBe(201);
    for (let n = 0; n < ITEMS; n += 1) {
      const made = await setup.call(
        admin.jar,
        'POST',
        `/api/health-checks/${check.healthCheckId}/action-items`,
        {
          description: `Action ${n}`,
          ownerId: admin.userId,
        },
      );
      expect(made.status).toBe(201);
      items.push((await made.json()) as ActionItem);
    }
  }, 180_000);

  afterAll(async () => {
    for (const server of servers) if (!server.exited()) await server.kill();
    for (const cleanup of cleanups.reverse()) await cleanup();
    expect(gitlab.violations).toEqual([]);
  });

  const links = () =>
    queryRows<{ actionItemId: string; number: number | null; state: string }>(
      database.db,
      sql`select action_item_id as "actionItemId", number, state from tracker_links where connection_id = ${connectionId}`,
    );

  it('creates each issue once, though both processes work the queue', async () => {
    const senders = new Map<number, number>();
    const pids = servers.map((server) => server.pid);
    // Each creation takes long enough that a batch outlasts the queue's 5 s poll: the other process's poll then
    // finds work left (on a busy machine one process alone drained 24 creations of 150 ms).
    gitlab.delayMs = 400;
    gitlab.observe = (request) => {
      if (request.method !== 'POST') return;
      // A request whose socket the lookup does not find (some are not, on a busy machine) names no process.
      const pid = processOfLocalPort(request.peerPort, pids);
      if (pid) senders.set(pid, (senders.get(pid) ?? 0) + 1);
    };
    for (const item of items) {
      const created = await setup.call(admin.jar, 'POST', `/api/action-items/${item.id}/tracker-issue`, {
        repository: 'acme/web',
      });
      expect(created.status).toBe(202);
    }
    const deadline = Date.now() + 90_000;
    while ((await links()).some((link) => link.number === null) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 250));
    // A moment more: a second creation would arrive now.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    gitlab.observe = null;
    gitlab.delayMs = 0;

    expect((await links()).filter((link) => link.number === null)).toEqual([]);
    const posts = gitlab.requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(ITEMS);
    const perItem = new Map<string, number>();
    for (const post of posts) {
      const title = (post.body as { title: string }).title;
      perItem.set(title, (perItem.get(title) ?? 0) + 1);
    }
    expect(perItem.size).toBe(ITEMS);
    expect([...perItem.values()].every((count) => count === 1)).toBe(true);
    expect(gitlab.issues.get('acme/web')).toHaveLength(ITEMS);
    // Both processes created issues (each job is claimed by one process at a time, so they share the work).
    expect([...senders.keys()].sort(), JSON.stringify([...senders])).toEqual([...pids].sort());
  }, 150_000);

  it('applies each webhook delivery once when both processes receive it', async () => {
    const byNumber = new Map((await links()).map((link) => [link.number, link.actionItemId]));
    const deliveries: string[] = [];
    for (const issue of gitlab.issues.get('acme/web')!) {
      gitlab.change('acme/web', issue.iid, { state: 'closed' });
      const delivery = randomUUID();
      deliveries.push(delivery);
      const body = gitlab.hookBody('acme/web', issue, 'close');
      const headers = {
        'X-Gitlab-Event': 'Issue Hook',
        'X-Gitlab-Token': secretToken,
        'X-Gitlab-Event-UUID': randomUUID(),
        'Idempotency-Key': delivery,
      };
      // The same delivery reaches both processes at the same moment (a retry behind a load balancer).
      const answers = await Promise.all(
        servers.map((server) =>
          httpRequest(`${server.url}/api/tracker-connections/${connectionId}/webhook`, {
            method: 'POST',
            headers,
            body,
          }),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
    }
    const recorded = await queryRows<{ key: string; count: number }>(
      database.db,
      sql`select unique_key as key, count(*)::int as count from jobs
          where unique_key like ${`tracker-delivery:${connectionId}:%`} group by unique_key`,
    );
    expect(recorded).toHaveLength(ITEMS);
    expect(recorded.every((row) => row.count === 1)).toBe(true);
    expect(new Set(recorded.map((row) => row.key.split(':').at(-1)))).toEqual(new Set(deliveries));

    const completed = await queryRows<{ body: string }>(
      database.db,
      sql`select body from webhook_deliveries where event_type = 'action_item.completed'`,
    );
    const completions = completed.map(
      (row) => (JSON.parse(row.body) as { data: { actionItem: { id: string } } }).data.actionItem.id,
    );
    expect(completions.sort()).toEqual([...byNumber.values()].sort());
    const states = await queryRows<{ status: string; count: number }>(
      database.db,
      sql`select a.status, count(*)::int as count from action_items a
          where a.health_check_id = ${check.healthCheckId} group by a.status`,
    );
    expect(states).toEqual([{ status: 'completed', count: ITEMS }]);
  }, 120_000);
});
