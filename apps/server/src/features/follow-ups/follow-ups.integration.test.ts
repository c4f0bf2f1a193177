import type { FollowUpCandidate } from '@pulsecheck/shared/action-items/schemas';
import type { Participation } from '@pulsecheck/shared/participation/contract';
import type { ActionItem, ResultsResponse as Results } from '@pulsecheck/shared/results/schemas';
import { DEFAULT_SETTINGS } from '@pulsecheck/shared/health-checks/schemas';
import { RESULTS_MESSAGES } from '@pulsecheck/shared/results/messages';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { followUpAnswers } from '../../db/schema/health-checks';
import { createAdmin, joinedParticipant, useAdmin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import {
  addParticipants,
  allRated,
  catalogueComponentIds,
  createCheck,
  launch,
  rateAll,
  setPhase,
  type CheckFixture,
} from '../../test/health-checks';
import { english, type Jar } from '../../test/requests';

const ctx = useTestContext();
const admin = useAdmin(ctx);

const createItem = async (check: CheckFixture, body: Record<string, unknown>) => {
  const response = await ctx.call(
    admin.jar,
    'POST',
    `/api/health-checks/${check.healthCheckId}/action-items`,
    { ownerId: admin.userId, ...body },
  );
  expect(response.status).toBe(201);
  return (await response.json()) as ActionItem;
};
const patchItem = async (id: string, body: Record<string, unknown>) => {
  const response = await ctx.call(admin.jar, 'PATCH', `/api/action-items/${id}`, body);
  expect(response.status).toBe(200);
  return (await response.json()) as ActionItem;
};
const participation = async (jar: Jar, id: string) => {
  const response = await ctx.call(jar, 'GET', `/api/health-checks/${id}/participation`);
  expect(response.status).toBe(200);
  return (await response.json()) as Participation;
};

/** A first check of the admin's workspace in summarize with 3 ratings per component (keys c1…c5). */
let origin: CheckFixture;
beforeAll(async () => {
  origin = await createCheck(ctx, admin, { phase: 'summarize', title: 'First check' });
  await rateAll(ctx, origin, await addParticipants(ctx, origin, 3), (_, j) =>
    j === 0 ? 'needs-improvement' : 'healthy',
  );
});

describe('action items know what they are for (item 1)', () => {
  it('records when an item is marked done, and clears it when it is set back', async () => {
    const item = await createItem(origin, { description: 'Sketch the plan' });
    expect(item.completedAt).toBeNull();
    const done = await patchItem(item.id, { status: 'completed' });
    expect(done.completedAt).not.toBeNull();
    expect((await patchItem(item.id, { description: 'Sketch the plan again' })).completedAt).toBe(
      done.completedAt,
    );
    expect((await patchItem(item.id, { status: 'in-progress' })).completedAt).toBeNull();
  });

  it('lets an item created without a component pick one of its check’s components later, and no other', async () => {
    const item = await createItem(origin, { description: 'General thing' });
    expect(item.componentId).toBeNull();
    expect((await patchItem(item.id, { componentId: origin.componentIds[2] })).componentId).toBe(
      origin.componentIds[2],
    );
    const other = await createCheck(ctx, admin);
    const response = await ctx.call(admin.jar, 'PATCH', `/api/action-items/${item.id}`, {
      componentId: other.componentIds[0],
    });
    expect(response.status).toBe(400);
    expect((await patchItem(item.id, { componentId: null })).componentId).toBeNull();
  });
});

describe('the next check asks (item 2)', () => {
  it('asks once about each done action tied to one of its components, leaving out what the facilitator left out', async () => {
    const other = await createAdmin(ctx);
    const worst = await createItem(origin, {
      description: 'Write down decisions',
      componentId: origin.componentIds[0],
      status: 'completed',
    });
    const left = await createItem(origin, { description: 'Left out', componentId: origin.componentIds[1] });
    await patchItem(left.id, { status: 'completed' });
    const pending = await createItem(origin, {
      description: 'Not done',
      componentId: origin.componentIds[1],
    });
    const general = await createItem(origin, { description: 'No area', status: 'completed' });
    const elsewhere = await createItem(origin, {
      description: 'Outside the new check',
      componentId: origin.componentIds[4],
      status: 'completed',
    });

    // Configure lists the workspace's done items not asked yet; outsiders get 404.
    const listed = await ctx.call(admin.jar, 'GET', `/api/workspaces/${admin.workspaceId}/follow-up-actions`);
    expect(listed.status).toBe(200);
    const { actions } = (await listed.json()) as { actions: FollowUpCandidate[] };
    const ids = actions.map((a) => a.id);
    expect(ids).toEqual(expect.arrayContaining([worst.id, left.id, elsewhere.id]));
    expect(ids).not.toContain(pending.id);
    expect(ids).not.toContain(general.id);
    expect(actions.find((a) => a.id === worst.id)).toMatchObject({
      componentKey: origin.components[0]!.key,
      componentTitle: origin.components[0]!.title,
    });
    expect(actions.find((a) => a.id === worst.id)?.ownerName).toBeTruthy();
    expect(
      (await ctx.call(other.jar, 'GET', `/api/workspaces/${admin.workspaceId}/follow-up-actions`)).status,
    ).toBe(404);

    // The new check has the catalogue's first four components: c5's action is not asked.
    const launched = await launch(ctx, admin.jar, admin.workspaceId, {
      enabledComponentIds: (await catalogueComponentIds(ctx)).slice(0, 4),
      leaveOutActionItemIds: [left.id],
    });
    const person = await joinedParticipant(ctx, launched.id);
    const read = await participation(person.jar, launched.id);
    expect(read.followUps.map((f) => f.actionTitle)).toEqual(['Write down decisions']);
    const question = read.followUps[0]!;
    expect(question.question).toBe(`Did "Write down decisions" help with ${origin.components[0]!.title}?`);
    expect(read.components.find((c) => c.id === question.componentId)?.title).toBe(
      origin.components[0]!.title,
    );

    // Asked once: a later check does not ask about it again, but asks about the one left out before.
    const later = await launch(ctx, admin.jar, admin.workspaceId, {
      enabledComponentIds: (await catalogueComponentIds(ctx)).slice(0, 4),
    });
    const laterRead = await participation(admin.jar, later.id);
    expect(laterRead.followUps.map((f) => f.actionTitle)).toEqual(['Left out']);
  });
});

describe('answers', () => {
  let checkId: string;
  let questionId: string;
  beforeAll(async () => {
    const item = await createItem(origin, {
      description: 'Rotate the facilitator',
      componentId: origin.componentIds[3],
      status: 'completed',
    });
    const launched = await launch(ctx, admin.jar, admin.workspaceId, {
      enabledComponentIds: (await catalogueComponentIds(ctx)).slice(3, 4),
    });
    checkId = launched.id;
    const read = await participation(admin.jar, checkId);
    questionId = read.followUps.find((f) => f.actionTitle === item.description)!.id;
  });

  it('autosaves and submits an answer with its comment, tied to no one the API shows', async () => {
    const person = await joinedParticipant(ctx, checkId);
    const read = await participation(person.jar, checkId);
    const responses = {
      ...allRated(read.components.map((c) => c.id)),
      follow_ups: { [questionId]: 'partly' },
      follow_up_comments: { [questionId]: '  It helped a bit  ' },
    };
    let response = await ctx.call(person.jar, 'PUT', `/api/health-checks/${checkId}/responses`, responses);
    expect(response.status).toBe(200);
    const restored = await participation(person.jar, checkId);
    expect(restored.participant?.responses?.follow_ups).toEqual({ [questionId]: 'partly' });

    const unknown = crypto.randomUUID();
    response = await ctx.call(person.jar, 'PUT', `/api/health-checks/${checkId}/responses`, {
      ...responses,
      follow_ups: { [unknown]: 'yes' },
    });
    expect(response.status).toBe(400);
    response = await ctx.call(person.jar, 'POST', `/api/health-checks/${checkId}/submit`, {
      ...responses,
      follow_ups: { [questionId]: 'maybe' },
    });
    expect(response.status).toBe(400);

    response = await ctx.call(person.jar, 'POST', `/api/health-checks/${checkId}/submit`, responses);
    expect(response.status).toBe(200);
    const rows = await ctx.deps.db
      .select()
      .from(followUpAnswers)
      .where(eq(followUpAnswers.questionId, questionId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ answer: 'partly', comment: 'It helped a bit', anonymous: true });
  });

  it('stores no comment when the check has comments off', async () => {
    await ctx.deps.db.execute(
      sql`update health_checks set settings = settings || '{"enableComments": false}'::jsonb where id = ${checkId}`,
    );
    const person = await joinedParticipant(ctx, checkId);
    const read = await participation(person.jar, checkId);
    const response = await ctx.call(person.jar, 'POST', `/api/health-checks/${checkId}/submit`, {
      ...allRated(read.components.map((c) => c.id)),
      follow_ups: { [questionId]: 'yes' },
      follow_up_comments: { [questionId]: 'Typed anyway' },
    });
    expect(response.status).toBe(200);
    const rows = await queryRows<{ comment: string | null }>(
      ctx.deps.db,
      sql`select comment from follow_up_answers where question_id = ${questionId} and answer = 'yes'`,
    );
    expect(rows).toEqual([{ comment: null }]);
    await ctx.deps.db.execute(
      sql`update health_checks set settings = settings || '{"enableComments": true}'::jsonb where id = ${checkId}`,
    );
    await setPhase(ctx, checkId, 'collect');
  });
});

describe('results show the effect (item 4)', () => {
  const results = async (jar: Jar, id: string) => {
    const response = await ctx.call(jar, 'GET', `/api/health-checks/${id}/results`);
    expect(response.status).toBe(200);
    return (await response.json()) as Results;
  };

  it('shows answers only when released, before and after in words, anonymous, and forgets a deleted action', async () => {
    const team = await createAdmin(ctx);
    const first = await createCheck(ctx, team, { phase: 'summarize', keys: ['c1', 'c2'] });
    await rateAll(ctx, first, await addParticipants(ctx, first, 3), (_, j) =>
      j === 0 ? 'needs-improvement' : 'healthy',
    );
    const post = async (body: Record<string, unknown>) => {
      const response = await ctx.call(
        team.jar,
        'POST',
        `/api/health-checks/${first.healthCheckId}/action-items`,
        {
          ownerId: team.userId,
          status: 'completed',
          componentId: first.componentIds[0],
          ...body,
        },
      );
      return (await response.json()) as ActionItem;
    };
    const worked = await post({ description: 'Pair on reviews' });
    const few = await post({ description: 'Try a new board' });
    const ids = await catalogueComponentIds(ctx);
    const next = await launch(ctx, team.jar, team.workspaceId, { enabledComponentIds: ids.slice(0, 2) });
    const questions = (await participation(team.jar, next.id)).followUps;
    const q1 = questions.find((f) => f.actionTitle === 'Pair on reviews')!.id;
    const q2 = questions.find((f) => f.actionTitle === 'Try a new board')!.id;
    const answers = ['yes', 'yes', 'partly'] as const;
    const people = [];
    for (const [n, answer] of answers.entries()) {
      const person = await joinedParticipant(ctx, next.id, `Named Person ${n}`);
      people.push(person);
      const read = await participation(person.jar, next.id);
      const response = await ctx.call(person.jar, 'POST', `/api/health-checks/${next.id}/submit`, {
        votes: Object.fromEntries(read.components.map((c) => [c.id, 'healthy'])),
        comments: {},
        last_component_index: 0,
        follow_ups: n < 2 ? { [q1]: answer, [q2]: 'no' } : { [q1]: answer },
        follow_up_comments: n === 0 ? { [q1]: 'Reviews are faster now' } : {},
      });
      expect(response.status).toBe(200);
    }

    // While collecting nobody sees any figure, the admin included.
    let read = await results(team.jar, next.id);
    expect(read.release.state).toBe('collecting');
    expect(read.components).toBeNull();

    await setPhase(ctx, next.id, 'summarize');
    read = await results(team.jar, next.id);
    const component = read.components!.find((c) => c.followUps.length > 0)!;
    const effect = component.followUps.find((f) => f.actionTitle === 'Pair on reviews')!;
    expect(effect).toMatchObject({
      question: `Did "Pair on reviews" help with ${component.title}?`,
      answered: 3,
      counts: { yes: 2, partly: 1, no: 0, 'too-early': 0 },
      percentages: { yes: 67, partly: 33, no: 0, 'too-early': 0 },
      // An anonymous comment's author, in the request's language (English here).
      comments: [{ author: english(RESULTS_MESSAGES.anonymous), content: 'Reviews are faster now' }],
      before: 'Needs Improvement',
      now: 'Healthy',
      change: 'improved',
      changeWords: 'improved from Needs Improvement to Healthy',
    });
    expect(effect.ownerName).toBeTruthy();
    expect(effect.doneAt).toBe(worked.completedAt);
    // Two answers are fewer than the check's minimum of 3: how many answered, but no figures.
    expect(component.followUps.find((f) => f.actionTitle === 'Try a new board')).toMatchObject({
      answered: 2,
      counts: null,
      percentages: null,
      comments: [],
    });
    // Nothing in the answer links anyone: no participant or user ids, no names.
    const text = JSON.stringify(read);
    for (const person of people) {
      expect(text).not.toContain(person.participantId);
      expect(text).not.toContain(person.userId);
    }
    expect(text).not.toContain('Named Person');

    // The CSV carries the same.
    const csv = await (await ctx.call(team.jar, 'GET', `/api/health-checks/${next.id}/results/csv`)).text();
    expect(csv).toContain('Actions since last check');
    expect(csv).toContain('Yes 2 (67%)');
    expect(csv).toContain('improved from Needs Improvement to Healthy');

    // A deleted action takes its question and answers with it.
    await ctx.deps.db.execute(sql`delete from action_items where id = ${few.id}`);
    read = await results(team.jar, next.id);
    expect(read.components!.flatMap((c) => c.followUps).map((f) => f.actionTitle)).toEqual([
      'Pair on reviews',
    ]);
    const left = await queryRows<{ n: number }>(
      ctx.deps.db,
      sql`select count(*)::int as n from follow_up_answers where question_id = ${q2}`,
    );
    expect(left[0]!.n).toBe(0);

    // A deleted workspace takes every question and answer of its checks with it.
    await ctx.deps.db.execute(sql`delete from workspaces where id = ${team.workspaceId}`);
    const rest = await queryRows<{ n: number }>(
      ctx.deps.db,
      sql`select (select count(*) from follow_up_questions where health_check_id = ${next.id})::int
               + (select count(*) from follow_up_answers where health_check_id = ${next.id})::int as n`,
    );
    expect(rest[0]!.n).toBe(0);
  });

  it('counts the answers on the first read once collection has ended, and reads the stored counts from then on', async () => {
    const team = await createAdmin(ctx);
    const first = await createCheck(ctx, team, { phase: 'summarize', keys: ['c1'] });
    await rateAll(ctx, first, await addParticipants(ctx, first, 3), () => 'fire-warning');
    await ctx.call(team.jar, 'POST', `/api/health-checks/${first.healthCheckId}/action-items`, {
      ownerId: team.userId,
      status: 'completed',
      componentId: first.componentIds[0],
      description: 'Count me once',
    });
    const next = await launch(ctx, team.jar, team.workspaceId, {
      enabledComponentIds: (await catalogueComponentIds(ctx)).slice(0, 1),
    });
    const questionId = (await participation(team.jar, next.id)).followUps[0]!.id;
    const people = [];
    for (const n of [0, 1, 2]) {
      const person = await joinedParticipant(ctx, next.id, `Counted Person ${n}`);
      people.push(person);
      const read = await participation(person.jar, next.id);
      await ctx.call(person.jar, 'POST', `/api/health-checks/${next.id}/submit`, {
        votes: Object.fromEntries(read.components.map((c) => [c.id, 'healthy'])),
        comments: {},
        last_component_index: 0,
        follow_ups: { [questionId]: n === 0 ? 'no' : 'yes' },
        follow_up_comments: {},
      });
    }
    const stored = async () =>
      (
        await queryRows<{ counts: unknown }>(
          ctx.deps.db,
          sql`select counts from follow_up_questions where id = ${questionId}`,
        )
      )[0]!.counts;
    // While the check collects nothing is stored.
    await results(team.jar, next.id);
    expect(await stored()).toBeNull();

    await setPhase(ctx, next.id, 'summarize');
    let effect = (await results(team.jar, next.id)).components![0]!.followUps[0]!;
    expect(effect.counts).toEqual({ yes: 2, partly: 0, no: 1, 'too-early': 0 });
    expect(await stored()).toEqual({ yes: 2, partly: 0, no: 1, 'too-early': 0 });

    // An answer changed behind the server's back after collection (submit refuses it) changes nothing.
    await ctx.deps.db.execute(
      sql`update follow_up_answers set answer = 'too-early' where question_id = ${questionId}`,
    );
    effect = (await results(team.jar, next.id)).components![0]!.followUps[0]!;
    expect(effect.counts).toEqual({ yes: 2, partly: 0, no: 1, 'too-early': 0 });
  });

  it('shows names with comments only where the check is not anonymous', async () => {
    const team = await createAdmin(ctx);
    const first = await createCheck(ctx, team, { phase: 'summarize', keys: ['c1'] });
    await rateAll(ctx, first, await addParticipants(ctx, first, 3), () => 'fire-warning');
    await ctx.call(team.jar, 'POST', `/api/health-checks/${first.healthCheckId}/action-items`, {
      ownerId: team.userId,
      status: 'completed',
      componentId: first.componentIds[0],
      description: 'Fix the build',
    });
    const next = await launch(ctx, team.jar, team.workspaceId, {
      enabledComponentIds: (await catalogueComponentIds(ctx)).slice(0, 1),
      settings: {
        ...DEFAULT_SETTINGS,
        allowAnonymous: false,
      },
    });
    const questionId = (await participation(team.jar, next.id)).followUps[0]!.id;
    for (const n of [0, 1, 2]) {
      const person = await joinedParticipant(ctx, next.id, `Open Person ${n}`);
      const read = await participation(person.jar, next.id);
      await ctx.call(person.jar, 'POST', `/api/health-checks/${next.id}/submit`, {
        votes: Object.fromEntries(read.components.map((c) => [c.id, 'fire-warning'])),
        comments: {},
        last_component_index: 0,
        follow_ups: { [questionId]: 'no' },
        follow_up_comments: { [questionId]: `Still broken ${n}` },
      });
    }
    await setPhase(ctx, next.id, 'summarize');
    const read = await results(team.jar, next.id);
    const effect = read.components![0]!.followUps[0]!;
    expect(effect.changeWords).toBe('stayed Fire Warning');
    expect(effect.comments.map((c) => c.author).sort()).toEqual([
      'Open Person 0',
      'Open Person 1',
      'Open Person 2',
    ]);
  });
});
