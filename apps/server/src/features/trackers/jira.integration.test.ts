import { createHmac, randomUUID } from 'node:crypto';
import type { Participation } from '@pulsecheck/shared/participation/contract';
import type { ActionItem } from '@pulsecheck/shared/results/schemas';
import {
  TRACKER_WORDS,
  TRACKER_MESSAGES,
  TRACKER_PROBLEMS,
  type TrackerConnection,
} from '@pulsecheck/shared/trackers/rules';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { createAdmin, joinedParticipant, type Admin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { english } from '../../test/requests';
import { checkWithAnonymousComment, trackerCalls } from '../../test/trackers';
import { catalogueComponentIds, launch, type CheckFixture } from '../../test/health-checks';
import { startFakeJira, type FakeJira, type FakeJiraIssue } from '../../test/jira-server';
import { OutboundRefused } from '../../lib/outbound';
import { jira as jiraModule } from '../../trackers/jira';

/**
 * Action items synced with Jira (issue 36, decision 0023), end to end against a stand-in Jira on a loopback port
 * (test/jira-server.ts, strict by hand: Atlassian publishes no API description on npm), once as Jira Cloud (account
 * e-mail and API token) and once as Jira Data Center (personal access token): connect, create, link, webhooks in
 * (signature, replay, order), the poll, the closed loop, edits out, failures.
 */
const ctx = useTestContext({ allowLoopbackWebhooks: true });
const words = TRACKER_WORDS.jira;
const OLD = '2026-11-20T10:00:00.000+0000';
const seed = (project: string, number: number, change: Partial<FakeJiraIssue> = {}): FakeJiraIssue => ({
  project,
  number,
  summary: `Issue ${number}`,
  description: '',
  done: false,
  assignee: null,
  duedate: null,
  updated: OLD,
  ...change,
});

describe.each(['cloud', 'datacenter'] as const)('Jira %s', (flavour) => {
  const cloud = flavour === 'cloud';
  let jira: FakeJira;
  let admin: Admin;
  let check: CheckFixture;
  const TOKEN = cloud ? 'ATATT3xFfGF0good' : 'NjE2MDk3good';
  const EMAIL = 'bot@acme.example';

  beforeAll(async () => {
    jira = await startFakeJira(flavour);
    admin = await createAdmin(ctx);
    jira.users.push(
      { accountId: 'acc-bot', name: 'bot', displayName: 'Pulse Bot', email: EMAIL, emailVisible: true },
      {
        accountId: 'acc-ada',
        name: 'ada',
        displayName: 'Ada Admin',
        email: admin.email.toLowerCase(),
        emailVisible: true,
      },
      {
        accountId: 'acc-bo',
        name: 'bo',
        displayName: 'Bo Builder',
        email: 'bo@acme.example',
        emailVisible: false,
      },
    );
    jira.tokens.set(TOKEN, 'acc-bot');
    jira.projects.push({ key: 'WEB', name: 'Website' }, { key: 'API', name: 'Platform API' });
    jira.issues.push(
      seed('API', 1, { summary: 'Existing work', assignee: 'acc-bo' }),
      seed('API', 2, { summary: 'Already closed', done: true }),
      seed('API', 3, { summary: 'Spare' }),
    );
    check = await checkWithAnonymousComment(ctx, admin);
  });
  afterAll(async () => {
    // Every request the product made is one Jira documents, with parameters and bodies it accepts.
    expect(jira.violations).toEqual([]);
    await jira.close();
  });

  const { connectionPath, connection, newItem, item, jobs, poll } = trackerCalls(ctx, () => ({
    admin,
    check,
  }));

  const connect = (credentials: { token?: string; email?: string; baseUrl?: string } = {}) =>
    ctx.call(admin.jar, 'PUT', connectionPath(), {
      kind: 'jira',
      baseUrl: credentials.baseUrl ?? jira.origin,
      token: credentials.token ?? TOKEN,
      ...(cloud ? { email: credentials.email ?? EMAIL } : {}),
    });

  const link = (id: string, url: string) =>
    ctx.call(admin.jar, 'POST', `/api/action-items/${id}/tracker-link`, { url });

  let webhookSecret = '';
  /**
   * A webhook exactly as Atlassian documents it for a webhook with a secret: the JSON event (webhookEvent, timestamp,
   * issue), `X-Hub-Signature: sha256=<hex HMAC-SHA256 of the raw body>` and, on Cloud,
   * `X-Atlassian-Webhook-Identifier`.
   */
  async function sendWebhook(
    key: string,
    options: { secret?: string; delivery?: string | null; event?: string } = {},
    issue = jira.issue(key),
  ) {
    const body = JSON.stringify({
      timestamp: Date.now(),
      webhookEvent: options.event ?? 'jira:issue_updated',
      issue_event_type_name: 'issue_generic',
      user: { displayName: 'Someone' },
      issue: jira.issueJson(issue),
    });
    const signature = `sha256=${createHmac('sha256', options.secret ?? webhookSecret)
      .update(body)
      .digest('hex')}`;
    const delivery = options.delivery === undefined ? randomUUID() : options.delivery;
    return ctx.request('POST', `/api/tracker-connections/${(await connection()).id}/webhook`, {
      body: JSON.parse(body) as unknown,
      headers: {
        'X-Hub-Signature': signature,
        ...(delivery ? { 'X-Atlassian-Webhook-Identifier': delivery } : {}),
      },
    });
  }

  describe('the stand-in Jira is strict', () => {
    it('refuses an unknown operation, a field Pulsecheck may not write and JQL it does not send', async () => {
      const headers = {
        Authorization: cloud
          ? `Basic ${Buffer.from(`${EMAIL}:${TOKEN}`).toString('base64')}`
          : `Bearer ${TOKEN}`,
        'Content-Type': 'application/json',
      };
      const before = jira.violations.length;
      const extraField = await fetch(`${jira.origin}/rest/api/2/issue/API-3`, {
        method: 'PUT',
        headers,
        body: JSON.stringify({ fields: { summary: 'x', priority: { id: '1' } } }),
      });
      expect(extraField.status).toBe(400);
      const badJql = await fetch(
        `${jira.origin}/rest/api/2/${cloud ? 'search/jql' : 'search'}?jql=${encodeURIComponent('order by rank')}`,
        { headers },
      );
      expect(badJql.status).toBe(400);
      // The other flavour's search does not exist here.
      const otherSearch = await fetch(`${jira.origin}/rest/api/2/${cloud ? 'search' : 'search/jql'}?jql=x`, {
        headers,
      });
      expect(otherSearch.status).toBe(404);
      const valid = await fetch(`${jira.origin}/rest/api/2/issue/API-3?fields=summary,status`, { headers });
      expect(valid.status).toBe(200);
      expect(jira.violations.length).toBe(before + 3);
      jira.violations.splice(before);
    });
  });

  it("sends jira.js's requests through the outbound guard: without the loopback allowed, none leaves", async () => {
    const before = jira.requests.length;
    const client = jiraModule.client({
      apiUrl: jira.origin,
      token: TOKEN,
      email: cloud ? EMAIL : null,
      policy: { dnsServers: [], allowLoopback: false },
    });
    await expect(client.whoAmI()).rejects.toBeInstanceOf(OutboundRefused);
    await expect(client.getIssue({ repository: 'API', number: 1 })).rejects.toBeInstanceOf(OutboundRefused);
    expect(jira.requests.length).toBe(before);
  });

  describe('connecting Jira (item 1)', () => {
    it('tests the credentials on save, keeps them sealed, and shows who they act as', async () => {
      const bad = await connect({ token: 'wrong-token' });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toMatchObject({ error: { fields: { token: english(words.refusedToken) } } });
      if (cloud) {
        // The right token with another account's e-mail is refused too (basic auth is the pair).
        const otherEmail = await connect({ email: 'someone@acme.example' });
        expect(otherEmail.status).toBe(400);
      }
      expect((await (await ctx.call(admin.jar, 'GET', connectionPath())).json()) as unknown).toEqual({
        connection: null,
      });
      // The base URL is required for Jira: there is no default site.
      const noAddress = await connect({ baseUrl: '' });
      expect(noAddress.status).toBe(400);
      expect(await noAddress.json()).toMatchObject({
        error: { fields: { baseUrl: english(words.baseUrlInvalid) } },
      });

      const good = await connect();
      expect(good.status).toBe(200);
      const answer = (await good.json()) as {
        message: string;
        webhookSecret: string;
        connection: TrackerConnection;
      };
      const host = new URL(jira.origin).host;
      expect(answer.message).toBe(`Connected as Pulse Bot to ${host}`);
      expect(answer.connection).toMatchObject({
        kind: 'jira',
        label: 'Jira',
        account: 'Pulse Bot',
        target: host,
      });
      webhookSecret = answer.webhookSecret;
      const again = JSON.stringify(await connection());
      expect(again).not.toContain(TOKEN);
      expect(again).not.toContain(EMAIL);
      const [row] = await queryRows<{ token: string }>(
        ctx.deps.db,
        sql`select token from tracker_connections where workspace_id = ${admin.workspaceId}`,
      );
      expect(row!.token).toMatch(/^v1\./);
      expect(row!.token).not.toContain(TOKEN);
      expect(row!.token).not.toContain(EMAIL);
      // Cloud was spoken to with basic auth, Data Center with the Bearer token.
      const myself = jira.requests.filter((r) => r.path === '/rest/api/2/myself');
      expect(myself.length).toBeGreaterThanOrEqual(1);
    });

    it('asks a Jira Cloud site for the account e-mail, and refuses private addresses', async () => {
      const site = await ctx.call(admin.jar, 'PUT', connectionPath(), {
        kind: 'jira',
        baseUrl: 'https://acme.atlassian.net',
        token: TOKEN,
      });
      expect(site.status).toBe(400);
      expect(await site.json()).toMatchObject({
        error: { fields: { email: english(words.email!.required) } },
      });
      const privateAddress = await connect({ baseUrl: 'https://10.0.0.5' });
      expect(privateAddress.status).toBe(400);
      expect(await privateAddress.json()).toMatchObject({
        error: { fields: { baseUrl: english(TRACKER_MESSAGES.baseUrlPrivate) } },
      });
      expect((await connection()).account).toBe('Pulse Bot');
    });
  });

  describe('from an action item (item 2)', () => {
    it('creates an issue by a job in the chosen project: summary, description, due date, assignee by e-mail', async () => {
      const offered = await ctx.call(admin.jar, 'GET', `/api/health-checks/${check.healthCheckId}/tracker`);
      expect(await offered.json()).toEqual({ tracker: { kind: 'jira', label: 'Jira' } });
      const action = await newItem({ dueDate: '2027-01-15' });
      const listed = await ctx.call(admin.jar, 'GET', `/api/action-items/${action.id}/tracker-repositories`);
      expect(await listed.json()).toMatchObject({
        label: 'Jira',
        repositories: [
          { id: 'WEB', name: 'Website (WEB)' },
          { id: 'API', name: 'Platform API (API)' },
        ],
      });
      const created = await ctx.call(admin.jar, 'POST', `/api/action-items/${action.id}/tracker-issue`, {
        repository: 'WEB',
        assignOwner: true,
      });
      expect(created.status).toBe(202);
      expect(((await created.json()) as ActionItem).tracker).toMatchObject({ state: 'creating', key: null });
      expect(jira.issues.filter((i) => i.project === 'WEB')).toHaveLength(0);

      await jobs();
      const issue = jira.issue('WEB-1');
      expect(issue.summary).toBe('Make standups shorter');
      expect(issue.description).toContain(check.components[0]!.title);
      expect(issue.description).toContain(
        `http://localhost:3000/health-check/${check.healthCheckId}/results`,
      );
      expect(issue.description).not.toContain('secret anonymous');
      expect(issue.description).not.toMatch(/fire|healthy|rating/i);
      expect(issue.duedate).toBe('2027-01-15');
      // Created as the project's 'Task' (not its first type, a Bug), assigned to the owner found by e-mail.
      const posted = jira.requests.find((r) => r.method === 'post' && r.path === '/rest/api/2/issue');
      expect(posted?.body).toMatchObject({
        fields: {
          issuetype: { id: '10002' },
          assignee: cloud ? { accountId: 'acc-ada' } : { name: 'ada' },
        },
      });
      expect(issue.assignee).toBe('acc-ada');
      expect((await item(action.id)).tracker).toMatchObject({
        key: 'WEB-1',
        url: `${jira.origin}/browse/WEB-1`,
        state: 'open',
        assignee: 'Ada Admin',
        problem: null,
      });
      await jobs();
      expect(jira.issues.filter((i) => i.project === 'WEB')).toHaveLength(1);
      const twice = await ctx.call(admin.jar, 'POST', `/api/action-items/${action.id}/tracker-issue`, {
        repository: 'WEB',
      });
      expect(twice.status).toBe(409);
    });

    it('refuses a place that is not a Jira project (a GitHub repository) without asking Jira to create anything', async () => {
      const action = await newItem({ description: 'Not a project' });
      const posts = () =>
        jira.requests.filter((r) => r.method === 'post' && r.path === '/rest/api/2/issue').length;
      const before = posts();
      const wrongKind = await ctx.call(admin.jar, 'POST', `/api/action-items/${action.id}/tracker-issue`, {
        repository: 'acme/web',
      });
      expect(wrongKind.status).toBe(202);
      await jobs();
      expect((await item(action.id)).tracker).toMatchObject({
        state: 'creating',
        key: null,
        problem: english(TRACKER_PROBLEMS.invalid),
      });
      expect(posts()).toBe(before);
      const unlinked = await ctx.call(admin.jar, 'DELETE', `/api/action-items/${action.id}/tracker-issue`);
      expect(unlinked.status).toBe(200);
    });

    it('creates an issue unassigned when Jira finds nobody by the e-mail, and without a due date its screen lacks', async () => {
      // Jira Cloud hides the owner's e-mail (Data Center knows another one): nobody is found, so unassigned.
      const ada = jira.users.find((u) => u.accountId === 'acc-ada')!;
      if (cloud) ada.emailVisible = false;
      else ada.email = 'ada@elsewhere.example';
      const action = await newItem({ description: 'Clean the backlog', dueDate: '2027-03-01' });
      jira.dueDateOnScreen = false;
      await ctx.call(admin.jar, 'POST', `/api/action-items/${action.id}/tracker-issue`, {
        repository: 'WEB',
        assignOwner: true,
      });
      await jobs();
      jira.dueDateOnScreen = true;
      ada.emailVisible = true;
      ada.email = admin.email.toLowerCase();
      const issue = jira.issues.find((i) => i.summary === 'Clean the backlog')!;
      expect(issue.assignee).toBeNull();
      expect(issue.duedate).toBeNull();
      expect(issue.description).toContain('Due: 2027-03-01');
      expect((await item(action.id)).tracker).toMatchObject({ state: 'open', problem: null });
    });

    it('links an existing issue by its URL or its key, and refuses what is not one', async () => {
      const action = await newItem({ description: 'Pair on the API' });
      const linked = await link(action.id, `${jira.origin}/browse/API-1`);
      expect(linked.status).toBe(200);
      expect(((await linked.json()) as ActionItem).tracker).toMatchObject({
        key: 'API-1',
        title: 'Existing work',
        state: 'open',
        assignee: 'Bo Builder',
      });
      const other = await newItem({ description: 'Another' });
      expect((await link(other.id, 'API-1')).status).toBe(409);
      const wrongHost = await link(other.id, 'https://elsewhere.atlassian.net/browse/API-1');
      expect(wrongHost.status).toBe(400);
      expect(await wrongHost.json()).toMatchObject({
        error: {
          fields: { url: english(TRACKER_MESSAGES.issueUrlInvalid, { label: 'Jira', origin: jira.origin }) },
        },
      });
      const missing = await link(other.id, 'API-99');
      expect(missing.status).toBe(409);
      expect(await missing.json()).toMatchObject({
        error: { message: english(TRACKER_MESSAGES.issueNotFound) },
      });
      const unseen = await link(other.id, 'SECRET-1');
      expect(unseen.status).toBe(409);
      // A closed (done) issue linked by its key: the action is done at once.
      expect(((await (await link(other.id, 'api-2')).json()) as ActionItem).status).toBe('completed');
      const outsider = await createAdmin(ctx);
      expect(
        (
          await ctx.call(outsider.jar, 'POST', `/api/action-items/${action.id}/tracker-link`, {
            url: 'API-3',
          })
        ).status,
      ).toBe(404);
    });
  });

  describe('both ways (item 3)', () => {
    let actionId = '';
    beforeAll(async () => {
      actionId = (await newItem({ description: 'Write down decisions' })).id;
      expect((await link(actionId, 'API-3')).status).toBe(200);
    });

    it('takes webhooks signed as Jira documents, once each, in the order Jira changed them', async () => {
      const wrong = await sendWebhook('API-3', { secret: 'not-the-secret' });
      expect(wrong.status).toBe(401);
      const unsigned = await ctx.request(
        'POST',
        `/api/tracker-connections/${(await connection()).id}/webhook`,
        {
          body: { webhookEvent: 'jira:issue_updated', issue: jira.issueJson(jira.issue('API-3')) },
        },
      );
      expect(unsigned.status).toBe(401);
      const older = { ...jira.issue('API-3') };
      jira.change('API-3', { summary: 'Decisions log', assignee: 'acc-bo' });
      const newer = { ...jira.issue('API-3') };
      const delivery = randomUUID();
      expect((await sendWebhook('API-3', { delivery }, newer)).status).toBe(200);
      expect((await item(actionId)).tracker).toMatchObject({
        title: 'Decisions log',
        assignee: 'Bo Builder',
      });
      // Out of order: an older event arriving later changes nothing.
      expect((await sendWebhook('API-3', {}, { ...older, summary: 'Stale title' })).status).toBe(200);
      expect((await item(actionId)).tracker?.title).toBe('Decisions log');
      // Replayed: the same delivery is applied once, even with a changed body and a valid signature.
      jira.change('API-3', { summary: 'Replayed title' });
      expect((await sendWebhook('API-3', { delivery })).status).toBe(200);
      expect((await item(actionId)).tracker?.title).toBe('Decisions log');
      // Events that are not an issue's creation or update are received and change nothing.
      expect((await sendWebhook('API-3', { event: 'comment_created' })).status).toBe(200);
      expect((await item(actionId)).tracker?.title).toBe('Decisions log');
      expect((await item(actionId)).description).toBe('Write down decisions');
    });

    it('applies a delivery without an identifier once: the same signed body twice is a replay', async () => {
      jira.change('API-3', { summary: 'No identifier' });
      const body = JSON.stringify({
        timestamp: Date.now(),
        webhookEvent: 'jira:issue_updated',
        issue: jira.issueJson(jira.issue('API-3')),
      });
      const signature = `sha256=${createHmac('sha256', webhookSecret).update(body).digest('hex')}`;
      const send = async () =>
        ctx.request('POST', `/api/tracker-connections/${(await connection()).id}/webhook`, {
          body: JSON.parse(body) as unknown,
          headers: { 'X-Hub-Signature': signature },
        });
      const answers = await Promise.all([send(), send()]);
      expect(answers.map((a) => a.status)).toEqual([200, 200]);
      const [recorded] = await queryRows<{ count: number }>(
        ctx.deps.db,
        sql`select count(*)::int as count from jobs where unique_key like ${'tracker-delivery:%:body-%'}
              and unique_key like ${`tracker-delivery:${(await connection()).id}:%`}`,
      );
      expect(recorded!.count).toBe(1);
      expect((await item(actionId)).tracker?.title).toBe('No identifier');
    });

    it('done in Jira marks the action done, and the next check asks whether it helped; reopened reopens it', async () => {
      jira.change('API-3', { done: true });
      expect((await sendWebhook('API-3')).status).toBe(200);
      const done = await item(actionId);
      expect(done.status).toBe('completed');
      expect(done.completedAt).not.toBeNull();
      expect(done.tracker?.state).toBe('closed');

      const next = await launch(ctx, admin.jar, admin.workspaceId, {
        enabledComponentIds: (await catalogueComponentIds(ctx)).slice(0, 4),
      });
      const person = await joinedParticipant(ctx, next.id);
      const read = (await (
        await ctx.call(person.jar, 'GET', `/api/health-checks/${next.id}/participation`)
      ).json()) as Participation;
      expect(read.followUps.map((f) => f.actionTitle)).toContain('Write down decisions');

      jira.change('API-3', { done: false });
      await sendWebhook('API-3');
      expect((await item(actionId)).status).toBe('pending');
    });

    it('polls every 15 minutes as a fallback: a change no webhook told of arrives', async () => {
      await poll(); // the first poll reads the project's issues
      jira.change('API-3', { done: true, assignee: 'acc-ada' });
      await poll(); // later polls ask for what changed since the last, with a JQL window
      const polled = await item(actionId);
      expect(polled.status).toBe('completed');
      expect(polled.tracker).toMatchObject({ state: 'closed', assignee: 'Ada Admin' });
      const searches = jira.requests.filter(
        (r) => r.path === (cloud ? '/rest/api/2/search/jql' : '/rest/api/2/search'),
      );
      expect(searches.map((r) => r.query.jql)).toContainEqual(
        expect.stringMatching(/^project = "API" AND updated >= "-\d+m" ORDER BY updated ASC$/),
      );
      const [scheduled] = await queryRows<{ count: number }>(
        ctx.deps.db,
        sql`select count(*)::int as count from jobs where kind = 'tracker-poll' and status = 'pending'
              and run_at > now() + interval '14 minutes'`,
      );
      expect(scheduled!.count).toBeGreaterThanOrEqual(1);
    });

    it('writes edits of the summary or due date to the issue by a job, once, with no echo', async () => {
      const puts = () => jira.requests.filter((r) => r.method === 'put').length;
      const before = puts();
      const edited = await ctx.call(admin.jar, 'PATCH', `/api/action-items/${actionId}`, {
        description: 'Write down every decision',
        dueDate: '2027-02-01',
      });
      expect(edited.status).toBe(200);
      expect(puts()).toBe(before);
      await jobs();
      const issue = jira.issue('API-3');
      expect(issue.summary).toBe('Write down every decision');
      expect(issue.duedate).toBe('2027-02-01');
      expect(issue.description).toContain('Due: 2027-02-01');
      expect(puts()).toBe(before + 1);
      // Jira's webhook of that very edit comes back: applied, and nothing is sent again.
      await sendWebhook('API-3');
      await jobs();
      await poll();
      expect(puts()).toBe(before + 1);
      await ctx.call(admin.jar, 'PATCH', `/api/action-items/${actionId}`, { status: 'in-progress' });
      await jobs();
      expect(puts()).toBe(before + 1);
      // The due date removed in Pulsecheck is removed in Jira.
      await ctx.call(admin.jar, 'PATCH', `/api/action-items/${actionId}`, { dueDate: null });
      await jobs();
      expect(jira.issue('API-3').duedate).toBeNull();
    });
  });

  describe('failures are visible, nothing is lost (item 5)', () => {
    it('shows refused credentials on the action item and the Integrations screen, and catches up once they work', async () => {
      jira.issues.push(seed('API', 4, { summary: 'On-call' }));
      const action = await newItem({ description: 'Rotate the on-call' });
      expect((await link(action.id, 'API-4')).status).toBe(200);
      jira.failWith = 401;
      await ctx.call(admin.jar, 'PATCH', `/api/action-items/${action.id}`, {
        description: 'Rotate on-call weekly',
      });
      await jobs();
      expect((await item(action.id)).tracker?.problem).toBe(english(TRACKER_PROBLEMS.credentials));
      expect((await connection()).problem).toBe(english(TRACKER_PROBLEMS.credentials));
      expect((await item(action.id)).description).toBe('Rotate on-call weekly');
      jira.failWith = null;
      await poll();
      expect(jira.issue('API-4').summary).toBe('Rotate on-call weekly');
      expect((await item(action.id)).tracker?.problem).toBeNull();
      expect((await connection()).problem).toBeNull();
    });

    it('keeps an issue that could not be created, with what to do, and creates it once Jira answers', async () => {
      const action = await newItem({ description: 'Demo every sprint' });
      jira.failWith = 503;
      await ctx.call(admin.jar, 'POST', `/api/action-items/${action.id}/tracker-issue`, {
        repository: 'WEB',
      });
      await jobs();
      expect((await item(action.id)).tracker).toMatchObject({
        state: 'creating',
        problem: english(TRACKER_PROBLEMS.unreachable),
      });
      jira.failWith = null;
      await ctx.deps.db.execute(
        sql`update jobs set run_at = now() where kind = 'tracker-create' and status = 'pending'`,
      );
      await jobs();
      expect((await item(action.id)).tracker).toMatchObject({ state: 'open', problem: null });
      expect(jira.issues.filter((i) => i.summary === 'Demo every sprint')).toHaveLength(1);
    });

    it('shows a project that is gone on the action item', async () => {
      jira.projects.push({ key: 'OLD', name: 'Old project' });
      const action = await newItem({ description: 'Archive old stuff' });
      await ctx.call(admin.jar, 'POST', `/api/action-items/${action.id}/tracker-issue`, {
        repository: 'OLD',
      });
      jira.projects.splice(
        jira.projects.findIndex((p) => p.key === 'OLD'),
        1,
      );
      await jobs();
      expect((await item(action.id)).tracker).toMatchObject({
        state: 'creating',
        problem: english(TRACKER_PROBLEMS.missing),
      });
    });
  });
});
