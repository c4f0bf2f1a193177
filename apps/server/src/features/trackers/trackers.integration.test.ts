import { createHmac, randomUUID } from 'node:crypto';
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
import { startFakeGithub, type FakeGithub } from '../../test/github-server';
import { useTestContext } from '../../test/harness';
import { english } from '../../test/requests';
import { checkWithAnonymousComment, trackerCalls } from '../../test/trackers';
import { catalogueComponentIds, launch, type CheckFixture } from '../../test/health-checks';

/**
 * Action items synced with GitHub (issue 36, decision 0023), end to end against a stand-in GitHub on a loopback port
 * (test/github-server.ts) that checks every request Pulsecheck makes against GitHub's published OpenAPI description:
 * connect, create, link, webhooks in (signature, replay, order), the poll, the closed loop, edits out, failures.
 */
const ctx = useTestContext({ allowLoopbackWebhooks: true });
let github: FakeGithub;
let admin: Admin;
let check: CheckFixture;
const TOKEN = 'github_pat_11AAAAAAA0good';
const ADMIN_EMAIL_LOGIN = 'ada-gh';

beforeAll(async () => {
  github = await startFakeGithub();
  github.tokens.set(TOKEN, 'octo-admin');
  github.repositories.push('acme/web', 'acme/api');
  github.issues.set('acme/api', [
    {
      number: 1,
      title: 'Existing work',
      body: '',
      state: 'open',
      assignee: 'bo',
      updated_at: '2026-11-20T10:00:00Z',
    },
    {
      number: 2,
      title: 'Already closed',
      body: '',
      state: 'closed',
      assignee: null,
      updated_at: '2026-11-20T10:00:00Z',
    },
    {
      number: 3,
      title: 'Spare',
      body: '',
      state: 'open',
      assignee: null,
      updated_at: '2026-11-20T10:00:00Z',
    },
  ]);
  admin = await createAdmin(ctx);
  github.publicEmails.set(admin.email, ADMIN_EMAIL_LOGIN);
  check = await checkWithAnonymousComment(ctx, admin);
});
afterAll(async () => {
  // Every request the product made is one GitHub describes, with parameters and bodies it accepts.
  expect(github.violations).toEqual([]);
  await github.close();
});

const { connectionPath, connection, newItem, item, jobs, poll } = trackerCalls(ctx, () => ({ admin, check }));

const connect = (jar: Admin['jar'], token = TOKEN, baseUrl = github.origin) =>
  ctx.call(jar, 'PUT', connectionPath(), { kind: 'github', baseUrl, token });

async function link(id: string, number: number) {
  const response = await ctx.call(admin.jar, 'POST', `/api/action-items/${id}/tracker-link`, {
    url: `${github.origin}/acme/api/issues/${number}`,
  });
  return response;
}

let webhookSecret = '';
/** A webhook exactly as GitHub documents it: JSON body, X-GitHub-Event, X-GitHub-Delivery, X-Hub-Signature-256. */
async function sendWebhook(
  options: { repository: string; number: number; action?: string; secret?: string; delivery?: string },
  issue = github.issues.get(options.repository)!.find((i) => i.number === options.number)!,
) {
  const body = JSON.stringify({
    action: options.action ?? 'edited',
    issue: {
      number: issue.number,
      title: issue.title,
      state: issue.state,
      html_url: `${github.origin}/${options.repository}/issues/${issue.number}`,
      updated_at: issue.updated_at,
      assignee: issue.assignee ? { login: issue.assignee } : null,
    },
    repository: { full_name: options.repository },
  });
  const signature = `sha256=${createHmac('sha256', options.secret ?? webhookSecret)
    .update(body)
    .digest('hex')}`;
  return ctx.request('POST', `/api/tracker-connections/${(await connection()).id}/webhook`, {
    body: JSON.parse(body) as unknown,
    headers: {
      'X-GitHub-Event': 'issues',
      'X-GitHub-Delivery': options.delivery ?? randomUUID(),
      'X-Hub-Signature-256': signature,
    },
  });
}

describe("the stand-in GitHub checks requests against GitHub's OpenAPI description", () => {
  it('refuses an unknown operation, a body property GitHub does not name and a wrong parameter type', async () => {
    const headers = { Authorization: `token ${TOKEN}`, 'Content-Type': 'application/json' };
    const before = github.violations.length;
    const unknownBody = await fetch(`${github.origin}/api/v3/repos/acme/web/issues`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ title: 'x', due: '2027-01-01' }),
    });
    expect(unknownBody.status).toBe(422);
    const badQuery = await fetch(`${github.origin}/api/v3/repos/acme/web/issues?state=everything`, {
      headers,
    });
    expect(badQuery.status).toBe(422);
    const noSuch = await fetch(`${github.origin}/api/v3/repos/acme/web/tickets`, { headers });
    expect(noSuch.status).toBe(404);
    const valid = await fetch(`${github.origin}/api/v3/repos/acme/web/issues?state=all&per_page=5`, {
      headers,
    });
    expect(valid.status).toBe(200);
    expect(github.violations.length).toBe(before + 3);
    github.violations.splice(before);
  });
});

