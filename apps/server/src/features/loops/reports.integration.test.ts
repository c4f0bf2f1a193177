import type { DashboardResponse } from '@pulsecheck/shared/dashboard/schemas';
import type { LoopDetail, LoopInsights, LoopResults } from '@pulsecheck/shared/loops/contract';
import { LOOP_MESSAGES } from '@pulsecheck/shared/loops/rules';
import {
  changeLabel,
  countsByValue,
  enpsChange,
  enpsGroups,
  enpsSummary,
  scaleChange,
  scaleSummary,
} from '@pulsecheck/shared/loops/stats';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useAdmin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { addPeople, answerByLink, answerToken, editable, launchLoop, type Person } from '../../test/loops';
import { english, json } from '../../test/requests';
import * as q from './queries';

const ctx = useTestContext();
const admin = useAdmin(ctx, { companyName: 'Reports Co' });

const detail = async (loopId: string) =>
  (await json<{ loop: LoopDetail }>(await ctx.call(admin.jar, 'GET', `/api/loops/${loopId}`))).loop;

/** Everyone answers the open round with the given scale and eNPS values, then the round is closed by hand. */
async function runRound(
  loopId: string,
  people: Person[],
  values: { scale: number; enps: number; text?: string }[],
) {
  for (const [index, person] of people.entries()) {
    const value = values[index];
    if (!value) continue;
    expect((await answerByLink(ctx, await answerToken(ctx, person.email), value)).status).toBe(201);
  }
  const round = (await detail(loopId)).currentRound!;
  expect((await ctx.call(admin.jar, 'POST', `/api/loops/${loopId}/rounds/${round.id}/close`)).status).toBe(
    200,
  );
  return round.id;
}

