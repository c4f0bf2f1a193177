import type { LoopInsightsResponse } from '@pulsecheck/shared/insights/schemas';
import type { LoopDetail } from '@pulsecheck/shared/loops/contract';
import type { LaunchLoopInput } from '@pulsecheck/shared/loops/schemas';
import { countsByValue, enpsGroups, enpsSummary, responseRate } from '@pulsecheck/shared/loops/stats';
import type { MembersResponse } from '@pulsecheck/shared/team/schemas';
import type { WorkspacesResponse } from '@pulsecheck/shared/workspaces/schemas';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { loopRounds } from '../../db/schema/loops';
import { createAdmin, signedInUser, type Admin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import {
  addPeople,
  answerByLink,
  answerToken,
  launchLoop,
  scaleQuestion,
  type Person,
} from '../../test/loops';
import { json, type Jar } from '../../test/requests';

/**
 * The Loops section of organisation insights (issue 16): each team's latest closed round's participation and eNPS,
 * the organisation's trend by month, who may read them, and the privacy floor, including the subtraction case.
 */
const ctx = useTestContext();

type Org = { owner: Admin; organizationId: string };

async function newOrganization(): Promise<Org> {
  const owner = await createAdmin(ctx);
  const list = await json<WorkspacesResponse>(await ctx.call(owner.jar, 'GET', '/api/workspaces'));
  return { owner, organizationId: list.workspaces[0]!.organizationId };
}

async function addWorkspace(org: Org, name: string) {
  const response = await ctx.call(org.owner.jar, 'POST', '/api/workspaces', { name });
  expect(response.status).toBe(201);
  return (await json<{ workspace: { id: string } }>(response)).workspace.id;
}

const path = (org: Org, query = '') => `/api/organizations/${org.organizationId}/insights/loops${query}`;
async function loopInsights(jar: Jar, org: Org, query = '') {
  const response = await ctx.call(jar, 'GET', path(org, query));
  expect(response.status).toBe(200);
  return json<LoopInsightsResponse>(response);
}

/** A team (workspace) whose loop goes to `size` people; the owner manages it. */
async function team(org: Org, name: string, size: number) {
  const workspaceId = await addWorkspace(org, name);
  return { workspaceId, people: await addPeople(ctx, workspaceId, size) };
}

async function launch(
  org: Org,
  on: { workspaceId: string; people: Person[] },
  overrides: Partial<LaunchLoopInput> = {},
) {
  return launchLoop(ctx, org.owner.jar, on.workspaceId, {
    audience: { kind: 'members', memberIds: on.people.map((p) => p.memberId) },
    ...overrides,
  });
}

/**
 * The loop's open round: the first `scores.length` people answer with those eNPS scores (all three questions), then
 * the owner closes it. With `next`, the round is opened first ('Start Next Round Now'). Answers the round's id.
 */
async function round(org: Org, loopId: string, people: Person[], scores: number[], next = false) {
  if (next) expect((await ctx.call(org.owner.jar, 'POST', `/api/loops/${loopId}/rounds`)).status).toBe(201);
  for (const [index, enps] of scores.entries())
    expect((await answerByLink(ctx, await answerToken(ctx, people[index]!.email), { enps })).status).toBe(
      201,
    );
  const { loop } = await json<{ loop: LoopDetail }>(
    await ctx.call(org.owner.jar, 'GET', `/api/loops/${loopId}`),
  );
  const roundId = loop.currentRound!.id;
  expect((await ctx.call(org.owner.jar, 'POST', `/api/loops/${loopId}/rounds/${roundId}/close`)).status).toBe(
    200,
  );
  return roundId;
}

/** Moves a closed round to `month` ('YYYY-MM', the 10th, UTC): the clock cannot move, the rows can. */
async function inMonth(roundId: string, month: string) {
  const at = new Date(`${month}-10T09:00:00Z`);
  await ctx.deps.db
    .update(loopRounds)
    .set({
      openedAt: at,
      closesAt: new Date(at.getTime() + 86_400_000),
      closedAt: new Date(at.getTime() + 86_400_000),
    })
    .where(eq(loopRounds.id, roundId));
}

/** The eNPS the shared stats functions make of these scores. */
const enpsOf = (scores: number[]) =>
  enpsSummary(
    enpsGroups(
      countsByValue(
        scores.map((value) => ({ value, count: 1 })),
        0,
        10,
      ),
    ),
  );

const thisMonth = () => new Date().toISOString().slice(0, 7);
const monthsAgo = (n: number) => {
  const at = new Date();
  at.setUTCDate(1);
  at.setUTCMonth(at.getUTCMonth() - n);
  return at.toISOString().slice(0, 7);
};

describe('who may see the loops of organisation insights', () => {
  it('answers the owner and the organisation admins, and 404 to workspace admins, members and outsiders', async () => {
    const org = await newOrganization();
    const teamB = await addWorkspace(org, 'Team B');
    const orgAdmin = await signedInUser(ctx, { workspaceId: org.owner.workspaceId, access: 'member' });
    const workspaceAdmin = await signedInUser(ctx, { workspaceId: teamB, access: 'admin' });
    const member = await signedInUser(ctx, { workspaceId: org.owner.workspaceId, access: 'member' });
    const outsider = await createAdmin(ctx);
    const members = await json<MembersResponse>(
      await ctx.call(org.owner.jar, 'GET', `/api/workspaces/${org.owner.workspaceId}/members`),
    );
    const memberId = members.members.find((m) => m.userId === orgAdmin.userId)!.id;
    const appointed = await ctx.call(
      org.owner.jar,
      'PUT',
      `/api/workspaces/${org.owner.workspaceId}/members/${memberId}/organization-admin`,
      { organizationAdmin: true },
    );
    expect(appointed.status).toBe(200);

    const status = async (jar: Jar) => (await ctx.call(jar, 'GET', path(org))).status;
    expect(await status(org.owner.jar)).toBe(200);
    expect(await status(orgAdmin.jar)).toBe(200);
    expect(await status(workspaceAdmin.jar)).toBe(404);
    expect(await status(member.jar)).toBe(404);
    expect(await status(outsider.jar)).toBe(404);
    expect((await json(await ctx.call(outsider.jar, 'GET', path(org)))).error.message).toBe(
      'Organisation not found',
    );
    expect((await ctx.request('GET', path(org))).status).toBe(401);
  }, 60_000);

  it('is empty, not an error, while no loop has a closed round', async () => {
    const org = await newOrganization();
    const open = await team(org, 'Open only', 3);
    await launch(org, open);
    const body = await loopInsights(org.owner.jar, org);
    expect(body).toMatchObject({ loops: [], leftOut: [], trend: [] });
    expect(body.pooled).toEqual({ loops: 0, teams: 0, leftOutLoops: 0, leftOutTeams: 0 });
  });
});

describe("each team's latest eNPS and participation", () => {
  let org: Org;
  let body: LoopInsightsResponse;
  const ids: Record<string, string> = {};
  const rounds: Record<string, string> = {};

  beforeAll(async () => {
    org = await newOrganization();
    // Alpha: five people, four answer (80%): two promoters, a passive, a detractor.
    const alpha = await team(org, 'Alpha', 5);
    ids.alpha = (await launch(org, alpha, { title: 'Alpha pulse' })).id;
    rounds.alpha = await round(org, ids.alpha, alpha.people, [10, 9, 7, 0]);
    // Bravo: everyone a promoter (+100); Charlie: everyone a detractor (−100).
    const bravo = await team(org, 'Bravo', 3);
    ids.bravo = (await launch(org, bravo, { title: 'Bravo pulse' })).id;
    rounds.bravo = await round(org, ids.bravo, bravo.people, [9, 10, 9]);
    const charlie = await team(org, 'Charlie', 3);
    ids.charlie = (await launch(org, charlie, { title: 'Charlie pulse' })).id;
    rounds.charlie = await round(org, ids.charlie, charlie.people, [0, 6, 3]);
    // Delta: a loop without an eNPS question.
    const delta = await team(org, 'Delta', 3);
    ids.delta = (
      await launch(org, delta, { title: 'Delta pulse', questions: [scaleQuestion('How focused were you?')] })
    ).id;
    const first = await json<{ loop: LoopDetail }>(
      await ctx.call(org.owner.jar, 'GET', `/api/loops/${ids.delta}`),
    );
    for (const person of delta.people) {
      const token = await answerToken(ctx, person.email);
      const answered = await ctx.request('POST', `/api/loop-answer/${token}/quick`, { body: { value: 4 } });
      expect(answered.status).toBe(201);
    }
    await ctx.call(
      org.owner.jar,
      'POST',
      `/api/loops/${ids.delta}/rounds/${first.loop.currentRound!.id}/close`,
    );
    // Echo: three people answer the first question only from the e-mail: the round shows, its eNPS does not.
    const echo = await team(org, 'Echo', 3);
    ids.echo = (await launch(org, echo, { title: 'Echo pulse' })).id;
    const echoDetail = await json<{ loop: LoopDetail }>(
      await ctx.call(org.owner.jar, 'GET', `/api/loops/${ids.echo}`),
    );
    for (const person of echo.people) {
      const token = await answerToken(ctx, person.email);
      expect(
        (await ctx.request('POST', `/api/loop-answer/${token}/quick`, { body: { value: 5 } })).status,
      ).toBe(201);
    }
    await ctx.call(
      org.owner.jar,
      'POST',
      `/api/loops/${ids.echo}/rounds/${echoDetail.loop.currentRound!.id}/close`,
    );
    body = await loopInsights(org.owner.jar, org);
  }, 120_000);

  const row = (id: string) => body.loops.find((l) => l.id === id)!;

  it("shows each loop's latest closed round: participation by responseRate, eNPS by the shared stats", () => {
    expect(body.loops.map((l) => l.workspace.name)).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo']);
    expect(row(ids.alpha!)).toMatchObject({
      title: 'Alpha pulse',
      round: { id: rounds.alpha, number: 1, audience: 5, answered: 4, participation: responseRate(4, 5) },
      enpsState: 'shown',
      enps: { score: enpsOf([10, 9, 7, 0]).score, answers: 4 },
    });
    // (2 − 1) / 4 = 25.
    expect(row(ids.alpha!).enps?.score).toBe(25);
    expect(row(ids.alpha!).round.participation).toBe(80);
  });

  it('reaches both ends of the scale: +100 when all promote, −100 when all detract', () => {
    expect(row(ids.bravo!).enps).toEqual({ score: 100, answers: 3 });
    expect(row(ids.charlie!).enps).toEqual({ score: -100, answers: 3 });
    expect(row(ids.charlie!).round.participation).toBe(100);
  });

  it('says when a round asked no eNPS question, and hides an eNPS with too few answers', () => {
    expect(row(ids.delta!)).toMatchObject({ enpsState: 'none', enps: null, round: { answered: 3 } });
    expect(row(ids.echo!)).toMatchObject({ enpsState: 'below-floor', enps: null, round: { answered: 3 } });
  });

  it("pools the month over the shown loops' rounds, eNPS over those that reached the floor", () => {
    expect(body.trend).toHaveLength(1);
    const pooledScores = [10, 9, 7, 0, 9, 10, 9, 0, 6, 3];
    expect(body.trend[0]).toEqual({
      month: thisMonth(),
      rounds: 5,
      teams: 5,
      audience: 5 + 3 + 3 + 3 + 3,
      answered: 4 + 3 + 3 + 3 + 3,
      participation: responseRate(16, 17),
      enps: { score: enpsOf(pooledScores).score, answers: pooledScores.length },
    });
    expect(body.pooled).toEqual({ loops: 5, teams: 5, leftOutLoops: 0, leftOutTeams: 0 });
  });
});

describe('the privacy floor', () => {
  it('hides a round below its minimum (never fewer than 3), and no hidden figure can be had by subtraction', async () => {
    const org = await newOrganization();
    // Shown: three answers, minimum 3.
    const shown = await team(org, 'Shown', 3);
    const shownLoop = (await launch(org, shown, { title: 'Shown pulse' })).id;
    // Small: two answers of three; its minimum is 3 (anonymous), so it is left out.
    const small = await team(org, 'Small', 3);
    const smallLoop = (await launch(org, small, { title: 'Small pulse' })).id;
    // Strict: four answers, but the loop asks for five.
    const strict = await team(org, 'Strict', 5);
    const strictLoop = (await launch(org, strict, { title: 'Strict pulse', minResponses: 5 })).id;
    // Named: a loop that is not anonymous with a minimum of 1; two answers are still under the floor of 3.
    const named = await team(org, 'Named', 3);
    const namedLoop = (await launch(org, named, { title: 'Named pulse', anonymous: false, minResponses: 1 }))
      .id;

    await round(org, shownLoop, shown.people, [10, 10, 10]);
    await round(org, smallLoop, small.people, [0, 0]);
    await round(org, strictLoop, strict.people, [0, 0, 0, 0]);
    await round(org, namedLoop, named.people, [0, 0]);
    const body = await loopInsights(org.owner.jar, org);

    expect(body.loops.map((l) => l.title)).toEqual(['Shown pulse']);
    expect(body.leftOut.map((l) => [l.workspace.name, l.title])).toEqual([
      ['Named', 'Named pulse'],
      ['Small', 'Small pulse'],
      ['Strict', 'Strict pulse'],
    ]);
    expect(body.pooled).toEqual({ loops: 1, teams: 1, leftOutLoops: 3, leftOutTeams: 3 });
    // The organisation's month is exactly the shown team: organisation minus the teams shown is nothing.
    const shownRow = body.loops[0]!;
    expect(body.trend).toEqual([
      {
        month: thisMonth(),
        rounds: 1,
        teams: 1,
        audience: shownRow.round.audience,
        answered: shownRow.round.answered,
        participation: shownRow.round.participation,
        enps: shownRow.enps,
      },
    ]);
    // Nothing of the hidden loops is in the answer at all: their names, no figure, no round.
    for (const hidden of [smallLoop, strictLoop, namedLoop])
      expect(Object.keys(body.leftOut.find((l) => l.id === hidden)!).sort()).toEqual([
        'id',
        'title',
        'workspace',
      ]);
    expect(JSON.stringify(body)).not.toMatch(/"score":-100/);
  }, 120_000);

  it("leaves out the earlier rounds of a loop whose latest round is hidden, and a shown loop's hidden rounds", async () => {
    const org = await newOrganization();
    const steady = await team(org, 'Steady', 3);
    const steadyLoop = (await launch(org, steady, { title: 'Steady pulse' })).id;
    const fading = await team(org, 'Fading', 3);
    const fadingLoop = (await launch(org, fading, { title: 'Fading pulse' })).id;

    // Two months ago both teams had a full round; last month Steady had too few, Fading a full round; this month
    // Steady is full again and Fading has too few.
    await inMonth(await round(org, steadyLoop, steady.people, [10, 10, 10]), monthsAgo(2));
    await inMonth(await round(org, fadingLoop, fading.people, [0, 0, 0]), monthsAgo(2));
    await inMonth(await round(org, steadyLoop, steady.people, [0, 0], true), monthsAgo(1));
    await inMonth(await round(org, fadingLoop, fading.people, [0, 0, 0], true), monthsAgo(1));
    await round(org, steadyLoop, steady.people, [9, 9, 8], true);
    await round(org, fadingLoop, fading.people, [0, 0], true);

    const body = await loopInsights(org.owner.jar, org);
    expect(body.loops.map((l) => l.title)).toEqual(['Steady pulse']);
    expect(body.leftOut.map((l) => l.title)).toEqual(['Fading pulse']);
    // Only Steady's rounds that reached the floor: two months ago (all +100) and this month; last month has none.
    expect(body.trend.map((m) => [m.month, m.rounds, m.teams, m.answered, m.enps?.score ?? null])).toEqual([
      [monthsAgo(2), 1, 1, 3, 100],
      [thisMonth(), 1, 1, 3, enpsOf([9, 9, 8]).score],
    ]);
    expect(body.trend.every((m) => m.teams === 1)).toBe(true);

    // The period: a round that closed over a year ago is out of 'Last 12 months', in 'All time'.
    await ctx.deps.db
      .update(loopRounds)
      .set({ openedAt: sql`now() - interval '400 days'`, closedAt: sql`now() - interval '399 days'` })
      .where(eq(loopRounds.loopId, steadyLoop));
    expect((await loopInsights(org.owner.jar, org)).loops).toEqual([]);
    expect((await loopInsights(org.owner.jar, org, '?period=all')).loops.map((l) => l.title)).toEqual([
      'Steady pulse',
    ]);
  }, 120_000);
});
