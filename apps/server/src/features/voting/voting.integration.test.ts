import { eq } from 'drizzle-orm';
import type { ResultsResponse } from '@pulsecheck/shared/results/schemas';
import type { VotingState } from '@pulsecheck/shared/voting/schemas';
import { describe, expect, it } from 'vitest';
import { healthCheckVotes } from '../../db/schema/health-checks';
import { createAdmin, signedInParticipant, useAdmin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { addParticipants, createCheck, rateAll, setPhase, type CheckFixture } from '../../test/health-checks';
import type { Jar } from '../../test/requests';

const ctx = useTestContext();
const admin = useAdmin(ctx);

const put = (jar: Jar, id: string, allocation: Record<string, number>) =>
  ctx.call(jar, 'PUT', `/api/health-checks/${id}/votes`, { allocation });
const messageOf = async (response: Response) =>
  ((await response.json()) as { error: { message: string } }).error.message;

async function votingCheck(settings = {}): Promise<CheckFixture> {
  const check = await createCheck(ctx, admin, { phase: 'vote', componentCount: 6, settings });
  await rateAll(ctx, check, await addParticipants(ctx, check, 3), (i, j) =>
    j === 5 ? 'fire-warning' : i === 0 ? 'needs-improvement' : 'healthy',
  );
  return check;
}

describe('PUT /api/health-checks/{id}/votes', () => {
  it('replaces the whole allocation, counts who voted, and shows dot totals in the results', async () => {
    const check = await votingCheck();
    const me = await signedInParticipant(ctx, check);
    const [a, b, c] = check.components;
    let response = await put(me.jar, check.healthCheckId, { [a!.id]: 3, [b!.id]: 2 });
    expect(response.status).toBe(200);
    let state = (await response.json()) as VotingState;
    expect(state).toMatchObject({
      eligible: true,
      used: 5,
      votesPerPerson: 5,
      tally: { voted: 1, eligible: 4 },
    });
    expect(state.allocation).toEqual({ [a!.id]: 3, [b!.id]: 2 });
    // The components come in prioritized order with their distribution: the fire-warning one first.
    expect(state.components[0]).toMatchObject({ id: check.components[5]!.id, counts: { fireWarning: 3 } });

    response = await put(me.jar, check.healthCheckId, { [c!.id]: 1, [a!.id]: 0 });
    state = (await response.json()) as VotingState;
    expect(state.allocation).toEqual({ [c!.id]: 1 });
    expect(state.used).toBe(1);

    const results = async () =>
      (await (
        await ctx.call(admin.jar, 'GET', `/api/health-checks/${check.healthCheckId}/results`)
      ).json()) as ResultsResponse;
    // While voting runs, how many voted shows, never the dot totals (they would change with each person's dots).
    let body = await results();
    expect(body.components!.every((x) => x.dots === null)).toBe(true);
    expect(body.voting).toEqual({ voted: 1, eligible: 4 });
    await setPhase(ctx, check.healthCheckId, 'summarize');
    body = await results();
    expect(body.components!.find((x) => x.id === c!.id)!.dots).toBe(1);
    expect(body.components!.find((x) => x.id === a!.id)!.dots).toBe(0);
  });

  it('refuses more dots than allowed and foreign components with 400, storing nothing', async () => {
    const check = await votingCheck({ votesPerPerson: 3 });
    const other = await votingCheck();
    const me = await signedInParticipant(ctx, check);
    const [a, b] = check.components;
    let response = await put(me.jar, check.healthCheckId, { [a!.id]: 2, [b!.id]: 2 });
    expect(response.status).toBe(400);
    expect(await messageOf(response)).toBe('You can place at most 3 dots');
    response = await put(me.jar, check.healthCheckId, { [other.components[0]!.id]: 1 });
    expect(response.status).toBe(400);
    expect(await messageOf(response)).toBe('Dots can only go on components of this health check');
    response = await put(me.jar, check.healthCheckId, { 'not-a-uuid': 1 });
    expect(response.status).toBe(400);
    response = await put(me.jar, check.healthCheckId, { [a!.id]: -1 });
    expect(response.status).toBe(400);
    const rows = await ctx.deps.db
      .select()
      .from(healthCheckVotes)
      .where(eq(healthCheckVotes.participantId, me.participantId));
    expect(rows).toEqual([]);
  });

  it('allows only completed participants, only during the vote phase; outsiders get 404', async () => {
    const check = await votingCheck();
    const unfinished = await signedInParticipant(ctx, check, 'in_progress');
    const [a] = check.components;
    let response = await put(unfinished.jar, check.healthCheckId, { [a!.id]: 1 });
    expect(response.status).toBe(403);
    expect(await messageOf(response)).toBe('Only participants who completed the rating can vote');
    response = await put(admin.jar, check.healthCheckId, { [a!.id]: 1 });
    expect(response.status).toBe(403);

    const me = await signedInParticipant(ctx, check);
    await setPhase(ctx, check.healthCheckId, 'summarize');
    response = await put(me.jar, check.healthCheckId, { [a!.id]: 1 });
    expect(response.status).toBe(409);
    expect(await messageOf(response)).toBe('Voting is not open for this health check');

    const outsider = await createAdmin(ctx);
    response = await put(outsider.jar, check.healthCheckId, { [a!.id]: 1 });
    expect(response.status).toBe(404);
  });

  it('never exceeds the limit under 20 concurrent requests of one person', async () => {
    const check = await votingCheck({ votesPerPerson: 5 });
    const me = await signedInParticipant(ctx, check);
    const ids = check.components.map((c) => c.id);
    // Every request is valid alone (5 dots); together they would be 100 if they merged.
    const allocations = Array.from({ length: 20 }, (_, i) => ({
      [ids[i % ids.length]!]: 3,
      [ids[(i + 1) % ids.length]!]: 2,
    }));
    const responses = await Promise.all(allocations.map((a) => put(me.jar, check.healthCheckId, a)));
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const rows = await ctx.deps.db
      .select()
      .from(healthCheckVotes)
      .where(eq(healthCheckVotes.participantId, me.participantId));
    expect(rows.reduce((sum, r) => sum + r.count, 0)).toBe(5);
    const stored = Object.fromEntries(rows.map((r) => [r.componentId, r.count]));
    expect(allocations).toContainEqual(stored);
  });

  it('hides the distribution from participants when the check hides results, and keeps template order', async () => {
    const check = await votingCheck({ showResultsAfterVoting: false });
    const me = await signedInParticipant(ctx, check);
    const state = (await (
      await ctx.call(me.jar, 'GET', `/api/health-checks/${check.healthCheckId}/votes`)
    ).json()) as VotingState;
    expect(state.components.every((c) => c.counts === null)).toBe(true);
    expect(state.components.map((c) => c.id)).toEqual(check.components.map((c) => c.id));
  });
});