describe('connecting GitHub (item 1)', () => {
  it('tests the token on save, keeps it sealed, and shows who it acts as', async () => {
    const bad = await connect(admin.jar, 'github_pat_wrong');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { fields: { token: english(TRACKER_WORDS.github.refusedToken) } },
    });
    expect((await ctx.call(admin.jar, 'GET', connectionPath())).status).toBe(200);
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
    const host = new URL(github.origin).host;
    expect(answer.message).toBe(`Connected as octo-admin to ${host}`);
    expect(answer.webhookSecret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    webhookSecret = answer.webhookSecret;
    expect(answer.connection).toMatchObject({
      account: 'octo-admin',
      target: host,
      closeMarksDone: true,
      problem: null,
    });
    // Never answered again, and not readable in the database.
    const again = JSON.stringify(await connection());
    expect(again).not.toContain(TOKEN);
    expect(again).not.toContain(webhookSecret);
    const [row] = await queryRows<{ token: string; webhook_secret: string }>(
      ctx.deps.db,
      sql`select token, webhook_secret from tracker_connections where workspace_id = ${admin.workspaceId}`,
    );
    expect(row!.token).toMatch(/^v1\./);
    expect(row!.token).not.toContain(TOKEN);
    expect(row!.webhook_secret).not.toContain(webhookSecret);
  });

  it('refuses addresses that are not the server (no private network) and is for admins and the owner only', async () => {
    const privateAddress = await connect(admin.jar, TOKEN, 'https://10.0.0.5');
    expect(privateAddress.status).toBe(400);
    expect(await privateAddress.json()).toMatchObject({
      error: { fields: { baseUrl: english(TRACKER_MESSAGES.baseUrlPrivate) } },
    });
    expect((await connect(admin.jar, TOKEN, 'ftp://example.com')).status).toBe(400);

    const member = await addMember(ctx, { jar: admin.jar, workspaceId: admin.workspaceId });
    expect((await ctx.call(member.jar, 'GET', connectionPath())).status).toBe(404);
    expect((await connect(member.jar)).status).toBe(404);
    const outsider = await createAdmin(ctx);
    expect((await ctx.call(outsider.jar, 'GET', connectionPath())).status).toBe(404);
    expect((await ctx.call(outsider.jar, 'DELETE', connectionPath())).status).toBe(404);
    expect((await connection()).account).toBe('octo-admin');
  });
});

