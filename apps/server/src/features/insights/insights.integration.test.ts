import type { InsightsResponse } from '@pulsecheck/shared/insights/schemas';
import type { ParticipationRating } from '@pulsecheck/shared/participation/rules';
import type { ResultsResponse } from '@pulsecheck/shared/results/schemas';
import type { MembersResponse } from '@pulsecheck/shared/team/schemas';
import type { WorkspacesResponse } from '@pulsecheck/shared/workspaces/schemas';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { healthCheckVotes } from '../../db/schema/health-checks';
import { workspaces } from '../../db/schema/organizations';
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

/**
 * A completed check of the workspace: `people` completed participants, each rating component j with `pick(i, j)`
 * (the first five catalogue components unless `keys` says which).
 */
async function completedCheck(
  org: Org,
  workspaceId: string,
  options: {
    people: number;
    pick: (person: number, component: number) => ParticipationRating;
    completedAt?: Date;
    minResponses?: number;
    keys?: string[];
    phase?: 'summarize' | 'vote' | 'collect';
  },
): Promise<CheckFixture> {
  const check = await createCheck(
    ctx,
    { workspaceId, userId: org.owner.userId },
    {
      phase: options.phase ?? 'summarize',
      completedAt: options.completedAt ?? new Date(),
      settings: { minResponses: options.minResponses ?? 3 },
      ...(options.keys ? { keys: options.keys } : { componentCount: 5 }),
    },
  );
  const people = await addParticipants(ctx, check, options.people);
  await rateAll(ctx, check, people, options.pick);
  return check;
}

const insightsPath = (org: Org, query = '') => `/api/organizations/${org.organizationId}/insights${query}`;
async function insights(jar: Jar, org: Org, query = '') {
  const response = await ctx.call(jar, 'GET', insightsPath(org, query));
  expect(response.status).toBe(200);
  return json<InsightsResponse>(response);
}
const team = (body: InsightsResponse, id: string) => body.teams.find((t) => t.id === id);

async function memberIdOf(jar: Jar, workspaceId: string, userId: string) {
  const team = await json<MembersResponse>(
    await ctx.call(jar, 'GET', `/api/workspaces/${workspaceId}/members`),
  );
  return team.members.find((m) => m.userId === userId)!.id;
}
const appoint = async (jar: Jar, workspaceId: string, memberId: string, organizationAdmin = true) =>
  ctx.call(jar, 'PUT', `/api/workspaces/${workspaceId}/members/${memberId}/organization-admin`, {
    organizationAdmin,
  });

