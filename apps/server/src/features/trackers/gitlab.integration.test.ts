import { randomUUID } from 'node:crypto';
import type { Participation } from '@pulsecheck/shared/participation/contract';
import type { ActionItem } from '@pulsecheck/shared/results/schemas';
import {
  TRACKER_MESSAGES,
  TRACKER_PROBLEMS,
  TRACKER_WORDS,
  type TrackerConnection,
} from '@pulsecheck/shared/trackers/rules';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { addMember, createAdmin, joinedParticipant, type Admin } from '../../test/accounts';
import { fakeGitlabIssueUrl, startFakeGitlab, type FakeGitlab } from '../../test/gitlab-server';
import { useTestContext } from '../../test/harness';
import { english } from '../../test/requests';
import { checkWithAnonymousComment, trackerCalls } from '../../test/trackers';
import { catalogueComponentIds, launch, type CheckFixture } from '../../test/health-checks';

/**
 * Action items synced with GitLab (issue 36, decision 0023), end to end against a stand-in GitLab Self-Managed on a
 * loopback port (test/gitlab-server.ts: strict by hand, from GitLab's REST API v4 documentation): connect, create,
 * link, webhooks in (X-Gitlab-Token, replay, order), the poll, the closed loop, edits out (with GitLab's due date),
 * failures.
 */
const ctx = useTestContext({ allowLoopbackWebhooks: true });
let gitlab: FakeGitlab;
let admin: Admin;
let check: CheckFixture;
const TOKEN = 'glpat-good-project-token';
const BOT = 'project_7_bot_1f2e';
const OWNER = { id: 41, username: 'ada.gl' };
const old = (
  iid: number,
  title: string,
  state: 'opened' | 'closed' = 'opened',
  assignee: string | null = null,
) => ({
  iid,
  title,
  description: '',
  state,
  assignee,
  due_date: null,
  updated_at: '2026-11-20T10:00:00.000Z',
});

beforeAll(async () => {
  gitlab = await startFakeGitlab();
  gitlab.tokens.set(TOKEN, BOT);
  gitlab.projects.push(
    { path: 'acme/web' },
    { path: 'acme/platform/api' },
    { path: 'acme/old', archived: true },
    { path: 'acme/no-issues', issuesEnabled: false },
    { path: 'other/visible', member: false },
  );
  gitlab.users.push(
    { id: 7, username: 'bo', publicEmail: null },
    { id: 8, username: 'cy', publicEmail: null },
  );
  gitlab.issues.set('acme/platform/api', [
    old(1, 'Existing work', 'opened', 'bo'),
    old(2, 'Already closed', 'closed'),
    old(3, 'Spare'),
  ]);
  admin = await createAdmin(ctx);
  gitlab.users.push({ ...OWNER, publicEmail: admin.email });
  check = await checkWithAnonymousComment(ctx, admin);
});
afterAll(async () => {
  // Every request the product made is one GitLab documents, with parameters and bodies it takes.
  expect(gitlab.violations).toEqual([]);
  await gitlab.close();
});

const { connectionPath, connection, newItem, item, jobs, poll } = trackerCalls(ctx, () => ({ admin, check }));

const API = 'acme/platform/api';
const connect = (jar: Admin['jar'], token = TOKEN, baseUrl = gitlab.origin) =>
  ctx.call(jar, 'PUT', connectionPath(), { kind: 'gitlab', baseUrl, token });
const issueOf = (path: string, iid: number) => gitlab.issues.get(path)!.find((i) => i.iid === iid)!;

const link = (id: string, iid: number, path = API) =>
  ctx.call(admin.jar, 'POST', `/api/action-items/${id}/tracker-link`, {
    url: fakeGitlabIssueUrl(gitlab.origin, path, iid),
  });

let secretToken = '';
/**
 * A webhook exactly as GitLab's webhook documentation describes one: the JSON 'Issue Hook' body, X-Gitlab-Event,
 * X-Gitlab-Token (the secret token as typed), X-Gitlab-Event-UUID, Idempotency-Key (the same on GitLab's retries).
 */
