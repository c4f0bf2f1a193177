import { createHmac, randomUUID } from 'node:crypto';
import { buildSchema } from 'graphql';
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
import { useTestContext } from '../../test/harness';
import { english } from '../../test/requests';
import { checkWithAnonymousComment, trackerCalls } from '../../test/trackers';
import { catalogueComponentIds, launch, type CheckFixture } from '../../test/health-checks';
import { differencesFromLinear, startFakeLinear, type FakeLinear } from '../../test/linear-server';
import { refusalOf } from '../../lib/outbound';
import { linear as linearModule } from '../../trackers/linear';
import { TrackerFailure } from '../../trackers/tracker';

/**
 * Action items synced with Linear (issue 36, decision 0023), end to end against a stand-in Linear on a loopback port
 * (test/linear-server.ts) that validates every GraphQL document Pulsecheck sends against a part of Linear's schema,
 * itself checked against the schema @linear/sdk ships: connect, create, link, webhooks in (Linear-Signature, replay,
 * stale timestamp, order), the poll, the closed loop, edits out (title and due date), failures.
 */
const ctx = useTestContext({ allowLoopbackWebhooks: true });
let linear: FakeLinear;
let admin: Admin;
let check: CheckFixture;
const KEY = 'lin_api_goodkey0123456789';
const ADA = 'user-ada';

beforeAll(async () => {
  linear = await startFakeLinear();
  admin = await createAdmin(ctx);
  linear.users.push(
    { id: ADA, name: 'Ada Lovelace', email: admin.email, active: true, teams: ['ENG', 'OPS'] },
    { id: 'user-bo', name: 'Bo Chen', email: 'bo@example.com', active: true, teams: ['ENG'] },
    { id: 'user-cy', name: 'Cy Diaz', email: 'cy@example.com', active: true, teams: ['ENG'] },
  );
  linear.apiKeys.set(KEY, ADA);
  linear.teams.set('ENG', 'Engineering').set('OPS', 'Operations').set('SEC', 'Security');
  linear.add({
    team: 'ENG',
    title: 'Existing work',
    description: '',
    stateType: 'started',
    assigneeId: 'user-bo',
    dueDate: null,
  });
  linear.add({
    team: 'ENG',
    title: 'Already done',
    description: '',
    stateType: 'completed',
    assigneeId: null,
    dueDate: null,
  });
  linear.add({
    team: 'ENG',
    title: 'Spare',
    description: '',
    stateType: 'unstarted',
    assigneeId: null,
    dueDate: null,
  });
  check = await checkWithAnonymousComment(ctx, admin);
});
afterAll(async () => {
  // Every document Pulsecheck sent is valid against Linear's schema, with variables of the right types.
  expect(linear.violations).toEqual([]);
  await linear.close();
});

const { connectionPath, connection, newItem, item, jobs, poll } = trackerCalls(ctx, () => ({ admin, check }));

const connect = (jar: Admin['jar'], token = KEY, baseUrl = linear.origin) =>
  ctx.call(jar, 'PUT', connectionPath(), { kind: 'linear', baseUrl, token });

const link = (id: string, url: string) =>
  ctx.call(admin.jar, 'POST', `/api/action-items/${id}/tracker-link`, { url });

const SIGNING_SECRET = 'lin_wh_signing_secret_from_linear_0123456789';
/**
 * A webhook exactly as Linear's webhook documentation describes it: an `Issue` entity payload (action, type, data,
 * url, createdAt, organizationId, webhookId, webhookTimestamp in ms), `Linear-Signature` = hex HMAC-SHA256 of the raw
 * body with the signing secret, `Linear-Delivery` and `Linear-Event` headers. Signed here with node:crypto, not with
 * the product's code.
 */
async function sendWebhook(
  identifier: string,
  options: {
    action?: string;
    secret?: string;
    delivery?: string;
    data?: Record<string, unknown>;
    timestamp?: number;
  } = {},
) {
  const data = options.data ?? linear.webhookData(identifier);
  const body = JSON.stringify({
    action: options.action ?? 'update',
    actor: { id: 'user-bo', name: 'Bo Chen', type: 'user' },
    createdAt: new Date().toISOString(),
    data,
    type: 'Issue',
    url: data.url,
    organizationId: linear.organization.id,
    webhookId: 'webhook-1',
    webhookTimestamp: options.timestamp ?? Date.now(),
  });
  const signature = createHmac('sha256', options.secret ?? SIGNING_SECRET)
    .update(body)
    .digest('hex');
  return ctx.request('POST', `/api/tracker-connections/${(await connection()).id}/webhook`, {
    body: JSON.parse(body) as unknown,
    headers: {
      'Linear-Event': 'Issue',
      'Linear-Delivery': options.delivery ?? randomUUID(),
      'Linear-Signature': signature,
    },
  });
}

