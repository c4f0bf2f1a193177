import type { HealthCheckSettings } from '@pulsecheck/shared/health-checks/schemas';
import type { ResultsResponse } from '@pulsecheck/shared/results/schemas';
import type { VotingState } from '@pulsecheck/shared/voting/schemas';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { comments, healthChecks, participants } from '../db/schema/health-checks';
import { digestLines } from '../features/account/notification-jobs';
import { digestFor } from '../features/account/queries';
import type { RealtimeEvent } from '../realtime/bus';
import { signedInParticipant, useAdmin } from '../test/accounts';
import { useTestContext } from '../test/harness';
import {
  addComment,
  addParticipants,
  createCheck,
  rateAll,
  setPhase,
  type CheckFixture,
} from '../test/health-checks';
import { json, type Jar } from '../test/requests';

/**
 * Issue "Trust", participants' privacy (PRODUCT-DECISIONS 3): a facilitator cannot learn who said what by any
 * route, setting, event or timing. Each test reproduces an attack that worked before the fix.
 */

const ctx = useTestContext();
const admin = useAdmin(ctx);
const results = async (jar: Jar, id: string) =>
  json<ResultsResponse>(await ctx.call(jar, 'GET', `/api/health-checks/${id}/results`));
const votingState = async (jar: Jar, id: string) =>
  json<VotingState>(await ctx.call(jar, 'GET', `/api/health-checks/${id}/votes`));
const storedSettings = async (id: string) =>
  (
    await ctx.deps.db.select({ s: healthChecks.settings }).from(healthChecks).where(eq(healthChecks.id, id))
  )[0]!.s;

const newCheck = (options: {
  phase?: 'collect' | 'vote' | 'summarize';
  settings?: Partial<HealthCheckSettings>;
}) => createCheck(ctx, admin, { componentCount: 3, ...options });

/** Rates every component through the real submit route, with one comment on the first component. */
async function submitThroughApi(check: CheckFixture, comment: string) {
  const person = await signedInParticipant(ctx, check, 'in_progress');
  const votes = Object.fromEntries(check.components.map((c) => [c.id, 'healthy']));
  const response = await ctx.call(person.jar, 'POST', `/api/health-checks/${check.healthCheckId}/submit`, {
    votes,
    comments: { [check.components[0]!.id]: comment },
    last_component_index: check.components.length - 1,
  });
  expect(response.status).toBe(200);
  return person;
}

describe('1. protective settings only get stricter once anyone has joined', () => {
  const put = (id: string, settings: HealthCheckSettings) =>
    ctx.call(admin.jar, 'PUT', `/api/health-checks/${id}/settings`, settings);

  it('refuses lowering minResponses, turning anonymity off and comments back on, and changes nothing', async () => {
    const check = await newCheck({
      settings: { minResponses: 3, allowAnonymous: true, enableComments: false },
    });
    await addParticipants(ctx, check, 1, { status: 'in_progress' });
    const before = await storedSettings(check.healthCheckId);

    for (const [change, field] of [
      [{ minResponses: 1 }, 'minResponses'],
      [{ allowAnonymous: false }, 'allowAnonymous'],
      [{ enableComments: true }, 'enableComments'],
    ] as const) {
      const response = await put(check.healthCheckId, { ...before, ...change });
      expect(response.status).toBe(409);
      const body = await json<{ error: { message: string; fields: Record<string, string> } }>(response);
      expect(body.error.message).toBe(
        'People have joined this health check, so the settings that protect them can only get stricter',
      );
      expect(Object.keys(body.error.fields)).toEqual([field]);
    }
    expect(await storedSettings(check.healthCheckId)).toEqual(before);

    // Stricter is always fine; votesPerPerson and showResultsAfterVoting protect no one and stay free.
    const stricter = { ...before, minResponses: 5, votesPerPerson: 2, showResultsAfterVoting: false };
    expect((await put(check.healthCheckId, stricter)).status).toBe(200);
    expect(await storedSettings(check.healthCheckId)).toEqual(stricter);
  });

  it('lets the facilitator change anything before anyone has joined', async () => {
    const check = await newCheck({ settings: { minResponses: 3, allowAnonymous: true } });
    const looser = { ...(await storedSettings(check.healthCheckId)), minResponses: 1, allowAnonymous: false };
    expect((await put(check.healthCheckId, looser)).status).toBe(200);
  });

  it('keeps the anonymity each comment was written under, whatever the check says later', async () => {
    const check = await newCheck({ settings: { minResponses: 1, allowAnonymous: true } });
    await submitThroughApi(check, 'Written as anonymous');
    const [stored] = await ctx.deps.db
      .select({ anonymous: comments.anonymous })
      .from(comments)
      .where(eq(comments.healthCheckId, check.healthCheckId));
    expect(stored?.anonymous).toBe(true);
    // Even if the setting were switched off by some other way (an old row, a direct change), no name shows.
    await ctx.deps.db
      .update(healthChecks)
      .set({ settings: { ...(await storedSettings(check.healthCheckId)), allowAnonymous: false } })
      .where(eq(healthChecks.id, check.healthCheckId));
    await setPhase(ctx, check.healthCheckId, 'summarize');
    const body = await results(admin.jar, check.healthCheckId);
    const authors = body.components!.flatMap((c) => c.comments.map((x) => x.author));
    expect(authors).toEqual(['Anonymous']);
  });

  it('shows a signed comment anonymously once the check has turned anonymity on (the stricter wins)', async () => {
    const check = await newCheck({ settings: { minResponses: 1, allowAnonymous: false } });
    const person = await submitThroughApi(check, 'Written with my name');
    let body = await (async () => {
      await setPhase(ctx, check.healthCheckId, 'summarize');
      return results(admin.jar, check.healthCheckId);
    })();
    expect(body.components!.flatMap((c) => c.comments.map((x) => x.author))).toEqual([person.name]);
    await ctx.deps.db
      .update(healthChecks)
      .set({ settings: { ...(await storedSettings(check.healthCheckId)), allowAnonymous: true } })
      .where(eq(healthChecks.id, check.healthCheckId));
    body = await results(admin.jar, check.healthCheckId);
    expect(body.components!.flatMap((c) => c.comments.map((x) => x.author))).toEqual(['Anonymous']);
  });
});