async function sendWebhook(
  options: { iid: number; action?: string; token?: string; delivery?: string; event?: string },
  issue = issueOf(API, options.iid),
) {
  const delivery = options.delivery ?? randomUUID();
  return ctx.request('POST', `/api/tracker-connections/${(await connection()).id}/webhook`, {
    body: gitlab.hookBody(API, issue, options.action),
    headers: {
      'User-Agent': 'GitLab/17.6.0',
      'X-Gitlab-Event': options.event ?? 'Issue Hook',
      'X-Gitlab-Token': options.token ?? secretToken,
      'X-Gitlab-Instance': gitlab.origin,
      'X-Gitlab-Webhook-UUID': 'f3b1a0f4-0000-4000-8000-00000000feed',
      'X-Gitlab-Event-UUID': randomUUID(),
      'Idempotency-Key': delivery,
    },
  });
}

describe('the stand-in GitLab is strict, by GitLab’s REST API documentation', () => {
  it('refuses an unknown operation, an unknown body property and a parameter out of its form', async () => {
    const headers = { 'PRIVATE-TOKEN': TOKEN, 'Content-Type': 'application/json' };
    const before = gitlab.violations.length;
    const issues = `${gitlab.origin}/api/v4/projects/${encodeURIComponent('acme/web')}/issues`;
    const unknownBody = await fetch(issues, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'x', deadline: '2027-01-01' }),
    });
    expect(unknownBody.status).toBe(400);
    expect((await fetch(`${issues}?scope=everything`, { headers })).status).toBe(400);
    expect((await fetch(`${issues}?since=2026-01-01T00:00:00Z`, { headers })).status).toBe(400);
    expect((await fetch(`${gitlab.origin}/api/v4/projects/1/tickets`, { headers })).status).toBe(404);
    expect(gitlab.violations.length).toBe(before + 4);
    const valid = await fetch(`${issues}?scope=all&per_page=5`, { headers });
    expect(valid.status).toBe(200);
    const wrongToken = await fetch(`${gitlab.origin}/api/v4/user`, { headers: { 'PRIVATE-TOKEN': 'nope' } });
    expect(wrongToken.status).toBe(401);
    const hidden = await fetch(
      `${gitlab.origin}/api/v4/projects/${encodeURIComponent('secret/x')}/issues/1`,
      {
        headers,
      },
    );
    expect(hidden.status).toBe(404);
    expect(gitlab.violations.length).toBe(before + 4);
    gitlab.violations.splice(before);
  });
});