describe('Loop Insights', () => {
  it('holds the stored counts and the figures to the SQL aggregate and the shared stats functions', async () => {
    // Its own workspace, so the audience is exactly these people.
    const people = await addPeople(ctx, admin.workspaceId, 8);
    const loop = await launchLoop(ctx, admin.jar, admin.workspaceId, {
      audience: { kind: 'members', memberIds: people.map((p) => p.memberId) },
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({ scale: fc.integer({ min: 1, max: 5 }), enps: fc.integer({ min: 0, max: 10 }) }),
          {
            minLength: 3,
            maxLength: 8,
          },
        ),
        async (values) => {
          const roundId = await runRound(loop.id, people, values);
          // The stored counts are the live GROUP BY (sealing kept every answer).
          const stored = (await q.storedCounts(ctx.deps.db, loop.id))
            .filter((row) => row.round_id === roundId)
            .flatMap((row) => row.values.map((value, i) => `${row.question_id}:${value}:${row.counts[i]}`));
          const live = (await q.countRoundAnswers(ctx.deps.db, roundId))
            .filter((row) => row.value !== null)
            .map((row) => `${row.question_id}:${row.value}:${row.count}`);
          expect(stored.sort()).toEqual(live.sort());
          // The figures are the stats functions' over the values given.
          const insights = await json<LoopInsights>(
            await ctx.call(admin.jar, 'GET', `/api/loops/${loop.id}/insights`),
          );
          const scaleLine = insights.lines.find((line) => line.kind === 'scale')!;
          const enpsLine = insights.enps[0]!;
          const point = scaleLine.points.at(-1)!;
          const counts = countsByValue(
            values.map((v) => ({ value: v.scale, count: 1 })),
            1,
            5,
          );
          expect(point.value).toBe(scaleSummary(counts).mean);
          const enpsCounts = countsByValue(
            values.map((v) => ({ value: v.enps, count: 1 })),
            0,
            10,
          );
          expect(enpsLine.points.at(-1)!.value).toBe(enpsSummary(enpsGroups(enpsCounts)).score);
          // The change is stats.ts' comparison with the previous round.
          if (scaleLine.points.length > 1) {
            const previous = (await q.storedCounts(ctx.deps.db, loop.id)).filter(
              (row) => row.round_id === scaleLine.points.at(-2)!.roundId,
            );
            const countsOf = (questionId: string, min: number, max: number) => {
              const row = previous.find((r) => r.question_id === questionId)!;
              return countsByValue(
                row.values.map((value, i) => ({ value, count: row.counts[i]! })),
                min,
                max,
              );
            };
            const prevScale = countsOf(scaleLine.id, 1, 5);
            const prevEnps = countsOf(enpsLine.id, 0, 10);
            expect(point.change).toEqual(scaleChange(prevScale, counts, 3));
            expect(point.label).toBe(english(changeLabel(scaleChange(prevScale, counts, 3))));
            expect(enpsLine.points.at(-1)!.change).toEqual(
              enpsChange(enpsGroups(prevEnps), enpsGroups(enpsCounts), 3),
            );
          }
          // Participation: answered over the audience of each round.
          expect(insights.participation.at(-1)).toMatchObject({ answers: values.length, audience: 8 });
          // The next round, for the next run.
          expect((await ctx.call(admin.jar, 'POST', `/api/loops/${loop.id}/rounds`)).status).toBe(201);
        },
      ),
      { numRuns: 5 },
    );
  });

  it('starts a new trend line when a question is reworded, and calls a large change real', async () => {
    const people = await addPeople(ctx, admin.workspaceId, 10);
    const audience = { kind: 'members' as const, memberIds: people.map((p) => p.memberId) };
    const launched = await launchLoop(ctx, admin.jar, admin.workspaceId, { audience });
    await runRound(
      launched.id,
      people,
      people.map(() => ({ scale: 1, enps: 0 })),
    );
    expect((await ctx.call(admin.jar, 'POST', `/api/loops/${launched.id}/rounds`)).status).toBe(201);
    await runRound(
      launched.id,
      people,
      people.map(() => ({ scale: 5, enps: 10 })),
    );

    let insights = await json<LoopInsights>(
      await ctx.call(admin.jar, 'GET', `/api/loops/${launched.id}/insights`),
    );
    const scale = insights.lines.find((l) => l.kind === 'scale')!;
    expect(scale.points.map((p) => p.value)).toEqual([1, 5]);
    expect(scale.points[1]).toMatchObject({ label: 'Real change' });
    expect(insights.enps[0]!.points.map((p) => p.value)).toEqual([-100, 100]);
    expect(insights.participation.map((p) => p.value)).toEqual([100, 100]);
    expect(insights.participation[1]!.label).toBe('Within normal variation');

    // Reword the scale question: the old line keeps its points, the new one starts with the next round.
    const loop = await detail(launched.id);
    const questions = loop.questions.map((q) =>
      q.kind === 'scale'
        ? {
            id: q.id,
            kind: q.kind,
            text: 'How was your fortnight?',
            lowLabel: q.lowLabel!,
            highLabel: q.highLabel!,
          }
        : { id: q.id, kind: q.kind, text: q.text },
    );
    const edited = await ctx.call(admin.jar, 'PUT', `/api/loops/${launched.id}`, {
      ...editable(loop),
      questions,
    });
    expect(edited.status).toBe(200);
    const newScale = (await json<{ loop: LoopDetail }>(edited)).loop.questions[0]!;
    expect(newScale.id).not.toBe(scale.id);
    expect((await ctx.call(admin.jar, 'POST', `/api/loops/${launched.id}/rounds`)).status).toBe(201);
    await runRound(
      launched.id,
      people,
      people.map(() => ({ scale: 3, enps: 8 })),
    );

    insights = await json<LoopInsights>(
      await ctx.call(admin.jar, 'GET', `/api/loops/${launched.id}/insights`),
    );
    const lines = insights.lines.filter((l) => l.kind === 'scale');
    expect(lines.map((l) => [l.text, l.current, l.points.map((p) => p.value)])).toEqual([
      ['How was your fortnight?', true, [3]],
      ['How was your week?', false, [1, 5]],
    ]);
    // The unchanged eNPS question keeps one line across all three rounds.
    expect(insights.enps).toHaveLength(1);
    expect(insights.enps[0]!.points.map((p) => p.value)).toEqual([-100, 100, 0]);
  });
});

