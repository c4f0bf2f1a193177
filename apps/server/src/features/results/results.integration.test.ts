import { eq } from 'drizzle-orm';
import { PARTICIPATION_RATINGS, type ParticipationRating } from '@pulsecheck/shared/participation/rules';
import type { ResultsResponse } from '@pulsecheck/shared/results/schemas';
import { describe, expect, it } from 'vitest';
import { healthCheckComponents, healthCheckVotes, healthChecks } from '../../db/schema/health-checks';
import { jobs } from '../../db/schema/messaging';
import { runDueJobs } from '../../jobs/queue';
import { createAdmin, signedInParticipant, signedInUser, useAdmin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import {
  addComment,
  addParticipants,
  addRatings,
  createCheck,
  rateAll,
  setParticipantStatus,
  setPhase,
} from '../../test/health-checks';
import { latestMail } from '../../test/mail';
import type { Jar } from '../../test/requests';
import { FOLLOW_UP_JOB } from './queries';
import { sendFollowUp } from './service';

const ctx = useTestContext();
const admin = useAdmin(ctx);
const outsider = useAdmin(ctx);

/** A small deterministic generator, so a failure can be replayed from its seed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

async function getResults(jar: Jar, id: string) {
  const response = await ctx.call(jar, 'GET', `/api/health-checks/${id}/results`);
  return { status: response.status, body: (await response.json()) as ResultsResponse };
}

describe('aggregation', () => {
  it.each([1, 2, 3])('SQL counts and dots equal a naive count on random data (seed %i)', async (seed) => {
    const next = random(seed);
    const check = await createCheck(ctx, admin, { phase: 'summarize', componentCount: 8 });
    const people = await addParticipants(ctx, check, 12 + Math.floor(next() * 10));
    const ratings = people.flatMap((p) =>
      check.components
        .filter(() => next() > 0.15)
        .map((c) => ({
          participantId: p.participantId,
          componentId: c.id,
          rating: PARTICIPATION_RATINGS[Math.floor(next() * 4)]!,
        })),
    );
    await addRatings(ctx, check.healthCheckId, ratings);
    const votes = people.flatMap((p) =>
      check.components
        .filter(() => next() > 0.7)
        .map((c) => ({
          healthCheckId: check.healthCheckId,
          participantId: p.participantId,
          componentId: c.id,
          count: 1 + Math.floor(next() * 2),
        })),
    );
    if (votes.length) await ctx.deps.db.insert(healthCheckVotes).values(votes);

    const { status, body } = await getResults(admin.jar, check.healthCheckId);
    expect(status).toBe(200);
    expect(body.release.state).toBe('released');
    expect(body.components).toHaveLength(8);
    for (const component of body.components!) {
      const mine = ratings.filter((r) => r.componentId === component.id);
      const count = (rating: ParticipationRating) => mine.filter((r) => r.rating === rating).length;
      expect(component).toMatchObject({
        healthy: count('healthy'),
        needsImprovement: count('needs-improvement'),
        fireWarning: count('fire-warning'),
        dontKnow: count('dont-know'),
        total: mine.length,
        dots: votes.filter((v) => v.componentId === component.id).reduce((s, v) => s + v.count, 0),
      });
    }
    // Prioritized: fire warnings, then dots, then needs improvement, then template order.
    const keys = body.components!.map((c) => [
      -c.fireWarning,
      -(c.dots ?? 0),
      -c.needsImprovement,
      c.orderIndex,
    ]);
    const sorted = [...keys].sort((a, b) => a[0]! - b[0]! || a[1]! - b[1]! || a[2]! - b[2]! || a[3]! - b[3]!);
    expect(keys).toEqual(sorted);
    expect(body.components!.map((c) => c.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(body.participants).toEqual({ total: people.length, completed: people.length });
  });

  it('labels the overall health from all ratings, and says No Ratings for a check nobody rated', async () => {
    const unrated = await createCheck(ctx, admin, { phase: 'summarize', componentCount: 2 });
    await addParticipants(ctx, unrated, 3);
    expect((await getResults(admin.jar, unrated.healthCheckId)).body.overallHealth).toBe('No Ratings');
    const check = await createCheck(ctx, admin, { phase: 'summarize', componentCount: 2 });
    const people = await addParticipants(ctx, check, 3);
    // 6 ratings, 2 fire warnings (33%): Needs Immediate Attention.
    await rateAll(ctx, check, people, (i, j) =>
      i === 0 ? 'fire-warning' : j === 0 ? 'healthy' : 'dont-know',
    );
    const { body } = await getResults(admin.jar, check.healthCheckId);
    expect(body.overallHealth).toBe('Needs Immediate Attention');
    expect(body.components![0]).toMatchObject({ fireWarning: 1 });
  });
});

describe('stored counts', () => {
  const storedCounts = async (id: string) =>
    (
      await ctx.deps.db
        .select({ ratingCounts: healthChecks.ratingCounts })
        .from(healthChecks)
        .where(eq(healthChecks.id, id))
    )[0]?.ratingCounts;

  it('counts the ratings on the first read once collection has ended, and reads the stored counts from then on', async () => {
    const check = await createCheck(ctx, admin, { phase: 'collect', componentCount: 2 });
    const people = await addParticipants(ctx, check, 3);
    await rateAll(ctx, check, people, (i) => (i === 0 ? 'fire-warning' : 'healthy'));
    const [first, second] = check.components;

    // While the check collects nothing is stored, whoever reads (an admin sees no figures yet either).
    expect((await getResults(admin.jar, check.healthCheckId)).body.components).toBeNull();
    expect(await storedCounts(check.healthCheckId)).toBeNull();

    await setPhase(ctx, check.healthCheckId, 'vote');
    let { body } = await getResults(admin.jar, check.healthCheckId);
    expect(body.components!.find((c) => c.id === first!.id)).toMatchObject({ healthy: 2, fireWarning: 1 });
    expect(new Set(await storedCounts(check.healthCheckId))).toEqual(
      new Set([
        [first!.id, 'fire-warning', 1],
        [first!.id, 'healthy', 2],
        [second!.id, 'fire-warning', 1],
        [second!.id, 'healthy', 2],
      ]),
    );

    // A rating written behind the server's back after collection (submit refuses it) changes nothing: the
    // figures are the stored ones.
    const late = await addParticipants(ctx, check, 1, { status: 'completed' });
    await addRatings(ctx, check.healthCheckId, [
      { participantId: late[0]!.participantId, componentId: first!.id, rating: 'dont-know' },
    ]);
    await setPhase(ctx, check.healthCheckId, 'summarize');
    ({ body } = await getResults(admin.jar, check.healthCheckId));
    expect(body.components!.find((c) => c.id === first!.id)).toMatchObject({
      healthy: 2,
      fireWarning: 1,
      dontKnow: 0,
      total: 3,
    });
  });

  it('stores an empty list for a check nobody rated, and its results say No Ratings', async () => {
    const check = await createCheck(ctx, admin, { phase: 'summarize', componentCount: 2 });
    await addParticipants(ctx, check, 3);
    expect((await getResults(admin.jar, check.healthCheckId)).body.overallHealth).toBe('No Ratings');
    expect(await storedCounts(check.healthCheckId)).toEqual([]);
  });
});

describe('release and anonymity threshold', () => {
  it('gives nobody per-component figures below minResponses, and says how many are missing', async () => {
    const check = await createCheck(ctx, admin, { phase: 'summarize', settings: { minResponses: 4 } });
    const people = await addParticipants(ctx, check, 2);
    await addParticipants(ctx, check, 3, { status: 'in_progress' });
    await rateAll(ctx, check, people, () => 'fire-warning');
    const { status, body } = await getResults(admin.jar, check.healthCheckId);
    expect(status).toBe(200);
    expect(body.release).toEqual({ state: 'below-threshold', missingResponses: 2 });
    expect(body.components).toBeNull();
    expect(body.overallHealth).toBeNull();
    expect(body.actionItems).toBeNull();
    expect(JSON.stringify(body)).not.toMatch(/fireWarning|healthy"/);
    const csv = await ctx.call(admin.jar, 'GET', `/api/health-checks/${check.healthCheckId}/results/csv`);
    expect(csv.status).toBe(409);
    expect(((await csv.json()) as { error: { message: string } }).error.message).toBe(
      '2 more responses are needed before results can be shown',
    );
  });

  it('releases to a participant who completed once collection has ended, never before', async () => {
    const check = await createCheck(ctx, admin, { phase: 'collect' });
    const done = await addParticipants(ctx, check, 3);
    const me = await signedInParticipant(ctx, check, 'completed');
    const late = await addParticipants(ctx, check, 1, { status: 'in_progress' });
    await rateAll(ctx, check, done, () => 'healthy');

    let { body } = await getResults(me.jar, check.healthCheckId);
    expect(body.release.state).toBe('collecting');
    expect(body.components).toBeNull();
    expect(body.viewer).toEqual({ manages: false, canPlan: false, isParticipant: true });

    // Everyone completed, and the check still collects: still nothing (PRODUCT-DECISIONS 3).
    await setParticipantStatus(ctx, late[0]!.participantId, 'completed');
    ({ body } = await getResults(me.jar, check.healthCheckId));
    expect(body.release.state).toBe('collecting');
    expect(body.components).toBeNull();

    await setPhase(ctx, check.healthCheckId, 'vote');
    ({ body } = await getResults(me.jar, check.healthCheckId));
    expect(body.release.state).toBe('released');
    expect(body.components).not.toBeNull();

    // A participant who has not completed never sees figures, even when the check is completed.
    const unfinished = await signedInParticipant(ctx, check, 'in_progress');
    await ctx.deps.db
      .update(healthChecks)
      .set({ phase: 'summarize', status: 'completed', completedAt: new Date() })
      .where(eq(healthChecks.id, check.healthCheckId));
    ({ body } = await getResults(unfinished.jar, check.healthCheckId));
    expect(body.release.state).toBe('not-released');
    ({ body } = await getResults(me.jar, check.healthCheckId));
    expect(body.release.state).toBe('released');
  });

  it('withholds results from participants when showResultsAfterVoting is false, not from admins', async () => {
    const check = await createCheck(ctx, admin, {
      phase: 'summarize',
      settings: { showResultsAfterVoting: false },
    });
    const people = await addParticipants(ctx, check, 3);
    const me = await signedInParticipant(ctx, check, 'completed');
    await rateAll(ctx, check, people, () => 'healthy');
    let { body } = await getResults(me.jar, check.healthCheckId);
    expect(body.release.state).toBe('withheld');
    expect(body.components).toBeNull();
    ({ body } = await getResults(admin.jar, check.healthCheckId));
    expect(body.release.state).toBe('released');
    const csv = await ctx.call(me.jar, 'GET', `/api/health-checks/${check.healthCheckId}/results/csv`);
    expect(csv.status).toBe(409);
  });

  it('answers 404 with no figures to outsiders, strangers and malformed ids', async () => {
    const check = await createCheck(ctx, admin, { phase: 'summarize' });
    await rateAll(ctx, check, await addParticipants(ctx, check, 3), () => 'fire-warning');
    const stranger = await signedInUser(ctx);
    for (const jar of [outsider.jar, stranger.jar]) {
      for (const path of ['results', 'results/csv', 'votes', 'members']) {
        const response = await ctx.call(jar, 'GET', `/api/health-checks/${check.healthCheckId}/${path}`);
        expect(response.status).toBe(404);
        const text = await response.text();
        expect(text).toContain('not found');
        expect(text).not.toMatch(/fire|healthy"|Check hc-/i);
      }
      const plan = await ctx.call(jar, 'POST', `/api/health-checks/${check.healthCheckId}/plan`);
      expect(plan.status).toBe(404);
    }
    const bad = await ctx.call(admin.jar, 'GET', '/api/health-checks/not-a-uuid/results');
    expect(bad.status).toBe(404);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toBe(
      'Health check not found',
    );
    const signedOut = await ctx.request('GET', `/api/health-checks/${check.healthCheckId}/results`);
    expect(signedOut.status).toBe(401);
  });
});

describe('anonymity', () => {
  it('never sends a rater, participant or user id, and shows comments as Anonymous', async () => {
    const check = await createCheck(ctx, admin, { phase: 'summarize' });
    const people = await addParticipants(ctx, check, 4, {
      names: ['Alice Ng', 'Bob Ray', 'Cleo Fox', 'Dan Oak'],
    });
    const ids = await rateAll(ctx, check, people, (i) => PARTICIPATION_RATINGS[i % 4]!);
    for (const [index, person] of people.entries()) {
      await addComment(ctx, {
        participantId: person.participantId,
        ratingId: ids.get(`${person.participantId}:${check.components[0]!.id}`)!,
        content: `Comment number ${index}`,
      });
    }
    const me = await signedInParticipant(ctx, check, 'completed');
    for (const jar of [admin.jar, me.jar]) {
      const response = await ctx.call(jar, 'GET', `/api/health-checks/${check.healthCheckId}/results`);
      const text = await response.text();
      for (const person of people) {
        for (const secret of [person.userId, person.participantId, person.name, person.email]) {
          expect(text).not.toContain(secret);
        }
      }
      for (const ratingId of ids.values()) expect(text).not.toContain(ratingId);
      const body = JSON.parse(text) as ResultsResponse;
      const comments = body.components!.find((c) => c.id === check.components[0]!.id)!.comments;
      expect(comments).toHaveLength(4);
      expect(new Set(comments.map((c) => c.author))).toEqual(new Set(['Anonymous']));
      expect(Object.keys(comments[0]!).sort()).toEqual(['author', 'content']);
    }
  });

  it("shows the participant's name on comments when allowAnonymous is false", async () => {
    const check = await createCheck(ctx, admin, { phase: 'summarize', settings: { allowAnonymous: false } });
    const people = await addParticipants(ctx, check, 3, { names: ['Eve Lin', 'Finn Moe', 'Gus Roy'] });
    const ids = await rateAll(ctx, check, people, () => 'healthy');
    await addComment(ctx, {
      participantId: people[1]!.participantId,
      ratingId: ids.get(`${people[1]!.participantId}:${check.components[2]!.id}`)!,
      content: 'Signed comment',
      anonymous: false,
    });
    const { body } = await getResults(admin.jar, check.healthCheckId);
    const component = body.components!.find((c) => c.id === check.components[2]!.id)!;
    expect(component.comments).toEqual([{ author: 'Finn Moe', content: 'Signed comment' }]);
  });
});

describe('fallback texts (spec section 8)', () => {
  it("shows 'Untitled Component' and 'Uncategorized' for blank titles and categories", async () => {
    const check = await createCheck(ctx, admin, { phase: 'summarize', componentCount: 2 });
    await rateAll(ctx, check, await addParticipants(ctx, check, 3), () => 'healthy');
    await ctx.deps.db
      .update(healthCheckComponents)
      .set({ title: '  ', category: null })
      .where(eq(healthCheckComponents.id, check.components[1]!.id));
    const { body } = await getResults(admin.jar, check.healthCheckId);
    expect(body.components!.find((c) => c.id === check.components[1]!.id)).toMatchObject({
      title: 'Untitled Component',
      category: 'Uncategorized',
    });
  });
});

describe('trend', () => {
  it("compares with the workspace's previous completed check by component key", async () => {
    const ws = await createAdmin(ctx);
    const before = await createCheck(ctx, ws, {
      phase: 'plan',
      keys: ['c1', 'c2', 'c3'],
      completedAt: new Date(Date.now() - 90 * 24 * 3600 * 1000),
    });
    await rateAll(ctx, before, await addParticipants(ctx, before, 4), (_, j) =>
      j === 0 ? 'fire-warning' : j === 1 ? 'healthy' : 'needs-improvement',
    );
    const now = await createCheck(ctx, ws, { phase: 'summarize', keys: ['c1', 'c2', 'c4'] });
    await rateAll(ctx, now, await addParticipants(ctx, now, 4), (_, j) =>
      j === 0 ? 'healthy' : j === 1 ? 'fire-warning' : 'healthy',
    );
    const { body } = await getResults(ws.jar, now.healthCheckId);
    expect(body.trend?.previous).toMatchObject({
      id: before.healthCheckId,
      overallHealth: 'Needs Immediate Attention',
    });
    const byKey = Object.fromEntries(body.components!.map((c) => [c.key, c.trend]));
    expect(byKey).toEqual({ c1: 'better', c2: 'worse', c4: null });
  });
});

describe('Plan Actions', () => {
  it('moves summarize to plan for an admin (a repeat is harmless); 403 for a member who did not create it', async () => {
    const check = await createCheck(ctx, admin, { phase: 'summarize' });
    const people = await addParticipants(ctx, check, 3);
    await rateAll(ctx, check, people, () => 'healthy');
    const member = await signedInUser(ctx, { workspaceId: admin.workspaceId, access: 'member' });
    let { body } = await getResults(member.jar, check.healthCheckId);
    expect(body.viewer).toMatchObject({ manages: true, canPlan: false });
    const refused = await ctx.call(member.jar, 'POST', `/api/health-checks/${check.healthCheckId}/plan`);
    expect(refused.status).toBe(403);

    ({ body } = await getResults(admin.jar, check.healthCheckId));
    expect(body.viewer.canPlan).toBe(true);
    const moved = await ctx.call(admin.jar, 'POST', `/api/health-checks/${check.healthCheckId}/plan`);
    expect(moved.status).toBe(200);
    ({ body } = await getResults(admin.jar, check.healthCheckId));
    expect(body.healthCheck.phase).toBe('plan');
    expect(body.viewer.canPlan).toBe(false);
    const again = await ctx.call(admin.jar, 'POST', `/api/health-checks/${check.healthCheckId}/plan`);
    expect(again.status).toBe(200);
    ({ body } = await getResults(admin.jar, check.healthCheckId));
    expect(body.healthCheck.phase).toBe('plan');
  });

  it('refuses to plan a check still collecting', async () => {
    const check = await createCheck(ctx, admin, { phase: 'collect' });
    const response = await ctx.call(admin.jar, 'POST', `/api/health-checks/${check.healthCheckId}/plan`);
    expect(response.status).toBe(409);
  });
});

describe('export and follow-up', () => {
  it('exports the prioritized results as CSV, defusing formula-like text', async () => {
    const check = await createCheck(ctx, admin, {
      phase: 'summarize',
      componentCount: 3,
      title: '=Q3 check',
    });
    await rateAll(ctx, check, await addParticipants(ctx, check, 3), (_, j) =>
      j === 2 ? 'fire-warning' : 'healthy',
    );
    const response = await ctx.call(
      admin.jar,
      'GET',
      `/api/health-checks/${check.healthCheckId}/results/csv`,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/csv');
    expect(response.headers.get('content-disposition')).toContain('q3-check-results.csv');
    const lines = (await response.text()).trim().split('\r\n');
    expect(lines[0]).toBe(
      "Rank,Component,Category,Healthy,Needs Improvement,Fire Warning,Don't Know,Total Ratings,Dots,Trend,Action Items,Actions since last check",
    );
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^1,.*,0,0,3,0,3,0,(better|same|worse)?,,$/);
  });

  it('schedules one follow-up job per check (a new date replaces it), offers an .ics and e-mails the creator', async () => {
    const check = await createCheck(ctx, admin, { phase: 'summarize' });
    const url = `/api/health-checks/${check.healthCheckId}/follow-up`;
    const past = await ctx.call(admin.jar, 'POST', url, { date: '2020-01-01' });
    expect(past.status).toBe(400);
    const first = await ctx.call(admin.jar, 'POST', url, { date: '2099-03-01' });
    expect(first.status).toBe(200);
    await ctx.call(admin.jar, 'POST', url, { date: '2099-03-01' });
    const second = await ctx.call(admin.jar, 'POST', url, { date: '2099-04-15' });
    const scheduled = (await second.json()) as { date: string; icsUrl: string };
    expect(scheduled.date).toBe('2099-04-15');
    const rows = (await ctx.deps.db.select().from(jobs).where(eq(jobs.kind, FOLLOW_UP_JOB))).filter(
      (j) => j.payload.healthCheckId === check.healthCheckId,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.runAt.toISOString()).toBe('2099-04-15T09:00:00.000Z');
    const { body } = await getResults(admin.jar, check.healthCheckId);
    expect(body.followUp).toEqual({ date: '2099-04-15' });

    const ics = await ctx.call(admin.jar, 'GET', scheduled.icsUrl);
    expect(ics.headers.get('content-type')).toContain('text/calendar');
    const text = await ics.text();
    expect(text).toContain('DTSTART;VALUE=DATE:20990415');
    expect(text).toContain('BEGIN:VEVENT\r\n');

    await ctx.deps.db
      .update(jobs)
      .set({ runAt: new Date(Date.now() - 1000) })
      .where(eq(jobs.id, rows[0]!.id));
    await runDueJobs({
      db: ctx.deps.db,
      logger: ctx.deps.logger,
      handlers: { [FOLLOW_UP_JOB]: (payload) => sendFollowUp(ctx.deps, payload) },
    });
    const mail = await latestMail(ctx, admin.email, 'follow-up');
    expect(mail.text).toContain(`/admin/health-check/${check.healthCheckId}/results`);
  });
});