describe('who may see organisation insights', () => {
  let org: Org;
  let teamB: string;
  let orgAdmin: Awaited<ReturnType<typeof signedInUser>>;
  let workspaceAdmin: Awaited<ReturnType<typeof signedInUser>>;
  let member: Awaited<ReturnType<typeof signedInUser>>;
  let outsider: Admin;

  beforeAll(async () => {
    org = await newOrganization();
    teamB = await addWorkspace(org, 'Team B');
    orgAdmin = await signedInUser(ctx, { workspaceId: org.owner.workspaceId, access: 'member' });
    workspaceAdmin = await signedInUser(ctx, { workspaceId: teamB, access: 'admin' });
    member = await signedInUser(ctx, { workspaceId: org.owner.workspaceId, access: 'member' });
    outsider = await createAdmin(ctx);
    const memberId = await memberIdOf(org.owner.jar, org.owner.workspaceId, orgAdmin.userId);
    expect((await appoint(org.owner.jar, org.owner.workspaceId, memberId)).status).toBe(200);
  }, 60_000);

  it('answers the owner and the organisation admins, and 404 to everyone else', async () => {
    const status = async (jar: Jar) => (await ctx.call(jar, 'GET', insightsPath(org))).status;
    expect(await status(org.owner.jar)).toBe(200);
    expect(await status(orgAdmin.jar)).toBe(200);
    expect(await status(workspaceAdmin.jar)).toBe(404);
    expect(await status(member.jar)).toBe(404);
    expect(await status(outsider.jar)).toBe(404);
    const csv = async (jar: Jar) => (await ctx.call(jar, 'GET', insightsPath(org, '/csv'))).status;
    expect(await csv(orgAdmin.jar)).toBe(200);
    expect(await csv(workspaceAdmin.jar)).toBe(404);
    // Even the organisation's own id tells an outsider nothing.
    const refused = await json(await ctx.call(outsider.jar, 'GET', insightsPath(org)));
    expect(refused.error.message).toBe('Organisation not found');
  });

  it("gives organisation admins the organisation's sign-in rules too: one fact for both", async () => {
    const rule = (jar: Jar) =>
      ctx.call(jar, 'PUT', '/api/organization/security', { requireTwoFactor: false });
    expect((await rule(orgAdmin.jar)).status).toBe(200);
    expect((await rule(member.jar)).status).toBe(403);
  });

  it('tells each person their role in the workspace list and the team list', async () => {
    const role = async (jar: Jar) =>
      (await json<WorkspacesResponse>(await ctx.call(jar, 'GET', '/api/workspaces'))).workspaces.find(
        (w) => w.id === org.owner.workspaceId,
      )?.organizationRole;
    expect(await role(org.owner.jar)).toBe('owner');
    expect(await role(orgAdmin.jar)).toBe('admin');
    expect(await role(member.jar)).toBeNull();
    const asOwner = await json<MembersResponse>(
      await ctx.call(org.owner.jar, 'GET', `/api/workspaces/${org.owner.workspaceId}/members`),
    );
    expect(asOwner.canAppointOrganizationAdmins).toBe(true);
    expect(asOwner.members.find((m) => m.userId === orgAdmin.userId)?.organizationRole).toBe('admin');
    expect(asOwner.members.find((m) => m.userId === org.owner.userId)?.organizationRole).toBe('owner');
    const asAdmin = await json<MembersResponse>(
      await ctx.call(orgAdmin.jar, 'GET', `/api/workspaces/${org.owner.workspaceId}/members`),
    );
    expect(asAdmin.canAppointOrganizationAdmins).toBe(false);
  });

  it('lets only the owner appoint: a workspace admin or an organisation admin gets a 404', async () => {
    const memberId = await memberIdOf(org.owner.jar, org.owner.workspaceId, member.userId);
    expect((await appoint(orgAdmin.jar, org.owner.workspaceId, memberId)).status).toBe(404);
    const workspaceAdminId = await memberIdOf(workspaceAdmin.jar, teamB, workspaceAdmin.userId);
    expect((await appoint(workspaceAdmin.jar, teamB, workspaceAdminId)).status).toBe(404);
    expect((await appoint(outsider.jar, org.owner.workspaceId, memberId)).status).toBe(404);
    const ownerId = await memberIdOf(org.owner.jar, org.owner.workspaceId, org.owner.userId);
    expect((await appoint(org.owner.jar, org.owner.workspaceId, ownerId)).status).toBe(409);
    expect((await ctx.call(member.jar, 'GET', insightsPath(org))).status).toBe(404);
  });

  it('takes the role away when the owner removes it or the person leaves every workspace', async () => {
    const person = await signedInUser(ctx, { workspaceId: teamB, access: 'member' });
    const memberId = await memberIdOf(org.owner.jar, teamB, person.userId);
    expect((await appoint(org.owner.jar, teamB, memberId)).status).toBe(200);
    expect((await ctx.call(person.jar, 'GET', insightsPath(org))).status).toBe(200);
    expect((await appoint(org.owner.jar, teamB, memberId, false)).status).toBe(200);
    expect((await ctx.call(person.jar, 'GET', insightsPath(org))).status).toBe(404);

    expect((await appoint(org.owner.jar, teamB, memberId)).status).toBe(200);
    const removed = await ctx.call(org.owner.jar, 'DELETE', `/api/workspaces/${teamB}/members/${memberId}`);
    expect(removed.status).toBe(200);
    expect((await ctx.call(person.jar, 'GET', insightsPath(org))).status).toBe(404);
    // Invited back later, they come back as a plain member: the role lapsed with the membership.
    await ctx.deps.db
      .insert((await import('../../db/schema/organizations')).workspaceMembers)
      .values({ workspaceId: teamB, userId: person.userId, access: 'member', status: 'active' });
    expect((await ctx.call(person.jar, 'GET', insightsPath(org))).status).toBe(404);
  });

  it("opens a team's completed results to an organisation admin outside the team, under the floor", async () => {
    const shown = await completedCheck(org, teamB, { people: 3, pick: () => 'healthy' });
    const collecting = await completedCheck(org, teamB, {
      people: 3,
      pick: () => 'healthy',
      phase: 'collect',
    });
    const small = await completedCheck(org, teamB, { people: 2, pick: () => 'healthy', minResponses: 1 });
    const results = async (jar: Jar, id: string) => ctx.call(jar, 'GET', `/api/health-checks/${id}/results`);
    const read = await results(orgAdmin.jar, shown.healthCheckId);
    expect(read.status).toBe(200);
    const body = await json<ResultsResponse>(read);
    expect(body.components).toHaveLength(5);
    expect(body.viewer).toMatchObject({ manages: false, canPlan: false, isParticipant: false });
    expect((await results(orgAdmin.jar, collecting.healthCheckId)).status).toBe(404);
    // Two responses are enough for the team (its minimum is 1) but never for the organisation's view.
    const smallBody = await json<ResultsResponse>(await results(orgAdmin.jar, small.healthCheckId));
    expect(smallBody.release.state).toBe('below-threshold');
    expect(smallBody.components).toBeNull();
    expect((await results(member.jar, shown.healthCheckId)).status).toBe(404);
    // Nothing else of the check opens to them: the voting view and the manage screen stay 404.
    expect(
      (await ctx.call(orgAdmin.jar, 'GET', `/api/health-checks/${shown.healthCheckId}/votes`)).status,
    ).toBe(404);
    expect((await ctx.call(orgAdmin.jar, 'GET', `/api/health-checks/${shown.healthCheckId}`)).status).toBe(
      404,
    );
  });
});