describe("the stand-in Linear checks documents against Linear's schema", () => {
  it('is a part of the schema @linear/sdk ships, and would notice one that is not', () => {
    const mutant = buildSchema(`
      type Query { viewer: User! issue(id: Int): Issue! bogus: String }
      type User { id: ID! nickname: String }
      type Issue { id: ID! }
      input IssueCreateInput { title: String }`);
    expect(differencesFromLinear(mutant)).toEqual([
      'QueryIssueArgs.id: Linear has Scalars["String"], here InputMaybe<Scalars["Int"]>',
      "Query.bogus: not in Linear's schema",
      "User.nickname: not in Linear's schema",
      'IssueCreateInput.teamId: required by Linear, missing here',
    ]);
  });

  it('refuses a field Linear does not have, a variable of the wrong type and a missing required input', async () => {
    const before = linear.violations.length;
    const post = (query: string, variables: Record<string, unknown> = {}) =>
      fetch(`${linear.origin}/graphql`, {
        method: 'POST',
        headers: { Authorization: KEY, 'Content-Type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
    expect((await post('query { viewer { login } }')).status).toBe(400);
    expect(
      (
        await post(
          'mutation($input: IssueUpdateInput!) { issueUpdate(id: "ENG-1", input: $input) { success } }',
          {
            input: { dueDate: '15 January 2027' },
          },
        )
      ).status,
    ).toBe(400);
    expect((await post('mutation { issueCreate(input: { title: "x" }) { success } }')).status).toBe(400);
    const valid = await post('query { viewer { name } }');
    expect(valid.status).toBe(200);
    expect(linear.violations.length).toBe(before + 3);
    linear.violations.splice(before);
  });
});

describe('the Linear module', () => {
  it('reads an identifier or a linear.app issue URL, and only Linear as its address', () => {
    const web = 'https://linear.app';
    expect(linearModule.parseIssueUrl('https://api.linear.app/graphql', 'ENG-12')).toEqual({
      repository: 'ENG',
      number: 12,
    });
    expect(
      linearModule.parseIssueUrl(
        'https://api.linear.app/graphql',
        `${web}/acme/issue/ENG-12/make-standups-shorter`,
      ),
    ).toEqual({
      repository: 'ENG',
      number: 12,
      workspace: 'acme',
    });
    expect(
      linearModule.parseIssueUrl('https://api.linear.app/graphql', 'https://evil.example/acme/issue/ENG-12'),
    ).toBeNull();
    expect(linearModule.parseIssueUrl('https://api.linear.app/graphql', `${web}/acme/project/x`)).toBeNull();
    expect(linearModule.apiUrl('')).toBe('https://api.linear.app/graphql');
    expect(linearModule.apiUrl('https://linear.app')).toBe('https://api.linear.app/graphql');
    expect(linearModule.apiUrl('https://linear.example.com')).toBeNull();
    expect(linearModule.apiUrl('http://127.0.0.1:4000')).toBe('http://127.0.0.1:4000/graphql');
  });

  it('makes every request through the outbound guard: the loopback is refused unless allowed', async () => {
    const before = linear.requests.length;
    const guarded = linearModule.client({
      apiUrl: `${linear.origin}/graphql`,
      token: KEY,
      policy: { dnsServers: [], allowLoopback: false },
    });
    const error: unknown = await guarded.whoAmI().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TrackerFailure);
    expect(refusalOf(error)).not.toBeNull();
    expect(linear.requests.length).toBe(before);
  });
});

describe('connecting Linear (item 1)', () => {
  it('tests the API key on save, keeps it sealed, and shows who it acts as; no signing secret until pasted', async () => {
    const bad = await connect(admin.jar, 'lin_api_wrong');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      error: { fields: { token: english(TRACKER_WORDS.linear.refusedToken) } },
    });
    expect((await (await ctx.call(admin.jar, 'GET', connectionPath())).json()) as unknown).toEqual({
      connection: null,
    });
    // Linear is a cloud service: no other address than a stand-in on the loopback (tests).
    const elsewhere = await connect(admin.jar, KEY, 'https://linear.example.com');
    expect(elsewhere.status).toBe(400);
    expect(await elsewhere.json()).toMatchObject({
      error: { fields: { baseUrl: english(TRACKER_WORDS.linear.baseUrlInvalid) } },
    });

    const good = await connect(admin.jar);
    expect(good.status).toBe(200);
    const answer = (await good.json()) as {
      message: string;
      webhookSecret: string | null;
      connection: TrackerConnection;
    };
    const host = new URL(linear.origin).host;
    expect(answer.message).toBe(`Connected as Ada Lovelace (Acme) to ${host}`);
    // Linear makes the signing secret itself: Pulsecheck makes none, and webhooks are refused until it is saved.
    expect(answer.webhookSecret).toBeNull();
    expect(answer.connection).toMatchObject({ kind: 'linear', label: 'Linear', webhookSecretSaved: false });
    expect((await sendWebhook('ENG-3')).status).toBe(401);
    expect((await sendWebhook('ENG-3', { secret: '' })).status).toBe(401);

    const saved = await ctx.call(admin.jar, 'PATCH', connectionPath(), { webhookSecret: SIGNING_SECRET });
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as { connection: TrackerConnection }).connection.webhookSecretSaved).toBe(
      true,
    );
    expect((await connection()).closeMarksDone).toBe(true);

    const again = JSON.stringify(await connection());
    expect(again).not.toContain(KEY);
    expect(again).not.toContain(SIGNING_SECRET);
    const [row] = await queryRows<{ token: string; webhook_secret: string }>(
      ctx.deps.db,
      sql`select token, webhook_secret from tracker_connections where workspace_id = ${admin.workspaceId}`,
    );
    expect(row!.token).toMatch(/^v1\./);
    expect(row!.token).not.toContain(KEY);
    expect(row!.webhook_secret).not.toContain(SIGNING_SECRET);
    // The key went as Linear documents for personal API keys: the Authorization header is the key itself.
    expect(linear.requests.some((r) => r.query.includes('viewer'))).toBe(true);
  });

  it('is for admins and the owner only; a new key keeps the signing secret', async () => {
    const member = await addMember(ctx, { jar: admin.jar, workspaceId: admin.workspaceId });
    expect((await ctx.call(member.jar, 'GET', connectionPath())).status).toBe(404);
    expect((await connect(member.jar)).status).toBe(404);
    expect((await ctx.call(member.jar, 'PATCH', connectionPath(), { webhookSecret: 'mine' })).status).toBe(
      404,
    );
    const outsider = await createAdmin(ctx);
    expect((await ctx.call(outsider.jar, 'GET', connectionPath())).status).toBe(404);
    const again = await connect(admin.jar);
    expect(again.status).toBe(200);
    expect((await connection()).webhookSecretSaved).toBe(true);
  });
});