describe('Loop Results', () => {
  it('says so below the minimum, shows names on free text only when not anonymous, and exports a released round', async () => {
    const people = await addPeople(ctx, admin.workspaceId, 4);
    const audience = { kind: 'members' as const, memberIds: people.map((p) => p.memberId) };
    const named = await launchLoop(ctx, admin.jar, admin.workspaceId, {
      audience,
      anonymous: false,
      minResponses: 2,
      title: 'Named pulse',
    });
    const roundId = await runRound(named.id, people, [
      { scale: 4, enps: 9, text: 'Zebra' },
      { scale: 2, enps: 5, text: '=1+1' },
    ]);
    const results = await json<LoopResults>(
      await ctx.call(admin.jar, 'GET', `/api/loops/${named.id}/results?roundId=${roundId}`),
    );
    expect(results.round?.state).toBe('released');
    const text = results.round!.questions[2]!;
    expect(text.texts).toEqual([
      { text: '=1+1', author: people[1]!.name },
      { text: 'Zebra', author: people[0]!.name },
    ]);
    const csv = await ctx.call(admin.jar, 'GET', `/api/loops/${named.id}/results/csv?roundId=${roundId}`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    const body = await csv.text();
    expect(body).toContain('Named pulse,1,How was your week?,scale,4,1,50,3,,,\r\n');
    // A formula in free text is defused.
    expect(body).toContain(`Anything else?,text,,,,,,'=1+1,${people[1]!.name}\r\n`);

    const few = await launchLoop(ctx, admin.jar, admin.workspaceId, { audience, title: 'Few answers' });
    const fewRound = await runRound(few.id, people, [{ scale: 3, enps: 7 }]);
    const below = await json<LoopResults>(
      await ctx.call(admin.jar, 'GET', `/api/loops/${few.id}/results?roundId=${fewRound}`),
    );
    expect(below.round).toMatchObject({
      state: 'below-threshold',
      message: 'This round closed with 1 response, fewer than the 3 needed to show results',
    });
    expect(below.round?.questions.every((question) => question.counts === null)).toBe(true);
    const refused = await ctx.call(admin.jar, 'GET', `/api/loops/${few.id}/results/csv?roundId=${fewRound}`);
    expect(refused.status).toBe(409);
    expect((await json(refused)).error.message).toBe(english(LOOP_MESSAGES.resultsNotReleased));
    const otherRound = await ctx.call(admin.jar, 'GET', `/api/loops/${few.id}/results?roundId=${roundId}`);
    expect(otherRound.status).toBe(404);
  });
});

describe("'Preview Results' (no round asked for)", () => {
  it('opens the newest round whose results show, not a round just opened; before any, the newest says when', async () => {
    const people = await addPeople(ctx, admin.workspaceId, 3);
    const audience = { kind: 'members' as const, memberIds: people.map((p) => p.memberId) };
    const loop = await launchLoop(ctx, admin.jar, admin.workspaceId, { audience, title: 'Preview pulse' });
    const first = await json<LoopResults>(await ctx.call(admin.jar, 'GET', `/api/loops/${loop.id}/results`));
    expect(first.round).toMatchObject({
      number: 1,
      state: 'collecting',
      message: english(LOOP_MESSAGES.collecting),
    });

    const released = await runRound(loop.id, people, [
      { scale: 4, enps: 9 },
      { scale: 3, enps: 8 },
      { scale: 5, enps: 10 },
    ]);
    const next = await ctx.call(admin.jar, 'POST', `/api/loops/${loop.id}/rounds`);
    expect(next.status).toBe(201);
    const results = await json<LoopResults>(
      await ctx.call(admin.jar, 'GET', `/api/loops/${loop.id}/results`),
    );
    expect(results.rounds.map((round) => round.number)).toEqual([2, 1]);
    expect(results.round).toMatchObject({ id: released, number: 1, state: 'released' });
    const csv = await ctx.call(admin.jar, 'GET', `/api/loops/${loop.id}/results/csv`);
    expect(csv.status).toBe(200);
    expect(await csv.text()).toContain('Preview pulse,1,');
  });
});

describe('the dashboard', () => {
  it('lists loops with their current round, and counts them under each filter', async () => {
    await addPeople(ctx, admin.workspaceId, 3);
    const active = await launchLoop(ctx, admin.jar, admin.workspaceId, { title: 'Active loop' });
    const stopped = await launchLoop(ctx, admin.jar, admin.workspaceId, { title: 'Stopped loop' });
    await ctx.call(admin.jar, 'POST', `/api/loops/${stopped.id}/stop`);
    const paused = await launchLoop(ctx, admin.jar, admin.workspaceId, { title: 'Paused loop' });
    await ctx.call(admin.jar, 'POST', `/api/loops/${paused.id}/pause`);

    const dashboard = await json<DashboardResponse>(await ctx.call(admin.jar, 'GET', '/api/dashboard'));
    const byId = new Map(dashboard.loops.map((item) => [item.id, item]));
    expect(byId.get(active.id)).toMatchObject({
      kind: 'loop',
      status: 'active',
      loopStatus: 'active',
      currentRound: 1,
      roundOpen: true,
      link: `/admin/completion-status/${active.id}`,
    });
    expect(byId.get(stopped.id)).toMatchObject({
      status: 'completed',
      link: `/admin/loop-results/${stopped.id}`,
    });
    expect(byId.get(paused.id)).toMatchObject({ status: 'active', loopStatus: 'paused' });
    const loopStats = dashboard.statsByFilter.loops;
    expect(loopStats.activeCount + loopStats.completedCount).toBe(dashboard.loops.length);
    expect(loopStats.completedCount).toBe(dashboard.loops.filter((l) => l.status === 'completed').length);
    expect(
      dashboard.statsByFilter['health-checks'].activeCount +
        dashboard.statsByFilter['health-checks'].completedCount,
    ).toBe(dashboard.items.length);
    expect(dashboard.statsByFilter.all).toEqual(dashboard.stats);
    expect(dashboard.stats.activeCount + dashboard.stats.completedCount).toBe(
      dashboard.items.length + dashboard.loops.length,
    );
  });
});