describe('2. no one-by-one diffs while the check collects', () => {
  it('shows managers progress only: no per-component figure, comment, health or CSV until collection ends', async () => {
    const check = await newCheck({ settings: { minResponses: 3 } });
    const people = await addParticipants(ctx, check, 4);
    const ids = await rateAll(ctx, check, people, (i) => (i === 0 ? 'fire-warning' : 'healthy'));
    await addComment(ctx, {
      participantId: people[0]!.participantId,
      ratingId: ids.get(`${people[0]!.participantId}:${check.components[0]!.id}`)!,
      content: 'Only I would say this',
    });

    const body = await results(admin.jar, check.healthCheckId);
    expect(body.release).toEqual({ state: 'collecting', missingResponses: 0 });
    expect(body.components).toBeNull();
    expect(body.overallHealth).toBeNull();
    expect(body.participants).toEqual({ total: 4, completed: 4 });
    expect(JSON.stringify(body)).not.toContain('Only I would say this');
    expect(
      (await ctx.call(admin.jar, 'GET', `/api/health-checks/${check.healthCheckId}/results/csv`)).status,
    ).toBe(409);
    const voting = await votingState(admin.jar, check.healthCheckId);
    expect(voting.components.every((c) => c.counts === null)).toBe(true);

    // The weekly digest of a collecting check names no health label either.
    const lines = digestLines(
      (await digestFor(ctx.deps.db, admin.userId, new Date(0))).filter((r) => r.id === check.healthCheckId),
    );
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('results open when collection ends');
    expect(lines[0]).not.toMatch(/Healthy|Attention|Mixed/);

    // Collection ends: the figures open, for everyone at once.
    await setPhase(ctx, check.healthCheckId, 'vote');
    const open = await results(admin.jar, check.healthCheckId);
    expect(open.release.state).toBe('released');
    expect(open.components!.find((c) => c.id === check.components[0]!.id)!.fireWarning).toBe(1);
  });

  it('keeps dot totals and the order they would give hidden while voting runs', async () => {
    const check = await newCheck({ phase: 'vote', settings: { minResponses: 2 } });
    const people = await addParticipants(ctx, check, 2);
    await rateAll(ctx, check, people, () => 'healthy');
    const voter = await signedInParticipant(ctx, check);
    const last = check.components[2]!;
    const before = (await results(admin.jar, check.healthCheckId)).components!.map((c) => c.id);
    expect(
      (
        await ctx.call(voter.jar, 'PUT', `/api/health-checks/${check.healthCheckId}/votes`, {
          allocation: { [last.id]: 5 },
        })
      ).status,
    ).toBe(200);
    const after = await results(admin.jar, check.healthCheckId);
    expect(after.components!.map((c) => c.id)).toEqual(before);
    expect(after.components!.every((c) => c.dots === null)).toBe(true);
    expect(after.voting).toEqual({ voted: 1, eligible: 3 });
    const state = await votingState(voter.jar, check.healthCheckId);
    expect(state.components.map((c) => c.id)).toEqual(before);
  });

  it('sends live events that only say what changed, never who or what', async () => {
    const check = await newCheck({ settings: { minResponses: 1 } });
    const seen: RealtimeEvent[] = [];
    const off = ctx.deps.realtime.subscribe(
      [`health-check:${check.healthCheckId}`, `workspace:${check.workspaceId}`],
      (event) => seen.push(event),
    );
    await submitThroughApi(check, 'A private thought');
    await expect.poll(() => seen.length).toBeGreaterThanOrEqual(2);
    off();
    for (const event of seen) {
      expect(event.type).toBe('health-check-changed');
      expect(event.data).toEqual({ healthCheckId: check.healthCheckId });
    }
  });
});