describe('from an action item (item 2)', () => {
  it('lists the teams and creates an issue by a job with the due date, never ratings or comments', async () => {
    const tracker = await ctx.call(admin.jar, 'GET', `/api/health-checks/${check.healthCheckId}/tracker`);
    expect(await tracker.json()).toEqual({ tracker: { kind: 'linear', label: 'Linear' } });
    const action = await newItem({ dueDate: '2027-01-15' });
    const listed = await ctx.call(admin.jar, 'GET', `/api/action-items/${action.id}/tracker-repositories`);
    // The viewer's teams (not SEC, which Ada is not in).
    expect(await listed.json()).toMatchObject({
      label: 'Linear',
      repositories: [
        { id: 'ENG', name: 'Engineering (ENG)' },
        { id: 'OPS', name: 'Operations (OPS)' },
      ],
    });
    const created = await ctx.call(admin.jar, 'POST', `/api/action-items/${action.id}/tracker-issue`, {
      repository: 'OPS',
      assignOwner: true,
    });
    expect(created.status).toBe(202);
    expect(((await created.json()) as ActionItem).tracker).toMatchObject({ state: 'creating', key: null });
    expect(linear.issues.filter((i) => i.team === 'OPS')).toHaveLength(0);

    await jobs();
    const [issue] = linear.issues.filter((i) => i.team === 'OPS');
    expect(issue!.title).toBe('Make standups shorter');
    expect(issue!.dueDate).toBe('2027-01-15');
    expect(issue!.description).toContain(check.components[0]!.title);
    expect(issue!.description).toContain(`http://localhost:3000/health-check/${check.healthCheckId}/results`);
    expect(issue!.description).not.toContain('secret anonymous');
    expect(issue!.description).not.toMatch(/fire|healthy|rating/i);
    // The owner's e-mail found their Linear user.
    expect(issue!.assigneeId).toBe(ADA);
    expect((await item(action.id)).tracker).toMatchObject({
      key: 'OPS-1',
      url: linear.issueUrl('OPS-1'),
      state: 'open',
      assignee: 'Ada Lovelace',
      problem: null,
    });
    await jobs();
    expect(linear.issues.filter((i) => i.team === 'OPS')).toHaveLength(1);
    const twice = await ctx.call(admin.jar, 'POST', `/api/action-items/${action.id}/tracker-issue`, {
      repository: 'OPS',
    });
    expect(twice.status).toBe(409);
  });

  it("creates an issue unassigned when no active member of the Linear workspace has the owner's e-mail", async () => {
    const other = await newItem({ description: 'Nobody in Linear' });
    linear.users[0]!.active = false;
    await ctx.call(admin.jar, 'POST', `/api/action-items/${other.id}/tracker-issue`, { repository: 'OPS' });
    await jobs();
    linear.users[0]!.active = true;
    const issue = linear.issues.find((i) => i.title === 'Nobody in Linear');
    expect(issue?.assigneeId).toBeNull();
    expect(issue?.dueDate).toBeNull();
  });

  it('links an existing issue by its URL or identifier, and refuses what is not one', async () => {
    const action = await newItem({ description: 'Pair on the API' });
    const linked = await link(action.id, linear.issueUrl('ENG-1'));
    expect(linked.status).toBe(200);
    expect(((await linked.json()) as ActionItem).tracker).toMatchObject({
      key: 'ENG-1',
      title: 'Existing work',
      state: 'open',
      assignee: 'Bo Chen',
    });
    const other = await newItem({ description: 'Another' });
    expect((await link(other.id, 'ENG-1')).status).toBe(409);
    const wrongHost = await link(other.id, 'https://github.com/acme/api/issues/1');
    expect(wrongHost.status).toBe(400);
    // Another Linear workspace's URL: its ENG-3 is not this workspace's ENG-3.
    const otherWorkspace = await link(other.id, `${linear.origin}/someone-else/issue/ENG-3/spare`);
    expect(otherWorkspace.status).toBe(409);
    expect(await otherWorkspace.json()).toMatchObject({
      error: { message: english(TRACKER_MESSAGES.issueNotFound) },
    });
    const missing = await link(other.id, 'ENG-99');
    expect(missing.status).toBe(409);
    expect(await missing.json()).toMatchObject({
      error: { message: english(TRACKER_MESSAGES.issueNotFound) },
    });
    // A completed issue linked by its identifier: the action is done at once.
    expect(((await (await link(other.id, 'eng-2')).json()) as ActionItem).status).toBe('completed');
    const outsider = await createAdmin(ctx);
    expect(
      (await ctx.call(outsider.jar, 'POST', `/api/action-items/${action.id}/tracker-link`, { url: 'ENG-3' }))
        .status,
    ).toBe(404);
  });
});