describe('the heat map', () => {
  let org: Org;
  let teams: Record<'a' | 'b' | 'c' | 'd' | 'e', string>;
  let checks: Record<string, CheckFixture>;

  beforeAll(async () => {
    org = await newOrganization();
    teams = {
      a: org.owner.workspaceId,
      b: await addWorkspace(org, 'Bravo'),
      c: await addWorkspace(org, 'Charlie'),
      d: await addWorkspace(org, 'Delta'),
      e: await addWorkspace(org, 'Echo'),
    };
    checks = {};
    // A: an earlier check (all fire warnings on c1, healthy on c2, healthy on c3), then the latest one.
    checks.aBefore = await completedCheck(org, teams.a, {
      people: 4,
      pick: (_, j) => (j === 0 ? 'fire-warning' : 'healthy'),
      completedAt: daysAgo(60),
    });
    checks.a = await completedCheck(org, teams.a, {
      people: 4,
      pick: (_, j) => (j === 0 ? 'healthy' : j === 2 ? 'fire-warning' : 'healthy'),
      completedAt: daysAgo(5),
    });
    // A check still voting is newer, but it never shows (PRODUCT-DECISIONS 3: nothing before collection ends).
    checks.aVoting = await completedCheck(org, teams.a, {
      people: 4,
      pick: () => 'fire-warning',
      phase: 'vote',
    });
    // B: three responses, but c2 rated by only two of them (the third skipped it).
    checks.b = await completedCheck(org, teams.b, {
      people: 3,
      pick: (i, j) => (j === 0 ? 'needs-improvement' : 'fire-warning'),
      completedAt: daysAgo(10),
    });
    // C: two responses only: below the floor of 3.
    checks.c = await completedCheck(org, teams.c, {
      people: 2,
      pick: () => 'fire-warning',
      completedAt: daysAgo(3),
    });
    // D: four responses, but the team's own minimum is 5.
    checks.d = await completedCheck(org, teams.d, {
      people: 4,
      pick: () => 'healthy',
      minResponses: 5,
      completedAt: daysAgo(3),
    });
    // E: completed 200 days ago, with a template lacking most components.
    checks.e = await completedCheck(org, teams.e, {
      people: 3,
      pick: () => 'healthy',
      keys: ['c1', 'c29'],
      completedAt: daysAgo(200),
    });
    // Team B's c2: drop one rating, so that cell has 2 of the 3 responses.
    const { healthCheckRatings } = await import('../../db/schema/health-checks');
    const [one] = await ctx.deps.db
      .select({ id: healthCheckRatings.id })
      .from(healthCheckRatings)
      .where(eq(healthCheckRatings.componentId, checks.b.components[1]!.id))
      .limit(1);
    await ctx.deps.db.delete(healthCheckRatings).where(eq(healthCheckRatings.id, one!.id));
  }, 60_000);

  it('shows each team’s latest completed check, and leaves out teams under the floor or outside the period', async () => {
    const body = await insights(org.owner.jar, org);
    expect(body.teams.map((t) => t.name)).toEqual(expect.arrayContaining(['Bravo']));
    expect(team(body, teams.a)?.check.id).toBe(checks.a!.healthCheckId);
    expect(team(body, teams.a)?.responses).toBe(4);
    expect(body.leftOut).toEqual(
      expect.arrayContaining([
        { id: teams.c, name: 'Charlie', reason: 'below-floor' },
        { id: teams.d, name: 'Delta', reason: 'below-floor' },
      ]),
    );
    // Nothing of a team left out is in the answer, not even its check.
    expect(JSON.stringify(body)).not.toContain(checks.c!.healthCheckId);
    expect(JSON.stringify(body)).not.toContain(checks.d!.healthCheckId);
    expect(JSON.stringify(body)).not.toContain(checks.aVoting!.healthCheckId);

    const recent = await insights(org.owner.jar, org, '?period=90d');
    expect(recent.leftOut).toContainEqual({ id: teams.e, name: 'Echo', reason: 'no-check' });
    const allTime = await insights(org.owner.jar, org, '?period=all');
    const echo = team(allTime, teams.e)!;
    // A template lacking components: only its two cells, no error.
    expect(Object.keys(echo.cells).sort()).toEqual(['c1', 'c29']);
    expect(allTime.rows).toHaveLength(9);
    expect(allTime.rows.flatMap((r) => r.components)).toHaveLength(29);
  });

  it('hides a cell with fewer ratings than the floor, and pools only what is shown (no subtraction)', async () => {
    const body = await insights(org.owner.jar, org, '?period=all');
    const bravo = team(body, teams.b)!;
    expect(bravo.hidden).toEqual(['c2']);
    expect(bravo.cells.c2).toBeUndefined();
    expect(bravo.cells.c1).toEqual([0, 3, 0, 0, null]);
    // The Organisation column is exactly the sum of the cells shown, key by key: a hidden cell or team can never
    // be had as "organisation minus the teams shown".
    for (const row of body.rows)
      for (const { key } of row.components) {
        const shown = body.teams.flatMap((t) => (t.cells[key] ? [t.cells[key]] : []));
        const pooled = body.organisation.cells[key];
        if (shown.length === 0) {
          expect(pooled).toBeUndefined();
          continue;
        }
        const sums = [0, 1, 2, 3].map((i) => shown.reduce((sum, cell) => sum + (cell[i] as number), 0));
        expect(pooled?.slice(0, 4)).toEqual(sums);
      }
    expect(body.organisation.teams).toBe(body.teams.length);
    // c2 pools Alpha's four ratings only (Bravo's two are hidden).
    expect(body.organisation.cells.c2?.slice(0, 4)).toEqual([4, 0, 0, 0]);
  });

  it('draws an arrow against the team’s previous check of the same component', async () => {
    const body = await insights(org.owner.jar, org);
    const alpha = team(body, teams.a)!;
    expect(alpha.cells.c1?.[4]).toBe('better');
    expect(alpha.cells.c2?.[4]).toBe('same');
    expect(alpha.cells.c3?.[4]).toBe('worse');
    // No earlier check: no arrow.
    expect(team(body, teams.b)!.cells.c1?.[4]).toBeNull();
    expect(alpha.change).not.toBeNull();
  });

  it('ignores an earlier check under the floor for the arrows', async () => {
    const fresh = await newOrganization();
    await completedCheck(fresh, fresh.owner.workspaceId, {
      people: 3,
      pick: () => 'fire-warning',
      completedAt: daysAgo(90),
    });
    await completedCheck(fresh, fresh.owner.workspaceId, {
      people: 2,
      pick: () => 'healthy',
      completedAt: daysAgo(30),
    });
    await completedCheck(fresh, fresh.owner.workspaceId, {
      people: 3,
      pick: () => 'healthy',
      completedAt: daysAgo(1),
    });
    const body = await insights(fresh.owner.jar, fresh);
    // Compared with the check of 90 days ago (fire warnings), not with the hidden one of 30 days ago.
    expect(body.teams[0]!.cells.c1?.[4]).toBe('better');
    expect(body.teams[0]!.change).toBe(200);
  });

  it('compares each component with the latest earlier check that has it, across later completions', async () => {
    const fresh = await newOrganization();
    const ws = fresh.owner.workspaceId;
    await completedCheck(fresh, ws, { people: 3, pick: () => 'fire-warning', completedAt: daysAgo(90) });
    // Read once: the first check is summed now, the later ones on the next read.
    expect((await insights(fresh.owner.jar, fresh)).teams[0]!.cells.c2?.[4]).toBeNull();
    await completedCheck(fresh, ws, {
      people: 3,
      pick: () => 'healthy',
      keys: ['c1'],
      completedAt: daysAgo(30),
    });
    await completedCheck(fresh, ws, { people: 3, pick: () => 'healthy', completedAt: daysAgo(1) });
    const latest = (await insights(fresh.owner.jar, fresh)).teams[0]!;
    expect(latest.cells.c1?.[4]).toBe('same');
    // The check of 30 days ago lacked c2: c2 compares with the one of 90 days ago.
    expect(latest.cells.c2?.[4]).toBe('better');
    expect(latest.change).toBe(0);
  });

  it('ranks the priorities: components most often in top 3, teams whose health fell most', async () => {
    const fresh = await newOrganization();
    const x = fresh.owner.workspaceId;
    const y = await addWorkspace(fresh, 'Yankee');
    // Both teams' latest checks: c3 and c4 fire warnings, c5 needs improvement. X was healthy before (it fell),
    // Y was the same before.
    const pick = (_: number, j: number): ParticipationRating =>
      j === 2 || j === 3 ? 'fire-warning' : j === 4 ? 'needs-improvement' : 'healthy';
    await completedCheck(fresh, x, { people: 3, pick: () => 'healthy', completedAt: daysAgo(40) });
    const latestX = await completedCheck(fresh, x, { people: 3, pick, completedAt: daysAgo(2) });
    await completedCheck(fresh, y, { people: 3, pick, completedAt: daysAgo(40) });
    await completedCheck(fresh, y, { people: 3, pick, completedAt: daysAgo(2) });
    // Dots come before needs improvement, as in the results' prioritized list: X put its dots on c1.
    const person = await addParticipants(ctx, latestX, 1);
    await ctx.deps.db.insert(healthCheckVotes).values({
      healthCheckId: latestX.healthCheckId,
      participantId: person[0]!.participantId,
      componentId: latestX.components[0]!.id,
      count: 3,
    });
    const body = await insights(fresh.owner.jar, fresh);
    const top = body.priorities.components.map((c) => [c.key, c.teams]);
    expect(top.slice(0, 2)).toEqual([
      ['c3', 2],
      ['c4', 2],
    ]);
    expect(top.slice(2)).toEqual([
      ['c1', 1],
      ['c5', 1],
    ]);
    expect(body.priorities.falling.map((t) => t.id)).toEqual([x]);
    expect(body.priorities.falling[0]).toMatchObject({
      from: 'Mostly Healthy',
      to: 'Needs Immediate Attention',
    });
  });

  it('filters the rows by category, and exports the heat map as CSV', async () => {
    const category = 'How we meet';
    const body = await insights(org.owner.jar, org, `?category=${encodeURIComponent(category)}`);
    expect(body.rows.map((r) => r.category)).toEqual([category]);
    expect(body.categories).toHaveLength(9);
    const keys = new Set(body.rows[0]!.components.map((c) => c.key));
    for (const t of body.teams) for (const key of Object.keys(t.cells)) expect(keys.has(key)).toBe(true);

    const response = await ctx.call(org.owner.jar, 'GET', insightsPath(org, '/csv?period=all'));
    expect(response.headers.get('content-type')).toContain('text/csv');
    const lines = (await response.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      "Category,Component,Team,Health check,Completed,Responses,Healthy,Needs Improvement,Fire Warning,Don't Know,Health,Trend",
    );
    expect(lines.some((l) => l.includes('Bravo') && l.includes('Too few responses to show'))).toBe(true);
    expect(lines.some((l) => l.includes('Organisation (3 teams)'))).toBe(true);
    expect(lines.some((l) => l.includes('Charlie'))).toBe(false);
  });

  it('answers an empty organisation, a period without checks and a deleted workspace with empty figures', async () => {
    const fresh = await newOrganization();
    const empty = await insights(fresh.owner.jar, fresh);
    expect(empty.teams).toEqual([]);
    expect(empty.leftOut).toHaveLength(1);
    expect(empty.organisation).toEqual({ teams: 0, cells: {}, overallHealth: null });
    expect(empty.priorities).toEqual({ components: [], falling: [] });

    const gone = await addWorkspace(fresh, 'Short-lived');
    await completedCheck(fresh, gone, { people: 3, pick: () => 'healthy' });
    expect(team(await insights(fresh.owner.jar, fresh), gone)).toBeDefined();
    await ctx.deps.db.delete(workspaces).where(eq(workspaces.id, gone));
    const after = await insights(fresh.owner.jar, fresh);
    expect(after.teams).toEqual([]);
    expect(after.leftOut.map((t) => t.id)).not.toContain(gone);
    const unknownCategory = await insights(fresh.owner.jar, fresh, '?category=Nothing');
    expect(unknownCategory.rows).toEqual([]);
    expect((await ctx.call(fresh.owner.jar, 'GET', insightsPath(fresh, '?period=2y'))).status).toBe(400);
  });
});