describe('connecting GitLab (item 1)', () => {
  it('tests the token on save, keeps it sealed, and shows who it acts as', async () => {
    const bad = await connect(admin.jar, 'glpat-wrong');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { fields: { token: english(TRACKER_WORDS.gitlab.refusedToken) } },
    });
    expect((await (await ctx.call(admin.jar, 'GET', connectionPath())).json()) as unknown).toEqual({
      connection: null,
    });

    const good = await connect(admin.jar);
    expect(good.status).toBe(200);
    const answer = (await good.json()) as {
      message: string;
      webhookSecret: string;
      connection: TrackerConnection;
    };
    const host = new URL(gitlab.origin).host;
    expect(answer.message).toBe(`Connected as ${BOT} to ${host}`);
    expect(answer.webhookSecret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    secretToken = answer.webhookSecret;
    expect(answer.connection).toMatchObject({ kind: 'gitlab', label: 'GitLab', account: BOT, target: host });
    const again = JSON.stringify(await connection());
    expect(again).not.toContain(TOKEN);
    expect(again).not.toContain(secretToken);
    const [row] = await queryRows<{ token: string; api_url: string }>(
      ctx.deps.db,
      sql`select token, api_url from tracker_connections where workspace_id = ${admin.workspaceId}`,
    );
    expect(row!.token).toMatch(/^v1\./);
    expect(row!.token).not.toContain(TOKEN);
    expect(row!.api_url).toBe(`${gitlab.origin}/api/v4`);
  });

  it('refuses private addresses and an address that is no GitLab, and is for admins and the owner only', async () => {
    const privateAddress = await connect(admin.jar, TOKEN, 'https://10.0.0.5');
    expect(await privateAddress.json()).toMatchObject({
      error: { fields: { baseUrl: english(TRACKER_MESSAGES.baseUrlPrivate) } },
    });
    const notUrl = await connect(admin.jar, TOKEN, 'gitlab.example.com/?x=1');
    expect(await notUrl.json()).toMatchObject({
      error: { fields: { baseUrl: english(TRACKER_WORDS.gitlab.baseUrlInvalid) } },
    });
    // Plain http to anything but the loopback is refused (tokens would travel in clear).
    expect((await connect(admin.jar, TOKEN, 'http://gitlab.example.com')).status).toBe(400);

    const member = await addMember(ctx, { jar: admin.jar, workspaceId: admin.workspaceId });
    expect((await connect(member.jar)).status).toBe(404);
    const outsider = await createAdmin(ctx);
    expect((await ctx.call(outsider.jar, 'GET', connectionPath())).status).toBe(404);
    expect((await connection()).account).toBe(BOT);
  });
});

describe('from an action item (item 2)', () => {
  it('creates an issue by a job with the due date in GitLab’s field; never ratings or comments', async () => {
    const offered = await ctx.call(admin.jar, 'GET', `/api/health-checks/${check.healthCheckId}/tracker`);
    expect(await offered.json()).toEqual({ tracker: { kind: 'gitlab', label: 'GitLab' } });
    const action = await newItem({ dueDate: '2027-01-15' });
    const listed = await ctx.call(admin.jar, 'GET', `/api/action-items/${action.id}/tracker-repositories`);
    // Projects the token is a member of, with issues, not archived: the stand-in filters only as asked.
    expect(await listed.json()).toEqual({
      kind: 'gitlab',
      label: 'GitLab',
      repositories: [
        { id: 'acme/platform/api', name: 'acme/platform/api' },
        { id: 'acme/web', name: 'acme/web' },
      ],
    });
    const created = await ctx.call(admin.jar, 'POST', `/api/action-items/${action.id}/tracker-issue`, {
      repository: 'acme/web',
      assignOwner: true,
    });
    expect(created.status).toBe(202);
    expect(((await created.json()) as ActionItem).tracker).toMatchObject({ state: 'creating', key: null });
    expect(gitlab.issues.get('acme/web')).toBeUndefined();

    await jobs();
    const [issue] = gitlab.issues.get('acme/web')!;
    expect(issue!.title).toBe('Make standups shorter');
    expect(issue!.due_date).toBe('2027-01-15');
    expect(issue!.description).toContain(check.components[0]!.title);
    expect(issue!.description).toContain(`http://localhost:3000/health-check/${check.healthCheckId}/results`);
    expect(issue!.description).not.toContain('secret anonymous');
    expect(issue!.description).not.toMatch(/fire|healthy|rating/i);
    // The owner's public e-mail found their GitLab user (GET /users?search=<e-mail>), assigned by id.
    expect(gitlab.requests.some((r) => r.path === '/users' && r.query.search === admin.email)).toBe(true);
    expect(issue!.assignee).toBe(OWNER.username);
    expect((await item(action.id)).tracker).toMatchObject({
      kind: 'gitlab',
      key: 'acme/web#1',
      url: `${gitlab.origin}/acme/web/-/issues/1`,
      state: 'open',
      assignee: OWNER.username,
      problem: null,
    });
    await jobs();
    expect(gitlab.issues.get('acme/web')).toHaveLength(1);
    const twice = await ctx.call(admin.jar, 'POST', `/api/action-items/${action.id}/tracker-issue`, {
      repository: 'acme/web',
    });
    expect(twice.status).toBe(409);
  });

  it('creates it unassigned when no GitLab user has the owner’s e-mail public', async () => {
    const someone = await addMember(ctx, { jar: admin.jar, workspaceId: admin.workspaceId });
    const action = await newItem({ description: 'Nobody known', ownerId: someone.userId });
    await ctx.call(admin.jar, 'POST', `/api/action-items/${action.id}/tracker-issue`, {
      repository: 'acme/web',
    });
    await jobs();
    const issue = gitlab.issues.get('acme/web')!.find((i) => i.title === 'Nobody known')!;
    expect(issue.assignee).toBeNull();
    expect(issue.due_date).toBeNull();
  });

  it('links an existing issue by its URL (nested groups too), and refuses what is not one', async () => {
    const action = await newItem({ description: 'Pair on the API' });
    const linked = await link(action.id, 1);
    expect(linked.status).toBe(200);
    expect(((await linked.json()) as ActionItem).tracker).toMatchObject({
      key: 'acme/platform/api#1',
      title: 'Existing work',
      state: 'open',
      assignee: 'bo',
    });
    const other = await newItem({ description: 'Another' });
    expect((await link(other.id, 1)).status).toBe(409);
    const wrongHost = await ctx.call(admin.jar, 'POST', `/api/action-items/${other.id}/tracker-link`, {
      url: 'https://github.com/acme/api/issues/1',
    });
    expect(wrongHost.status).toBe(400);
    expect(await wrongHost.json()).toMatchObject({
      error: {
        fields: {
          url: english(TRACKER_MESSAGES.issueUrlInvalid, { label: 'GitLab', origin: gitlab.origin }),
        },
      },
    });
    const missing = await link(other.id, 99);
    expect(missing.status).toBe(409);
    expect(await missing.json()).toMatchObject({
      error: { message: english(TRACKER_MESSAGES.issueNotFound) },
    });
    const unseen = await link(other.id, 1, 'secret/project');
    expect(unseen.status).toBe(409);
    // A closed issue linked: the action is done at once.
    expect(((await (await link(other.id, 2)).json()) as ActionItem).status).toBe('completed');
    const outsider = await createAdmin(ctx);
    expect(
      (
        await ctx.call(outsider.jar, 'POST', `/api/action-items/${action.id}/tracker-link`, {
          url: fakeGitlabIssueUrl(gitlab.origin, API, 3),
        })
      ).status,
    ).toBe(404);
  });
});

