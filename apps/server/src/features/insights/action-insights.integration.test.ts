import type { FollowUpAnswer } from '@pulsecheck/shared/action-items/follow-up';
import type { ActionInsightsResponse } from '@pulsecheck/shared/insights/schemas';
import type { ParticipationRating } from '@pulsecheck/shared/participation/rules';
import type { WorkspacesResponse } from '@pulsecheck/shared/workspaces/schemas';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { createAdmin, signedInUser, type Admin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { addParticipants, createCheck, rateAll, type CheckFixture } from '../../test/health-checks';
import { json, type Jar } from '../../test/requests';

const ctx = useTestContext();
const DAY = 24 * 3600_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY);

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

/** A check of the workspace with the component c1 only, rated `rating` by `people`. */
async function check(
  org: Org,
  workspaceId: string,
  options: {
    people: number;
    rating: ParticipationRating;
    completedAt?: Date;
    phase?: 'summarize' | 'collect';
  },
) {
  const made = await createCheck(
    ctx,
    { workspaceId, userId: org.owner.userId },
    {
      phase: options.phase ?? 'summarize',
      completedAt: options.completedAt ?? new Date(),
      settings: { minResponses: 3 },
      keys: ['c1'],
    },
  );
  const people = await addParticipants(ctx, made, options.people);
  await rateAll(ctx, made, people, () => options.rating);
  return { check: made, people };
}

/** A done action item of `origin`'s component c1 (done `doneAt`; null: before done dates were recorded). */
async function doneAction(org: Org, origin: CheckFixture, doneAt: Date | null, description = 'An action') {
  const [row] = await queryRows<{ id: string }>(
    ctx.deps.db,
    sql`insert into action_items (health_check_id, component_id, description, owner_id, status, completed_at, created_by)
        values (${origin.healthCheckId}, ${origin.componentIds[0]}, ${description}, ${org.owner.userId}, 'completed',
                ${doneAt?.toISOString() ?? null}::timestamptz, ${org.owner.userId})
        returning id`,
  );
  return row!.id;
}

/**
 * The next check asks about the action (the row its launch writes) and `answers` are given by its participants, as
 * submit stores them (follow-ups.integration.test.ts exercises the launch and submit themselves).
 */
async function asked(
  next: { check: CheckFixture; people: { participantId: string }[] },
  actionItemId: string,
  answers: FollowUpAnswer[],
) {
  const [question] = await queryRows<{ id: string }>(
    ctx.deps.db,
    sql`insert into follow_up_questions (health_check_id, action_item_id, component_id)
        values (${next.check.healthCheckId}, ${actionItemId}, ${next.check.componentIds[0]}) returning id`,
  );
  for (const [i, answer] of answers.entries())
    await ctx.deps.db.execute(
      sql`insert into follow_up_answers (question_id, health_check_id, participant_id, answer)
          values (${question!.id}, ${next.check.healthCheckId}, ${next.people[i]!.participantId}, ${answer})`,
    );
}

const actionsPath = (org: Org, period = '365d') =>
  `/api/organizations/${org.organizationId}/insights/actions?period=${period}`;
async function actions(jar: Jar, org: Org, period?: string) {
  const response = await ctx.call(jar, 'GET', actionsPath(org, period));
  expect(response.status).toBe(200);
  return json<ActionInsightsResponse>(response);
}

