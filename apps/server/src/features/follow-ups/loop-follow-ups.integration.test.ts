import { FOLLOW_UP_MESSAGES } from '@pulsecheck/shared/action-items/follow-up';
import type { ActionItem } from '@pulsecheck/shared/results/schemas';
import type { LoopDetail, LoopInsights, LoopResults, RoundToAnswer } from '@pulsecheck/shared/loops/contract';
import type { Participation } from '@pulsecheck/shared/participation/contract';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { useAdmin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { catalogueComponentIds, createCheck, launch, type CheckFixture } from '../../test/health-checks';
import { addPeople, answerToken, editable, launchLoop, type Person } from '../../test/loops';
import { english, json } from '../../test/requests';

/** 'Follow-up on actions' (issue 33 items 3 and 5, decision 0019): loop rounds ask about done actions too. */

const ctx = useTestContext();
const admin = useAdmin(ctx, { companyName: 'Loop Follow-ups Co' });

let origin: CheckFixture;
beforeAll(async () => {
  origin = await createCheck(ctx, admin, { phase: 'summarize', title: 'Origin check' });
});

const createItem = async (body: Record<string, unknown>) => {
  const response = await ctx.call(
    admin.jar,
    'POST',
    `/api/health-checks/${origin.healthCheckId}/action-items`,
    { ownerId: admin.userId, ...body },
  );
  expect(response.status).toBe(201);
  return (await response.json()) as ActionItem;
};
const markDone = async (id: string) => {
  const response = await ctx.call(admin.jar, 'PATCH', `/api/action-items/${id}`, { status: 'completed' });
  expect(response.status).toBe(200);
};
const loopDetail = async (loopId: string) =>
  (await json<{ loop: LoopDetail }>(await ctx.call(admin.jar, 'GET', `/api/loops/${loopId}`))).loop;
const nextRound = async (loopId: string) => {
  const response = await ctx.call(admin.jar, 'POST', `/api/loops/${loopId}/rounds`);
  expect(response.status).toBe(201);
  return (await json<{ round: { id: string } }>(response)).round.id;
};
const closeRound = async (loopId: string, roundId: string) => {
  const response = await ctx.call(admin.jar, 'POST', `/api/loops/${loopId}/rounds/${roundId}/close`);
  expect(response.status).toBe(200);
};
const page = async (person: Person) =>
  json<RoundToAnswer>(await ctx.request('GET', `/api/loop-answer/${await answerToken(ctx, person.email)}`));
/** Answers the round by the personal link: every scale and eNPS question, and the given follow-ups. */
const answer = async (person: Person, followUps?: Record<string, string>) => {
  const token = await answerToken(ctx, person.email);
  const read = await json<RoundToAnswer>(await ctx.request('GET', `/api/loop-answer/${token}`));
  const answers: Record<string, number> = {};
  for (const question of read.questions) {
    if (question.kind === 'scale') answers[question.id] = 4;
    if (question.kind === 'enps') answers[question.id] = 8;
  }
  return ctx.request('POST', `/api/loop-answer/${token}`, {
    body: followUps ? { answers, followUps } : { answers },
  });
};
const results = async (loopId: string, roundId: string) =>
  json<LoopResults>(await ctx.call(admin.jar, 'GET', `/api/loops/${loopId}/results?roundId=${roundId}`));

/** A loop of `count` new members of the admin's workspace, opened now (its first round asks nothing: see below). */
async function loopOf(count: number, overrides: Record<string, unknown> = {}) {
  const people = await addPeople(ctx, admin.workspaceId, count);
  const loop = await launchLoop(ctx, admin.jar, admin.workspaceId, {
    audience: { kind: 'members', memberIds: people.map((p) => p.memberId) },
    followUpActions: true,
    ...overrides,
  });
  return { loop, people };
}

describe("the 'Follow-up on actions' switch", () => {
  it('is off by default, kept when launched on, and changed by an edit', async () => {
    const people = await addPeople(ctx, admin.workspaceId, 3);
    // Launched without the field, as every client before the switch.
    const off = await launchLoop(ctx, admin.jar, admin.workspaceId, {
      audience: { kind: 'members', memberIds: people.map((p) => p.memberId) },
    });
    expect((await loopDetail(off.id)).followUpActions).toBe(false);
    const { loop } = await loopOf(3);
    const detail = await loopDetail(loop.id);
    expect(detail.followUpActions).toBe(true);
    const edited = await ctx.call(admin.jar, 'PUT', `/api/loops/${loop.id}`, {
      ...editable(detail),
      followUpActions: false,
    });
    expect(edited.status).toBe(200);
    expect((await loopDetail(loop.id)).followUpActions).toBe(false);
  });
});

describe('which actions a round asks', () => {
  it("asks about the workspace's actions done since the previous round, with or without a component; not when off", async () => {
    const before = await createItem({ description: 'Done before the loop', status: 'completed' });
    const { loop, people } = await loopOf(3);
    const off = await loopOf(3, { followUpActions: false });
    // The first round opened with the loop: nothing was done since its creation.
    expect((await page(people[0]!)).followUps).toEqual([]);

    const withArea = await createItem({
      description: 'Pair on reviews',
      componentId: origin.componentIds[0],
    });
    const general = await createItem({ description: 'Shorter stand-ups' });
    await createItem({ description: 'Still open' });
    await markDone(withArea.id);
    await markDone(general.id);
    await nextRound(loop.id);
    const read = await page(people[0]!);
    expect(read.followUps.map((f) => f.question)).toEqual([
      `Did "Pair on reviews" help with ${origin.components[0]!.title}?`,
      'Did "Shorter stand-ups" help?',
    ]);
    expect(read.followUps.map((f) => f.question).join()).not.toContain(before.description);

    // A loop with the switch off asks nothing; the next round of the first loop asks nothing again (asked once).
    await nextRound(off.loop.id);
    expect((await page(off.people[0]!)).followUps).toEqual([]);
    await nextRound(loop.id);
    expect((await page(people[0]!)).followUps).toEqual([]);
  });

  it('asks each action once across checks and loops', async () => {
    const { loop, people } = await loopOf(3);
    const byRound = await createItem({
      description: 'Asked by a round',
      componentId: origin.componentIds[0],
    });
    await markDone(byRound.id);
    await nextRound(loop.id);
    expect((await page(people[0]!)).followUps.map((f) => f.question)).toHaveLength(1);
    // A check launched afterwards with the component does not ask it again.
    const check = await launch(ctx, admin.jar, admin.workspaceId, {
      enabledComponentIds: (await catalogueComponentIds(ctx)).slice(0, 5),
    });
    const read = await json<Participation>(
      await ctx.call(admin.jar, 'GET', `/api/health-checks/${check.id}/participation`),
    );
    expect(read.followUps.map((f) => f.actionTitle)).not.toContain('Asked by a round');

    // And the other way round: an action a check asked is not asked by the next round.
    const byCheck = await createItem({
      description: 'Asked by a check',
      componentId: origin.componentIds[1],
    });
    await markDone(byCheck.id);
    const asking = await launch(ctx, admin.jar, admin.workspaceId, {
      enabledComponentIds: (await catalogueComponentIds(ctx)).slice(0, 5),
    });
    const asked = await json<Participation>(
      await ctx.call(admin.jar, 'GET', `/api/health-checks/${asking.id}/participation`),
    );
    expect(asked.followUps.map((f) => f.actionTitle)).toContain('Asked by a check');
    await nextRound(loop.id);
    expect((await page(people[0]!)).followUps).toEqual([]);
  });
});

describe('answers, release and anonymity', () => {
  it('releases by the round’s rule and each question’s minimum; sealed with the anonymous responses', async () => {
    const { loop, people } = await loopOf(3, { anonymous: true, minResponses: 3 });
    const three = await createItem({ description: 'Answered by three' });
    const two = await createItem({ description: 'Answered by two' });
    await markDone(three.id);
    await markDone(two.id);
    const roundId = await nextRound(loop.id);
    const read = await page(people[0]!);
    const [first, second] = read.followUps;
    const valid = Object.fromEntries(
      read.questions.filter((q) => q.kind !== 'text').map((q) => [q.id, q.kind === 'enps' ? 8 : 4]),
    );

    // Only the round's own questions (not one of another round or a check), only the four answers.
    const token = await answerToken(ctx, people[0]!.email);
    const bad = await ctx.request('POST', `/api/loop-answer/${token}`, {
      body: { answers: valid, followUps: { [crypto.randomUUID()]: 'yes' } },
    });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.message).toBe(english(FOLLOW_UP_MESSAGES.unknownRoundQuestion));
    const wrong = await ctx.request('POST', `/api/loop-answer/${token}`, {
      body: { answers: {}, followUps: { [first!.id]: 'maybe' } },
    });
    expect(wrong.status).toBe(400);
    expect((await json(wrong)).error.message).toBe(english(FOLLOW_UP_MESSAGES.invalidAnswer));

    expect((await answer(people[0]!, { [first!.id]: 'yes', [second!.id]: 'no' })).status).toBe(201);
    expect((await answer(people[1]!, { [first!.id]: 'partly', [second!.id]: 'yes' })).status).toBe(201);
    // While the anonymous round is open: nothing, not even how many answered.
    const open = await results(loop.id, roundId);
    expect(open.round!.followUps).toHaveLength(2);
    for (const followUp of open.round!.followUps)
      expect(followUp).toMatchObject({ state: 'collecting', answers: 0, counts: null, percentages: null });

    expect((await answer(people[2]!, { [first!.id]: 'too-early' })).status).toBe(201);
    await closeRound(loop.id, roundId);
    const closed = await results(loop.id, roundId);
    const [shownThree, hiddenTwo] = closed.round!.followUps;
    expect(shownThree).toMatchObject({
      actionTitle: 'Answered by three',
      state: 'released',
      answers: 3,
      counts: { yes: 1, partly: 1, no: 0, 'too-early': 1 },
      percentages: { yes: 34, partly: 33, no: 0, 'too-early': 33 },
    });
    // Two answers under a minimum of three: no figure.
    expect(hiddenTwo).toMatchObject({
      state: 'below-threshold',
      answers: 2,
      counts: null,
      percentages: null,
    });

    // Stored once at close; sealed: every answer hangs off a response without a member, none left behind.
    const [row] = await queryRows<{ answers: number; sealed: number; stored: number }>(
      ctx.deps.db,
      sql`select count(*)::int as answers,
                 count(*) filter (where r.member_id is null and r.continuation_hash is null)::int as sealed,
                 (select count(*) from follow_up_questions where loop_round_id = ${roundId} and counts is not null)::int
                   as stored
          from loop_follow_up_answers f join loop_responses r on r.id = f.response_id
          where r.round_id = ${roundId}`,
    );
    expect(row).toEqual({ answers: 5, sealed: 5, stored: 2 });

    // Loop Insights: the released question alone counts ('Yes' or 'Partly': 2 of 3).
    const insights = await json<LoopInsights>(
      await ctx.call(admin.jar, 'GET', `/api/loops/${loop.id}/insights`),
    );
    expect(insights.actionsWorked).toEqual({ asked: 2, answered: 3, workedShare: 67 });

    // The CSV carries the released follow-up's counts, and only the message of the other.
    const csv = await (
      await ctx.call(admin.jar, 'GET', `/api/loops/${loop.id}/results/csv?roundId=${roundId}`)
    ).text();
    expect(csv).toContain('Did ""Answered by three"" help?');
    expect(csv).toMatch(/Answered by three"" help\?",follow-up,Yes,1,34/);
    expect(csv).not.toMatch(/Answered by two"" help\?",follow-up,Yes/);
  });

  it('takes follow-ups with the rest of the form after a one-click answer', async () => {
    const { loop, people } = await loopOf(3, { anonymous: false, minResponses: 1 });
    const item = await createItem({ description: 'Continued' });
    await markDone(item.id);
    const roundId = await nextRound(loop.id);
    const token = await answerToken(ctx, people[0]!.email);
    const [followUp] = (await page(people[0]!)).followUps;
    const quick = await ctx.request('POST', `/api/loop-answer/${token}/quick`, { body: { value: 4 } });
    expect(quick.status).toBe(201);
    const { continuation } = await json<{ continuation: string }>(quick);
    const continued = await ctx.request('POST', '/api/loop-responses/continue', {
      body: { continuation, answers: {}, followUps: { [followUp!.id]: 'partly' } },
    });
    expect(continued.status).toBe(200);
    const read = await results(loop.id, roundId);
    expect(read.round!.followUps[0]).toMatchObject({ state: 'released', counts: { partly: 1 } });
  });
});

describe('deletion of an action', () => {
  it('takes its round question and answers with it', async () => {
    const { loop, people } = await loopOf(3, { anonymous: false, minResponses: 1 });
    const item = await createItem({ description: 'To be deleted' });
    await markDone(item.id);
    const roundId = await nextRound(loop.id);
    const [followUp] = (await page(people[0]!)).followUps;
    expect((await answer(people[0]!, { [followUp!.id]: 'yes' })).status).toBe(201);
    // Action items are deleted with their check or workspace (no route deletes one alone).
    await ctx.deps.db.execute(sql`delete from action_items where id = ${item.id}`);
    expect((await results(loop.id, roundId)).round!.followUps).toEqual([]);
    const [row] = await queryRows<{ questions: number; answers: number }>(
      ctx.deps.db,
      sql`select (select count(*) from follow_up_questions where action_item_id = ${item.id})::int as questions,
                 (select count(*) from loop_follow_up_answers where question_id = ${followUp!.id})::int as answers`,
    );
    expect(row).toEqual({ questions: 0, answers: 0 });
  });
});