describe('both ways (item 3)', () => {
  let actionId = '';
  beforeAll(async () => {
    actionId = (await newItem({ description: 'Write down decisions' })).id;
    expect((await link(actionId, 3)).status).toBe(200);
  });

  it('takes webhooks with the right X-Gitlab-Token, once each, in the order GitLab changed them', async () => {
    const wrong = await sendWebhook({ iid: 3, token: 'not-the-secret' });
    expect(wrong.status).toBe(401);
    const missing = await sendWebhook({ iid: 3, token: '' });
    expect(missing.status).toBe(401);
    const older = { ...issueOf(API, 3) };
    gitlab.change(API, 3, { title: 'Decisions log', assignee: 'cy' });
    const newer = { ...issueOf(API, 3) };
    const delivery = randomUUID();
    expect((await sendWebhook({ iid: 3, delivery }, newer)).status).toBe(200);
    expect((await item(actionId)).tracker).toMatchObject({ title: 'Decisions log', assignee: 'cy' });
    // Out of order: an older event arriving later changes nothing.
    expect((await sendWebhook({ iid: 3 }, { ...older, title: 'Stale title' })).status).toBe(200);
    expect((await item(actionId)).tracker?.title).toBe('Decisions log');
    // Replayed (GitLab's retry keeps its Idempotency-Key): applied once, even with a changed body.
    gitlab.change(API, 3, { title: 'Replayed title' });
    expect((await sendWebhook({ iid: 3, delivery })).status).toBe(200);
    expect((await item(actionId)).tracker?.title).toBe('Decisions log');
    // Other events are received and change nothing.
    expect((await sendWebhook({ iid: 3, event: 'Note Hook' })).status).toBe(200);
    expect((await item(actionId)).tracker?.title).toBe('Decisions log');
    expect((await item(actionId)).description).toBe('Write down decisions');
  });

  it('applies one delivery once when it arrives twice at the same moment', async () => {
    gitlab.change(API, 3, { assignee: 'bo' });
    const delivery = randomUUID();
    const answers = await Promise.all([sendWebhook({ iid: 3, delivery }), sendWebhook({ iid: 3, delivery })]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const [recorded] = await queryRows<{ count: number }>(
      ctx.deps.db,
      sql`select count(*)::int as count from jobs where unique_key like ${`tracker-delivery:%:${delivery}`}`,
    );
    expect(recorded!.count).toBe(1);
    expect((await item(actionId)).tracker?.assignee).toBe('bo');
  });

  it('closed in GitLab marks the action done, and the next check asks whether it helped; reopened reopens it', async () => {
    gitlab.change(API, 3, { state: 'closed' });
    expect((await sendWebhook({ iid: 3, action: 'close' })).status).toBe(200);
    const done = await item(actionId);
    expect(done.status).toBe('completed');
    expect(done.tracker?.state).toBe('closed');

    const next = await launch(ctx, admin.jar, admin.workspaceId, {
      enabledComponentIds: (await catalogueComponentIds(ctx)).slice(0, 4),
    });
    const person = await joinedParticipant(ctx, next.id);
    const read = (await (
      await ctx.call(person.jar, 'GET', `/api/health-checks/${next.id}/participation`)
    ).json()) as Participation;
    expect(read.followUps.map((f) => f.actionTitle)).toContain('Write down decisions');

    gitlab.change(API, 3, { state: 'opened' });
    await sendWebhook({ iid: 3, action: 'reopen' });
    expect((await item(actionId)).status).toBe('pending');
  });

  it('polls every 15 minutes as a fallback: a change no webhook told of arrives', async () => {
    gitlab.change(API, 3, { state: 'closed', assignee: 'cy' });
    await poll();
    const polled = await item(actionId);
    expect(polled.status).toBe('completed');
    expect(polled.tracker).toMatchObject({ state: 'closed', assignee: 'cy' });
    const listed = gitlab.requests.filter(
      (r) => r.method === 'GET' && r.path === `/projects/${encodeURIComponent(API)}/issues`,
    );
    expect(listed.length).toBeGreaterThanOrEqual(1);
    // A second poll asks only for what changed since the first (less its overlap).
    await poll();
    const lists = gitlab.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/issues'));
    expect(lists.at(-1)?.query.scope).toBe('all');
    expect(lists.at(-1)?.query.updated_after).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const [scheduled] = await queryRows<{ count: number }>(
      ctx.deps.db,
      sql`select count(*)::int as count from jobs where kind = 'tracker-poll' and status = 'pending'
            and run_at > now() + interval '14 minutes'`,
    );
    expect(scheduled!.count).toBeGreaterThanOrEqual(1);
  });

  it('writes edits of the title and due date to the issue by a job, once, with no echo', async () => {
    const puts = () => gitlab.requests.filter((r) => r.method === 'PUT').length;
    const before = puts();
    const edited = await ctx.call(admin.jar, 'PATCH', `/api/action-items/${actionId}`, {
      description: 'Write down every decision',
      dueDate: '2027-02-01',
    });
    expect(edited.status).toBe(200);
    expect(puts()).toBe(before);
    await jobs();
    const issue = issueOf(API, 3);
    expect(issue.title).toBe('Write down every decision');
    expect(issue.due_date).toBe('2027-02-01');
    expect(puts()).toBe(before + 1);
    // GitLab's webhook of that very edit comes back: applied, nothing sent again.
    await sendWebhook({ iid: 3 });
    await jobs();
    await poll();
    expect(puts()).toBe(before + 1);
    // The due date removed in Pulsecheck is removed in GitLab.
    await ctx.call(admin.jar, 'PATCH', `/api/action-items/${actionId}`, { dueDate: null });
    await jobs();
    expect(issueOf(API, 3).due_date).toBeNull();
    expect(puts()).toBe(before + 2);
    await ctx.call(admin.jar, 'PATCH', `/api/action-items/${actionId}`, { status: 'in-progress' });
    await jobs();
    expect(puts()).toBe(before + 2);
  });
});

describe('failures are visible, nothing is lost (item 5)', () => {
  it('shows a refused token on the action item and the Integrations screen, and catches up once it works', async () => {
    const action = await newItem({ description: 'Rotate the on-call' });
    gitlab.issues.get(API)!.push(old(4, 'On-call'));
    expect((await link(action.id, 4)).status).toBe(200);

    gitlab.failWith = 401;
    await ctx.call(admin.jar, 'PATCH', `/api/action-items/${action.id}`, {
      description: 'Rotate on-call weekly',
    });
    await jobs();
    expect((await item(action.id)).tracker?.problem).toBe(english(TRACKER_PROBLEMS.credentials));
    expect((await connection()).problem).toBe(english(TRACKER_PROBLEMS.credentials));
    expect((await item(action.id)).description).toBe('Rotate on-call weekly');

    gitlab.failWith = null;
    await poll();
    expect(issueOf(API, 4).title).toBe('Rotate on-call weekly');
    expect((await item(action.id)).tracker?.problem).toBeNull();
    expect((await connection()).problem).toBeNull();
  });

  it('keeps an issue that could not be created, with what to do, and creates it when GitLab answers', async () => {
    const action = await newItem({ description: 'Demo every sprint' });
    gitlab.failWith = 503;
    await ctx.call(admin.jar, 'POST', `/api/action-items/${action.id}/tracker-issue`, {
      repository: 'acme/web',
    });
    await jobs();
    expect((await item(action.id)).tracker).toMatchObject({
      state: 'creating',
      problem: english(TRACKER_PROBLEMS.unreachable),
    });
    gitlab.failWith = null;
    await ctx.deps.db.execute(
      sql`update jobs set run_at = now() where kind = 'tracker-create' and status = 'pending'`,
    );
    await jobs();
    expect((await item(action.id)).tracker).toMatchObject({ state: 'open', problem: null });
    expect(gitlab.issues.get('acme/web')!.filter((i) => i.title === 'Demo every sprint')).toHaveLength(1);
  });

  it('shows a project that is gone, and the token’s missing role, with what to do', async () => {
    const action = await newItem({ description: 'Moved away' });
    await ctx.call(admin.jar, 'POST', `/api/action-items/${action.id}/tracker-issue`, {
      repository: 'acme/deleted-project',
    });
    await jobs();
    expect((await item(action.id)).tracker).toMatchObject({
      state: 'creating',
      problem: english(TRACKER_PROBLEMS.missing),
    });
    const other = await newItem({ description: 'Not allowed' });
    gitlab.failWith = 403;
    await ctx.call(admin.jar, 'POST', `/api/action-items/${other.id}/tracker-issue`, {
      repository: 'acme/web',
    });
    await jobs();
    expect((await item(other.id)).tracker).toMatchObject({
      state: 'creating',
      problem: english(TRACKER_PROBLEMS.permission),
    });
    gitlab.failWith = null;
    // Once GitLab allows it, the next poll creates it, once.
    await poll();
    await poll();
    expect((await item(other.id)).tracker).toMatchObject({ state: 'open', problem: null });
    expect(gitlab.issues.get('acme/web')!.filter((i) => i.title === 'Not allowed')).toHaveLength(1);
  });
});