describe('from an action item (item 2)', () => {
  it('creates an issue by a job: the action, its component and a link, never ratings or comments', async () => {
    const offered = await ctx.call(admin.jar, 'GET', `/api/health-checks/${check.healthCheckId}/tracker`);
    expect(await offered.json()).toEqual({ tracker: { kind: 'github', label: 'GitHub' } });
    const action = await newItem({ dueDate: '2027-01-15' });
    const listed = await ctx.call(admin.jar, 'GET', `/api/action-items/${action.id}/tracker-repositories`);
    expect(await listed.json()).toMatchObject({
      label: 'GitHub',
      repositories: [
        { id: 'acme/web', name: 'acme/web' },
        { id: 'acme/api', name: 'acme/api' },
      ],
    });
    const created = await ctx.call(admin.jar, 'POST', `/api/action-items/${action.id}/tracker-issue`, {
      repository: 'acme/web',
      assignOwner: true,
    });
    expect(created.status).toBe(202);
    expect(((await created.json()) as ActionItem).tracker).toMatchObject({ state: 'creating', key: null });
    expect(github.issues.get('acme/web')).toBeUndefined();

    await jobs();
    const [issue] = github.issues.get('acme/web')!;
    expect(issue!.title).toBe('Make standups shorter');
    expect(issue!.body).toContain(check.components[0]!.title);
    expect(issue!.body).toContain('Due: 2027-01-15');
    expect(issue!.body).toContain(`http://localhost:3000/health-check/${check.healthCheckId}/results`);
    expect(issue!.body).not.toContain('secret anonymous');
    expect(issue!.body).not.toMatch(/fire|healthy|rating/i);
    // The owner's public e-mail found their GitHub login.
    expect(issue!.assignee).toBe(ADMIN_EMAIL_LOGIN);
    expect((await item(action.id)).tracker).toMatchObject({
      key: 'acme/web#1',
      url: `${github.origin}/acme/web/issues/1`,
      state: 'open',
      assignee: ADMIN_EMAIL_LOGIN,
      problem: null,
    });
    // A second job run creates nothing more; a second 'Create' is refused.
    await jobs();
    expect(github.issues.get('acme/web')).toHaveLength(1);
    const twice = await ctx.call(admin.jar, 'POST', `/api/action-items/${action.id}/tracker-issue`, {
      repository: 'acme/web',
    });
    expect(twice.status).toBe(409);
  });

  it('links an existing issue by its URL, and refuses what is not one', async () => {
    const action = await newItem({ description: 'Pair on the API' });
    const linked = await link(action.id, 1);
    expect(linked.status).toBe(200);
    expect(((await linked.json()) as ActionItem).tracker).toMatchObject({
      key: 'acme/api#1',
      title: 'Existing work',
      state: 'open',
      assignee: 'bo',
    });
    const other = await newItem({ description: 'Another' });
    expect((await link(other.id, 1)).status).toBe(409);
    const wrongHost = await ctx.call(admin.jar, 'POST', `/api/action-items/${other.id}/tracker-link`, {
      url: 'https://gitlab.com/acme/api/issues/1',
    });
    expect(wrongHost.status).toBe(400);
    const missing = await link(other.id, 99);
    expect(missing.status).toBe(409);
    expect(await missing.json()).toMatchObject({
      error: { message: english(TRACKER_MESSAGES.issueNotFound) },
    });
    // A closed issue linked: the action is done at once.
    expect(((await (await link(other.id, 2)).json()) as ActionItem).status).toBe('completed');
    // Outsiders get 404.
    const outsider = await createAdmin(ctx);
    expect(
      (
        await ctx.call(outsider.jar, 'POST', `/api/action-items/${action.id}/tracker-link`, {
          url: `${github.origin}/acme/api/issues/3`,
        })
      ).status,
    ).toBe(404);
    expect(
      (await ctx.call(outsider.jar, 'GET', `/api/action-items/${action.id}/tracker-repositories`)).status,
    ).toBe(404);
  });
});

describe('API tokens', () => {
  it('may link and read issues with action-items scopes, never touch the connection', async () => {
    const made = await ctx.call(admin.jar, 'POST', '/api/account/api-tokens', {
      name: 'Tracker script',
      scopes: ['action-items:read', 'action-items:write'],
      expiresInDays: 30,
    });
    expect(made.status).toBe(201);
    const { secret } = (await made.json()) as { secret: string };
    const withToken = (method: string, path: string, body?: unknown) =>
      ctx.request(method, path, { headers: { authorization: `Bearer ${secret}` }, body });
    const action = await newItem({ description: 'Scripted' });
    github.issues.get('acme/api')!.push({
      number: 5,
      title: 'Scripted',
      body: '',
      state: 'open',
      assignee: null,
      updated_at: '2026-11-20T10:00:00Z',
    });
    const linked = await withToken('POST', `/api/action-items/${action.id}/tracker-link`, {
      url: `${github.origin}/acme/api/issues/5`,
    });
    expect(linked.status).toBe(200);
    expect((await withToken('GET', `/api/action-items/${action.id}/tracker-repositories`)).status).toBe(200);
    for (const method of ['GET', 'PUT', 'PATCH', 'DELETE']) {
      const refused = await withToken(
        method,
        connectionPath(),
        method === 'GET' ? undefined : { kind: 'github', token: 'x', closeMarksDone: true },
      );
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ error: { code: 'session_required' } });
    }
  });
});