describe('both ways (item 3)', () => {
  let actionId = '';
  beforeAll(async () => {
    actionId = (await newItem({ description: 'Write down decisions' })).id;
    expect((await link(actionId, 'ENG-3')).status).toBe(200);
  });

  it('takes webhooks signed as Linear documents, once each, fresh, in the order Linear changed them', async () => {
    expect((await sendWebhook('ENG-3', { secret: 'not-the-secret' })).status).toBe(401);
    const older = linear.webhookData('ENG-3');
    linear.change('ENG-3', { title: 'Decisions log', assigneeId: 'user-cy' });
    const delivery = randomUUID();
    expect((await sendWebhook('ENG-3', { delivery })).status).toBe(200);
    expect((await item(actionId)).tracker).toMatchObject({ title: 'Decisions log', assignee: 'Cy Diaz' });
    // Out of order: an older event arriving later changes nothing.
    expect((await sendWebhook('ENG-3', { data: { ...older, title: 'Stale title' } })).status).toBe(200);
    expect((await item(actionId)).tracker?.title).toBe('Decisions log');
    // Replayed: the same delivery is applied once (even with a changed body and a valid signature).
    linear.change('ENG-3', { title: 'Replayed title' });
    expect((await sendWebhook('ENG-3', { delivery })).status).toBe(200);
    expect((await item(actionId)).tracker?.title).toBe('Decisions log');
    // Stale: a delivery signed more than a minute ago is refused, whatever its delivery id (a captured one replayed).
    const stale = await sendWebhook('ENG-3', { timestamp: Date.now() - 2 * 60_000 });
    expect(stale.status).toBe(401);
    expect((await item(actionId)).tracker?.title).toBe('Decisions log');
    // A signature over another body is refused.
    const tampered = await ctx.request(
      'POST',
      `/api/tracker-connections/${(await connection()).id}/webhook`,
      {
        body: {
          type: 'Issue',
          action: 'update',
          data: linear.webhookData('ENG-3'),
          webhookTimestamp: Date.now(),
        },
        headers: { 'Linear-Delivery': randomUUID(), 'Linear-Signature': 'ab'.repeat(32) },
      },
    );
    expect(tampered.status).toBe(401);
    expect((await item(actionId)).description).toBe('Write down decisions');
  });

  it('applies one delivery once when it arrives twice at the same moment', async () => {
    linear.change('ENG-3', { assigneeId: 'user-bo' });
    const delivery = randomUUID();
    const answers = await Promise.all([
      sendWebhook('ENG-3', { delivery }),
      sendWebhook('ENG-3', { delivery }),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200]);
    const [recorded] = await queryRows<{ count: number }>(
      ctx.deps.db,
      sql`select count(*)::int as count from jobs where unique_key like ${`tracker-delivery:%:${delivery}`}`,
    );
    expect(recorded!.count).toBe(1);
    expect((await item(actionId)).tracker?.assignee).toBe('Bo Chen');
  });

  it('completed in Linear marks the action done, and the next check asks whether it helped; reopened reopens it', async () => {
    linear.change('ENG-3', { stateType: 'completed' });
    expect((await sendWebhook('ENG-3')).status).toBe(200);
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

    linear.change('ENG-3', { stateType: 'started' });
    await sendWebhook('ENG-3');
    expect((await item(actionId)).status).toBe('pending');
    // Canceled counts as closed too.
    linear.change('ENG-3', { stateType: 'canceled' });
    await sendWebhook('ENG-3');
    expect((await item(actionId)).status).toBe('completed');
    linear.change('ENG-3', { stateType: 'unstarted' });
    await sendWebhook('ENG-3');
    expect((await item(actionId)).status).toBe('pending');
  });

  it('ignores events of other entities and removed issues', async () => {
    const before = await item(actionId);
    const comment = await (async () => {
      const body = JSON.stringify({
        action: 'create',
        type: 'Comment',
        data: { id: 'c1', body: 'Hi', issueId: linear.find('ENG-3').id },
        webhookTimestamp: Date.now(),
      });
      return ctx.request('POST', `/api/tracker-connections/${(await connection()).id}/webhook`, {
        body: JSON.parse(body) as unknown,
        headers: {
          'Linear-Delivery': randomUUID(),
          'Linear-Signature': createHmac('sha256', SIGNING_SECRET).update(body).digest('hex'),
        },
      });
    })();
    expect(comment.status).toBe(200);
    expect((await item(actionId)).tracker).toEqual(before.tracker);
  });

  it('polls every 15 minutes as a fallback: a change no webhook told of arrives', async () => {
    linear.change('ENG-3', { stateType: 'completed', assigneeId: 'user-cy' });
    await poll();
    const polled = await item(actionId);
    expect(polled.status).toBe('completed');
    expect(polled.tracker).toMatchObject({ state: 'closed', assignee: 'Cy Diaz' });
    const [scheduled] = await queryRows<{ count: number }>(
      ctx.deps.db,
      sql`select count(*)::int as count from jobs where kind = 'tracker-poll' and status = 'pending'
            and run_at > now() + interval '14 minutes'`,
    );
    expect(scheduled!.count).toBeGreaterThanOrEqual(1);
    // One query per linked team, filtered by team and by updatedAt after the last poll (less the overlap).
    const polls = linear.requests.filter((r) => r.operationName === 'PulsecheckChanged');
    expect(polls.length).toBeGreaterThanOrEqual(1);
    expect(polls.map((r) => (r.variables.filter as { team: unknown }).team)).toContainEqual({
      key: { eq: 'ENG' },
    });
    await poll();
    const last = linear.requests.filter((r) => r.operationName === 'PulsecheckChanged').at(-1)!;
    expect(last.variables.filter).toMatchObject({ updatedAt: { gt: expect.any(String) as unknown } });
  });

  it('writes edits of the title or due date to the issue by a job, once, with no echo', async () => {
    const updates = () => linear.requests.filter((r) => r.operationName === 'PulsecheckUpdate').length;
    const before = updates();
    const edited = await ctx.call(admin.jar, 'PATCH', `/api/action-items/${actionId}`, {
      description: 'Write down every decision',
      dueDate: '2027-02-01',
    });
    expect(edited.status).toBe(200);
    expect(updates()).toBe(before);
    await jobs();
    const issue = linear.find('ENG-3');
    expect(issue.title).toBe('Write down every decision');
    expect(issue.dueDate).toBe('2027-02-01');
    expect(updates()).toBe(before + 1);
    // Linear's webhook of that very edit comes back: applied, and nothing is sent again.
    await sendWebhook('ENG-3');
    await jobs();
    await poll();
    expect(updates()).toBe(before + 1);
    // The due date removed in Pulsecheck is removed in Linear.
    await ctx.call(admin.jar, 'PATCH', `/api/action-items/${actionId}`, { dueDate: null });
    await jobs();
    expect(linear.find('ENG-3').dueDate).toBeNull();
    expect(updates()).toBe(before + 2);
    await ctx.call(admin.jar, 'PATCH', `/api/action-items/${actionId}`, { status: 'in-progress' });
    await jobs();
    expect(updates()).toBe(before + 2);
  });
});