describe("insights 'Actions that worked' (issue 33 item 5)", () => {
  let org: Org;
  let teamA: string;
  let teamB: string;
  let teamC: string;
  let teamD: string;

  beforeAll(async () => {
    org = await newOrganization();
    teamA = org.owner.workspaceId;
    teamB = await addWorkspace(org, 'Team B');
    teamC = await addWorkspace(org, 'Team C');
    teamD = await addWorkspace(org, 'Team D');
    await ctx.deps.db.execute(sql`update workspaces set name = 'Team A' where id = ${teamA}`);

    // Team A: needs improvement, then healthy; three answers (Yes, Partly, No). An older action without a done date.
    const a1 = await check(org, teamA, { people: 3, rating: 'needs-improvement', completedAt: daysAgo(30) });
    const a2 = await check(org, teamA, { people: 3, rating: 'healthy' });
    await asked(a2, await doneAction(org, a1.check, daysAgo(20), 'Pair on reviews'), ['yes', 'partly', 'no']);
    await doneAction(org, a1.check, null, 'Done before done dates');

    // Team B: fire warning, then fire warning; four answers (three Yes); and one action done 200 days ago.
    const b1 = await check(org, teamB, { people: 4, rating: 'fire-warning', completedAt: daysAgo(30) });
    const b2 = await check(org, teamB, { people: 4, rating: 'fire-warning' });
    await asked(b2, await doneAction(org, b1.check, daysAgo(20)), ['yes', 'yes', 'yes', 'no']);
    await doneAction(org, b1.check, daysAgo(200));

    // Team C: two answers only, fewer than the floor of 3; its component improved.
    const c1 = await check(org, teamC, { people: 3, rating: 'fire-warning', completedAt: daysAgo(30) });
    const c2 = await check(org, teamC, { people: 3, rating: 'healthy' });
    await asked(c2, await doneAction(org, c1.check, daysAgo(20)), ['yes', 'yes']);

    // Team D: asked by a check that still collects: nothing of it counts yet.
    const d1 = await check(org, teamD, { people: 3, rating: 'healthy', completedAt: daysAgo(30) });
    const d2 = await check(org, teamD, { people: 3, rating: 'healthy', phase: 'collect' });
    await asked(d2, await doneAction(org, d1.check, daysAgo(20)), ['yes', 'yes', 'yes']);
  }, 120_000);

  it('answers the owner and the organisation admins only, 404 to everyone else', async () => {
    const member = await signedInUser(ctx, { workspaceId: teamA, access: 'admin' });
    const outsider = await createAdmin(ctx);
    expect((await ctx.call(org.owner.jar, 'GET', actionsPath(org))).status).toBe(200);
    expect((await ctx.call(member.jar, 'GET', actionsPath(org))).status).toBe(404);
    expect((await ctx.call(outsider.jar, 'GET', actionsPath(org))).status).toBe(404);
  });

  it('shows per team the actions done, the share answered Yes or Partly, and the share improved', async () => {
    const body = await actions(org.owner.jar, org, '90d');
    expect(body.teams.map((t) => t.name)).toEqual(['Team A', 'Team B', 'Team C', 'Team D']);
    const byId = new Map(body.teams.map((t) => [t.id, t]));
    expect(byId.get(teamA)).toMatchObject({
      done: 1,
      asked: 1,
      answered: 3,
      workedShare: 67,
      compared: 1,
      improvedShare: 100,
    });
    expect(byId.get(teamB)).toMatchObject({
      done: 1,
      asked: 1,
      answered: 4,
      workedShare: 75,
      compared: 1,
      improvedShare: 0,
    });
    // Below the floor: no share of answers at all; the change of the component, which both checks show, counts.
    expect(byId.get(teamC)).toMatchObject({
      done: 1,
      asked: 1,
      answered: 0,
      workedShare: null,
      improvedShare: 100,
    });
    // Asked by a check that still collects: done, nothing else.
    expect(byId.get(teamD)).toMatchObject({ done: 1, asked: 0, answered: 0, workedShare: null, compared: 0 });
  });

  it('pools the organisation from the team rows only: no subtraction reveals a team under the floor', async () => {
    const body = await actions(org.owner.jar, org, '90d');
    expect(body.organisation).toMatchObject({ teams: 4, done: 4, asked: 3, answered: 7, workedShare: 71 });
    // The organisation minus every other team leaves Team C with what its own row shows: no answers.
    const others = body.teams.filter((t) => t.id !== teamC);
    expect(body.organisation.answered - others.reduce((sum, t) => sum + t.answered, 0)).toBe(0);
    const worked = (t: { answered: number; workedShare: number | null }) =>
      Math.round(((t.workedShare ?? 0) * t.answered) / 100);
    expect(worked(body.organisation) - others.reduce((sum, t) => sum + worked(t), 0)).toBe(0);
    // Nothing in the answer carries the hidden answers' figures, nor any participant.
    expect(JSON.stringify(body)).not.toContain('"answered":2');
  });

  it('counts an action in the period it was done; one without a done date only for all time', async () => {
    const recent = await actions(org.owner.jar, org, '90d');
    const year = await actions(org.owner.jar, org, '365d');
    const all = await actions(org.owner.jar, org, 'all');
    const done = (body: ActionInsightsResponse, id: string) => body.teams.find((t) => t.id === id)?.done;
    expect([done(recent, teamA), done(year, teamA), done(all, teamA)]).toEqual([1, 1, 2]);
    expect([done(recent, teamB), done(year, teamB), done(all, teamB)]).toEqual([1, 2, 2]);
  });

  it('forgets a deleted action and a deleted workspace', async () => {
    const other = await newOrganization();
    const first = await check(other, other.owner.workspaceId, {
      people: 3,
      rating: 'healthy',
      completedAt: daysAgo(9),
    });
    const next = await check(other, other.owner.workspaceId, { people: 3, rating: 'healthy' });
    const id = await doneAction(other, first.check, daysAgo(5));
    await asked(next, id, ['yes', 'yes', 'no']);
    expect((await actions(other.owner.jar, other)).organisation).toMatchObject({ done: 1, answered: 3 });
    await ctx.deps.db.execute(sql`delete from action_items where id = ${id}`);
    expect((await actions(other.owner.jar, other)).teams).toEqual([]);
    const again = await doneAction(other, first.check, daysAgo(5));
    await asked(next, again, ['yes', 'yes', 'no']);
    await ctx.deps.db.execute(sql`delete from workspaces where id = ${other.owner.workspaceId}`);
    const left = await queryRows<{ n: number }>(
      ctx.deps.db,
      sql`select count(*)::int as n from action_items where id = ${again}`,
    );
    expect(left[0]!.n).toBe(0);
  });
});