describe('both ways (item 3)', () => {
  let actionId = '';
  beforeAll(async () => {
    actionId = (await newItem({ description: 'Write down decisions' })).id;
    expect((await link(actionId, 3)).status).toBe(200);
  });

  it('takes webhooks signed as GitHub documents, once each, in the order the tracker changed them', async () => {
    const wrong = await sendWebhook({ repository: 'acme/api', number: 3, secret: 'not-the-secret' });
    expect(wrong.status).toBe(401);
    const older = { ...github.issues.get('acme/api')!.find((i) => i.number === 3)! };
    github.change('acme/api', 3, { title: 'Decisions log', assignee: 'cy' });
    const newer = { ...github.issues.get('acme/api')!.find((i) => i.number === 3)! };
    const delivery = randomUUID();
    expect((await sendWebhook({ repository: 'acme/api', number: 3, delivery }, newer)).status).toBe(200);
    expect((await item(actionId)).tracker).toMatchObject({ title: 'Decisions log', assignee: 'cy' });
    // Out of order: an older event arriving later changes nothing.
    expect(
      (await sendWebhook({ repository: 'acme/api', number: 3 }, { ...older, title: 'Stale title' })).status,
    ).toBe(200);
    expect((await item(actionId)).tracker?.title).toBe('Decisions log');
    // Replayed: the same delivery is applied once (even with a changed body and a valid signature).
    github.change('acme/api', 3, { title: 'Replayed title' });
    const replay = await sendWebhook({ repository: 'acme/api', number: 3, delivery });
    expect(replay.status).toBe(200);
    expect((await item(actionId)).tracker?.title).toBe('Decisions log');
    // The description in Pulsecheck stays the action's: the tracker's title is shown beside it.
    expect((await item(actionId)).description).toBe('Write down decisions');
  });

  it('applies one delivery once when it arrives twice at the same moment (two processes, or a retry)', async () => {
    github.change('acme/api', 3, { assignee: 'eve' });
    const delivery = randomUUID();
    const answers = await Promise.all([
      sendWebhook({ repository: 'acme/api', number: 3, delivery }),
      sendWebhook({ repository: 'acme/api', number: 3, delivery }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const [recorded] = await queryRows<{ count: number }>(
      ctx.deps.db,
      sql`select count(*)::int as count from jobs where unique_key like ${`tracker-delivery:%:${delivery}`}`,
    );
    expect(recorded!.count).toBe(1);
    expect((await item(actionId)).tracker?.assignee).toBe('eve');
  });

  it('closed in GitHub marks the action done, and the next check asks whether it helped; reopened reopens it', async () => {
    github.change('acme/api', 3, { state: 'closed' });
    expect((await sendWebhook({ repository: 'acme/api', number: 3, action: 'closed' })).status).toBe(200);
    const done = await item(actionId);
    expect(done.status).toBe('completed');
    expect(done.completedAt).not.toBeNull();
    expect(done.tracker?.state).toBe('closed');

    // The closed loop (decision 0019): a new check with the component asks about it.
    const next = await launch(ctx, admin.jar, admin.workspaceId, {
      enabledComponentIds: (await catalogueComponentIds(ctx)).slice(0, 4),
    });
    const person = await joinedParticipant(ctx, next.id);
    const read = (await (
      await ctx.call(person.jar, 'GET', `/api/health-checks/${next.id}/participation`)
    ).json()) as Participation;
    expect(read.followUps.map((f) => f.actionTitle)).toContain('Write down decisions');

    github.change('acme/api', 3, { state: 'open' });
    await sendWebhook({ repository: 'acme/api', number: 3, action: 'reopened' });
    expect((await item(actionId)).status).toBe('pending');
  });

  it('lets the workspace turn off closing marks done', async () => {
    const off = await ctx.call(admin.jar, 'PATCH', connectionPath(), { closeMarksDone: false });
    expect(off.status).toBe(200);
    github.change('acme/api', 3, { state: 'closed' });
    await sendWebhook({ repository: 'acme/api', number: 3, action: 'closed' });
    const still = await item(actionId);
    expect(still.status).toBe('pending');
    expect(still.tracker?.state).toBe('closed');
    await ctx.call(admin.jar, 'PATCH', connectionPath(), { closeMarksDone: true });
    github.change('acme/api', 3, { state: 'open' });
    await sendWebhook({ repository: 'acme/api', number: 3, action: 'reopened' });
  });

  it('polls every 15 minutes as a fallback: a change no webhook told of arrives', async () => {
    github.change('acme/api', 3, { state: 'closed', assignee: 'dee' });
    await poll();
    const polled = await item(actionId);
    expect(polled.status).toBe('completed');
    expect(polled.tracker).toMatchObject({ state: 'closed', assignee: 'dee' });
    // The next poll is scheduled (once per slot, whatever the number of processes).
    const [scheduled] = await queryRows<{ count: number }>(
      ctx.deps.db,
      sql`select count(*)::int as count from jobs where kind = 'tracker-poll' and status = 'pending'
            and run_at > now() + interval '14 minutes'`,
    );
    expect(scheduled!.count).toBeGreaterThanOrEqual(1);
    const listed = github.requests.filter((r) => r.method === 'get' && r.path === '/repos/acme/api/issues');
    expect(listed.length).toBeGreaterThanOrEqual(1);
  });

  it('writes edits of the title or due date to the issue by a job, once, with no echo', async () => {
    const patches = () => github.requests.filter((r) => r.method === 'patch').length;
    const before = patches();
    const edited = await ctx.call(admin.jar, 'PATCH', `/api/action-items/${actionId}`, {
      description: 'Write down every decision',
      dueDate: '2027-02-01',
    });
    expect(edited.status).toBe(200);
    expect(patches()).toBe(before);
    await jobs();
    const issue = github.issues.get('acme/api')!.find((i) => i.number === 3)!;
    expect(issue.title).toBe('Write down every decision');
    expect(issue.body).toContain('Due: 2027-02-01');
    expect(patches()).toBe(before + 1);
    // GitHub's webhook of that very edit comes back: applied, and nothing is sent again.
    await sendWebhook({ repository: 'acme/api', number: 3 });
    await jobs();
    await poll();
    expect(patches()).toBe(before + 1);
    // An edit the issue does not show (the status) sends nothing.
    await ctx.call(admin.jar, 'PATCH', `/api/action-items/${actionId}`, { status: 'in-progress' });
    await jobs();
    expect(patches()).toBe(before + 1);
  });
});

describe('failures are visible, nothing is lost (item 5)', () => {
  it('shows a refused token on the action item and the Integrations screen, and catches up once it works', async () => {
    const action = await newItem({ description: 'Rotate the on-call' });
    expect((await link(action.id, 1)).status).toBe(409); // issue 1 is taken; use a new one
    github.issues.get('acme/api')!.push({
      number: 4,
      title: 'On-call',
      body: '',
      state: 'open',
      assignee: null,
      updated_at: '2026-11-20T10:00:00Z',
    });
    expect((await link(action.id, 4)).status).toBe(200);

    github.failWith = 401;
    expect(
      (
        await ctx.call(admin.jar, 'PATCH', `/api/action-items/${action.id}`, {
          description: 'Rotate on-call weekly',
        })
      ).status,
    ).toBe(200);
    await jobs();
    expect((await item(action.id)).tracker?.problem).toBe(english(TRACKER_PROBLEMS.credentials));
    expect((await connection()).problem).toBe(english(TRACKER_PROBLEMS.credentials));
    // The action item still works without the tracker.
    expect((await item(action.id)).description).toBe('Rotate on-call weekly');

    github.failWith = null;
    await poll();
    const issue = github.issues.get('acme/api')!.find((i) => i.number === 4)!;
    expect(issue.title).toBe('Rotate on-call weekly');
    expect((await item(action.id)).tracker?.problem).toBeNull();
    expect((await connection()).problem).toBeNull();
  });

  it('keeps an issue that could not be created, with what to do, and creates it when the tracker answers', async () => {
    const action = await newItem({ description: 'Demo every sprint' });
    github.failWith = 503;
    await ctx.call(admin.jar, 'POST', `/api/action-items/${action.id}/tracker-issue`, {
      repository: 'acme/web',
    });
    await jobs();
    expect((await item(action.id)).tracker).toMatchObject({
      state: 'creating',
      problem: english(TRACKER_PROBLEMS.unreachable),
    });
    github.failWith = null;
    // The queue retries it after its backoff.
    await ctx.deps.db.execute(
      sql`update jobs set run_at = now() where kind = 'tracker-create' and status = 'pending'`,
    );
    await jobs();
    expect((await item(action.id)).tracker).toMatchObject({ state: 'open', problem: null });
    expect(github.issues.get('acme/web')!.map((i) => i.title)).toContain('Demo every sprint');
  });

  it('creates an issue refused for want of permission once the token may: by the next poll', async () => {
    const action = await newItem({ description: 'Retro every month' });
    github.failWith = 403;
    await ctx.call(admin.jar, 'POST', `/api/action-items/${action.id}/tracker-issue`, {
      repository: 'acme/web',
    });
    await jobs();
    expect((await item(action.id)).tracker).toMatchObject({
      state: 'creating',
      problem: english(TRACKER_PROBLEMS.permission),
    });
    // A refusal is not retried by the queue (it waits for a person), so nothing is created meanwhile.
    await ctx.deps.db.execute(
      sql`update jobs set run_at = now() where kind = 'tracker-create' and status = 'pending'`,
    );
    await jobs();
    expect(github.issues.get('acme/web')!.map((i) => i.title)).not.toContain('Retro every month');
    github.failWith = null;
    await poll();
    await poll();
    expect((await item(action.id)).tracker).toMatchObject({ state: 'open', problem: null });
    expect(github.issues.get('acme/web')!.filter((i) => i.title === 'Retro every month')).toHaveLength(1);
  });
});