describe('failures are visible, nothing is lost (item 5)', () => {
  it('shows a refused key on the action item and the Integrations screen, and catches up once it works', async () => {
    const action = await newItem({ description: 'Rotate the on-call' });
    const spare = linear.add({
      team: 'ENG',
      title: 'On-call',
      description: '',
      stateType: 'unstarted',
      assigneeId: null,
      dueDate: null,
    });
    expect((await link(action.id, `ENG-${spare.number}`)).status).toBe(200);

    linear.failWith = 401;
    await ctx.call(admin.jar, 'PATCH', `/api/action-items/${action.id}`, {
      description: 'Rotate on-call weekly',
    });
    await jobs();
    expect((await item(action.id)).tracker?.problem).toBe(english(TRACKER_PROBLEMS.credentials));
    expect((await connection()).problem).toBe(english(TRACKER_PROBLEMS.credentials));
    expect((await item(action.id)).description).toBe('Rotate on-call weekly');

    linear.failWith = null;
    await poll();
    expect(linear.find(`ENG-${spare.number}`).title).toBe('Rotate on-call weekly');
    expect((await item(action.id)).tracker?.problem).toBeNull();
    expect((await connection()).problem).toBeNull();
  });

  it('keeps an issue that could not be created, and creates it when Linear answers again', async () => {
    const action = await newItem({ description: 'Demo every sprint' });
    linear.failWith = 503;
    await ctx.call(admin.jar, 'POST', `/api/action-items/${action.id}/tracker-issue`, { repository: 'ENG' });
    await jobs();
    expect((await item(action.id)).tracker).toMatchObject({
      state: 'creating',
      problem: english(TRACKER_PROBLEMS.unreachable),
    });
    linear.failWith = null;
    await ctx.deps.db.execute(
      sql`update jobs set run_at = now() where kind = 'tracker-create' and status = 'pending'`,
    );
    await jobs();
    expect((await item(action.id)).tracker).toMatchObject({ state: 'open', problem: null });
    expect(linear.issues.filter((i) => i.title === 'Demo every sprint')).toHaveLength(1);
  });

  it('shows a team the key may not write to as a permission problem, and creates nothing', async () => {
    const action = await newItem({ description: 'Security review' });
    // SEC exists in the workspace, but Ada (whose key it is) is not a member: Linear refuses.
    await ctx.call(admin.jar, 'POST', `/api/action-items/${action.id}/tracker-issue`, { repository: 'SEC' });
    await jobs();
    expect((await item(action.id)).tracker).toMatchObject({
      state: 'creating',
      problem: english(TRACKER_PROBLEMS.permission),
    });
    expect(linear.issues.filter((i) => i.team === 'SEC')).toHaveLength(0);
  });
});