describe('3. vote tallies follow the results', () => {
  it('gives a participant rating counts on the voting view exactly when the results are released to them', async () => {
    const check = await newCheck({ settings: { minResponses: 2 } });
    const people = await addParticipants(ctx, check, 2);
    await rateAll(ctx, check, people, () => 'needs-improvement');
    const done = await signedInParticipant(ctx, check, 'completed');
    const unfinished = await signedInParticipant(ctx, check, 'in_progress');

    const scenarios: [string, () => Promise<void>][] = [
      ['collecting', async () => {}],
      ['voting', () => setPhase(ctx, check.healthCheckId, 'vote')],
      [
        'hidden from participants',
        async () => {
          await ctx.deps.db
            .update(healthChecks)
            .set({
              settings: { ...(await storedSettings(check.healthCheckId)), showResultsAfterVoting: false },
            })
            .where(eq(healthChecks.id, check.healthCheckId));
        },
      ],
    ];
    const outcomes: string[] = [];
    for (const [name, arrange] of scenarios) {
      await arrange();
      for (const [who, person] of [
        ['completed', done],
        ['unfinished', unfinished],
      ] as const) {
        const released = (await results(person.jar, check.healthCheckId)).components !== null;
        const counts = (await votingState(person.jar, check.healthCheckId)).components.some((c) => c.counts);
        expect(counts, `${name}, ${who}`).toBe(released);
        outcomes.push(`${name}/${who}/${released}`);
      }
    }
    // The one case that shows figures: voting has started and the participant completed.
    expect(outcomes.filter((o) => o.endsWith('true'))).toEqual(['voting/completed/true']);
  });
});

describe('4. comments off means off', () => {
  it('stores no comment, in drafts or on submit, and shows none', async () => {
    const check = await newCheck({ settings: { minResponses: 1, enableComments: false } });
    const person = await signedInParticipant(ctx, check, 'in_progress');
    const first = check.components[0]!.id;
    const draft = {
      votes: { [first]: 'healthy' },
      comments: { [first]: 'typed anyway' },
      last_component_index: 0,
    };
    expect(
      (await ctx.call(person.jar, 'PUT', `/api/health-checks/${check.healthCheckId}/responses`, draft))
        .status,
    ).toBe(200);
    const [row] = await ctx.deps.db
      .select({ responses: participants.responses })
      .from(participants)
      .where(eq(participants.id, person.participantId));
    expect(row?.responses?.comments).toEqual({});
    expect(row?.responses?.votes).toEqual({ [first]: 'healthy' });

    await submitThroughApi(check, 'typed again');
    const stored = await ctx.deps.db
      .select()
      .from(comments)
      .where(eq(comments.healthCheckId, check.healthCheckId));
    expect(stored).toEqual([]);
  });

  it('never shows comments of a check whose comments are off, even ones stored earlier', async () => {
    const check = await newCheck({
      phase: 'summarize',
      settings: { minResponses: 1, enableComments: false },
    });
    const people = await addParticipants(ctx, check, 1);
    const ids = await rateAll(ctx, check, people, () => 'healthy');
    await addComment(ctx, {
      participantId: people[0]!.participantId,
      ratingId: ids.get(`${people[0]!.participantId}:${check.components[0]!.id}`)!,
      content: 'From before comments were turned off',
    });
    const body = await results(admin.jar, check.healthCheckId);
    expect(body.components!.every((c) => c.comments.length === 0)).toBe(true);
  });
});
