import { type Participation } from '@pulsecheck/shared/participation/contract';
import { PARTICIPATION_MESSAGES as M } from '@pulsecheck/shared/participation/rules';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { user } from '../../db/schema/auth';
import { comments, healthCheckRatings, participants } from '../../db/schema/health-checks';
import { notifications } from '../../db/schema/messaging';
import { workspaceMembers } from '../../db/schema/organizations';
import { NUL_MESSAGE } from '../../lib/router';
import { createAdmin, joinedParticipant, signUpParticipant, useAdmin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { allRated, createCheck, setPhase } from '../../test/health-checks';
import { english, type Jar, json } from '../../test/requests';

const ctx = useTestContext();
const admin = useAdmin(ctx);
async function participantRow(id: string) {
  const [row] = await ctx.deps.db.select().from(participants).where(eq(participants.id, id));
  return row;
}

describe('join info (public)', () => {
  it('tells a signed-out visitor the title and whether the check takes participants', async () => {
    const check = await createCheck(ctx, admin, { title: 'Platform team check' });
    const response = await ctx.request('GET', `/api/join/${check.healthCheckId}`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: check.healthCheckId,
      title: 'Platform team check',
      acceptingParticipants: true,
      // The branding of the check's organisation, nothing else of it (this one has set none).
      branding: { organizationName: 'Acme Rockets', logoUrl: null, accentColor: null },
    });
    const unknown = await ctx.request('GET', `/api/join/${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error.message).toBe(english(M.notFound));
    // A malformed id is not found, like an unknown one (one answer for every id in a path).
    expect((await ctx.request('GET', '/api/join/not-a-uuid')).status).toBe(404);
  });
});

describe('join', () => {
  it('needs a session', async () => {
    const check = await createCheck(ctx, admin);
    const response = await ctx.request('POST', `/api/health-checks/${check.healthCheckId}/join`);
    expect(response.status).toBe(401);
  });

  it('registers a participant membership and a pending participant, and clears the pending join', async () => {
    const check = await createCheck(ctx, admin);
    const person = await signUpParticipant(ctx, check.healthCheckId);
    const [before] = await ctx.deps.db.select().from(user).where(eq(user.id, person.userId));
    expect(before?.pendingJoinHealthCheckId).toBe(check.healthCheckId);

    const response = await ctx.call(person.jar, 'POST', `/api/health-checks/${check.healthCheckId}/join`);
    expect(response.status).toBe(200);
    const body = await json<{ participantId: string; redirectTo: string }>(response);
    expect(body.redirectTo).toBe(`/health-check/${check.healthCheckId}/voting`);
    expect((await participantRow(body.participantId))?.status).toBe('pending');
    const members = await ctx.deps.db
      .select()
      .from(workspaceMembers)
      .where(
        and(eq(workspaceMembers.userId, person.userId), eq(workspaceMembers.workspaceId, admin.workspaceId)),
      );
    expect(members.map((m) => [m.access, m.status])).toEqual([['participant', 'active']]);
    const [after] = await ctx.deps.db.select().from(user).where(eq(user.id, person.userId));
    expect(after?.pendingJoinHealthCheckId).toBeNull();

    // The participant goes home to their check, never to admin pages.
    const me = await json<{ user: { home: string; canAdmin: boolean } }>(
      await ctx.call(person.jar, 'GET', '/api/me'),
    );
    expect(me.user.canAdmin).toBe(false);
  });

  it('registers once under 20 concurrent requests', async () => {
    const check = await createCheck(ctx, admin);
    const person = await signUpParticipant(ctx, check.healthCheckId);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        ctx.call(person.jar, 'POST', `/api/health-checks/${check.healthCheckId}/join`),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const ids = new Set(
      await Promise.all(responses.map(async (r) => (await json<{ participantId: string }>(r)).participantId)),
    );
    expect(ids.size).toBe(1);
    const rows = await ctx.deps.db.select().from(participants).where(eq(participants.userId, person.userId));
    expect(rows).toHaveLength(1);
    const members = await ctx.deps.db
      .select()
      .from(workspaceMembers)
      .where(eq(workspaceMembers.userId, person.userId));
    expect(members).toHaveLength(1);
  });

  it('keeps an admin an admin when they join their own check', async () => {
    const check = await createCheck(ctx, admin);
    const response = await ctx.call(admin.jar, 'POST', `/api/health-checks/${check.healthCheckId}/join`);
    expect(response.status).toBe(200);
    const [membership] = await ctx.deps.db
      .select()
      .from(workspaceMembers)
      .where(
        and(eq(workspaceMembers.userId, admin.userId), eq(workspaceMembers.workspaceId, admin.workspaceId)),
      );
    expect(membership?.access).toBe('admin');
  });

  it('refuses unknown checks and checks that no longer collect; lets existing participants back in', async () => {
    const check = await createCheck(ctx, admin);
    const person = await joinedParticipant(ctx, check.healthCheckId);
    const unknown = await ctx.call(person.jar, 'POST', `/api/health-checks/${crypto.randomUUID()}/join`);
    expect(unknown.status).toBe(404);
    expect((await json(unknown)).error.message).toBe('Health check not found');

    await setPhase(ctx, check.healthCheckId, 'vote');
    const newcomer = await signUpParticipant(ctx, check.healthCheckId);
    const late = await ctx.call(newcomer.jar, 'POST', `/api/health-checks/${check.healthCheckId}/join`);
    expect(late.status).toBe(409);
    expect((await json(late)).error.message).toBe(
      'Health check is not accepting participants (status: phase_2)',
    );
    expect(
      await ctx.deps.db.select().from(participants).where(eq(participants.userId, newcomer.userId)),
    ).toEqual([]);
    const again = await ctx.call(person.jar, 'POST', `/api/health-checks/${check.healthCheckId}/join`);
    expect(again.status).toBe(200);
    expect((await json<{ participantId: string }>(again)).participantId).toBe(person.participantId);
  });
});

describe('participation read', () => {
  it('gives a participant the check, its components in order and the team progress', async () => {
    const check = await createCheck(ctx, admin, { componentCount: 4 });
    const person = await joinedParticipant(ctx, check.healthCheckId);
    await joinedParticipant(ctx, check.healthCheckId);
    const response = await ctx.call(
      person.jar,
      'GET',
      `/api/health-checks/${check.healthCheckId}/participation`,
    );
    expect(response.status).toBe(200);
    const body = await json<Participation>(response);
    expect(body.healthCheck).toMatchObject({ id: check.healthCheckId, phase: 'collect', status: 'phase_1' });
    expect(body.healthCheck.settings.enableComments).toBe(true);
    expect(body.components.map((c) => c.id)).toEqual(check.componentIds);
    expect(body.components[0]).toMatchObject({ category: 'How we communicate', title: '🧭 Decisions' });
    expect(body.components[0]?.examples.length).toBeGreaterThan(0);
    expect(body.participant).toMatchObject({ id: person.participantId, status: 'pending', responses: null });
    expect(body.teamProgress).toEqual({ completed: 0, total: 2 });
    expect(body.preview).toBe(false);
    expect(body.resultsReleased).toBe(false);
  });

  it('answers strangers and members of other workspaces with the membership 403, unknown checks with 404', async () => {
    const check = await createCheck(ctx, admin);
    const stranger = await signUpParticipant(ctx, check.healthCheckId);
    const otherAdmin = await createAdmin(ctx);
    for (const jar of [stranger.jar, otherAdmin.jar]) {
      const response = await ctx.call(jar, 'GET', `/api/health-checks/${check.healthCheckId}/participation`);
      expect(response.status).toBe(403);
      expect((await json(response)).error.message).toBe(english(M.notMember));
      const progress = await ctx.call(jar, 'GET', `/api/health-checks/${check.healthCheckId}/progress`);
      expect(progress.status).toBe(403);
    }
    const unknown = await ctx.call(
      stranger.jar,
      'GET',
      `/api/health-checks/${crypto.randomUUID()}/participation`,
    );
    expect(unknown.status).toBe(404);
    expect((await ctx.request('GET', `/api/health-checks/${check.healthCheckId}/participation`)).status).toBe(
      401,
    );
  });

  it('previews for the admin without registering; a participant cannot ask for a preview', async () => {
    const check = await createCheck(ctx, admin);
    const response = await ctx.call(
      admin.jar,
      'GET',
      `/api/health-checks/${check.healthCheckId}/participation?preview=1`,
    );
    const body = await json<Participation>(response);
    expect(body.preview).toBe(true);
    expect(body.participant).toBeNull();
    expect(
      await ctx.deps.db
        .select()
        .from(participants)
        .where(eq(participants.healthCheckId, check.healthCheckId)),
    ).toEqual([]);
    const person = await joinedParticipant(ctx, check.healthCheckId);
    const own = await json<Participation>(
      await ctx.call(person.jar, 'GET', `/api/health-checks/${check.healthCheckId}/participation?preview=1`),
    );
    expect(own.preview).toBe(false);
  });
});

describe('autosave', () => {
  it('stores interim responses, marks the participant in progress and restores them', async () => {
    const check = await createCheck(ctx, admin, { componentCount: 4 });
    const person = await joinedParticipant(ctx, check.healthCheckId);
    const [a, b] = check.componentIds as [string, string];
    const responses = {
      votes: { [a]: 'healthy', [b]: 'fire-warning' },
      comments: { [b]: 'Too many meetings' },
      last_component_index: 2,
    };
    const url = `/api/health-checks/${check.healthCheckId}/responses`;
    for (let i = 0; i < 2; i += 1) {
      const response = await ctx.call(person.jar, 'PUT', url, responses);
      expect(response.status).toBe(200);
      expect(await json<{ status: string; progress: number }>(response)).toMatchObject({
        status: 'in_progress',
        progress: 50,
      });
    }
    const row = await participantRow(person.participantId);
    expect(row?.responses).toEqual(responses);
    expect(row?.lastActivity).toBeInstanceOf(Date);
    const body = await json<Participation>(
      await ctx.call(person.jar, 'GET', `/api/health-checks/${check.healthCheckId}/participation`),
    );
    expect(body.participant?.responses).toEqual(responses);
    expect(body.participant?.status).toBe('in_progress');
  });

  it('refuses hostile input with 400 and stores nothing', async () => {
    const check = await createCheck(ctx, admin, { componentCount: 3 });
    const other = await createCheck(ctx, admin, { componentCount: 3 });
    const person = await joinedParticipant(ctx, check.healthCheckId);
    const [a] = check.componentIds as [string];
    const url = `/api/health-checks/${check.healthCheckId}/responses`;
    const ok = { votes: { [a]: 'healthy' }, comments: {}, last_component_index: 0 };
    const cases: [unknown, string | RegExp][] = [
      [{ ...ok, votes: { [a]: 'excellent' } }, english(M.invalidRating)],
      [{ ...ok, votes: { [a]: 'HEALTHY' } }, english(M.invalidRating)],
      [{ ...ok, votes: { [other.componentIds[0] as string]: 'healthy' } }, english(M.unknownComponent)],
      [{ ...ok, comments: { [other.componentIds[0] as string]: 'hi' } }, english(M.unknownComponent)],
      [{ ...ok, votes: { 'not-a-uuid': 'healthy' } }, english(M.unknownComponent)],
      [{ ...ok, comments: { [a]: 'x'.repeat(2001) } }, english(M.commentTooLong)],
      [{ ...ok, comments: { [a]: 42 } }, /./],
      [{ ...ok, comments: { [a]: 'a\u0000b' } }, english(NUL_MESSAGE)],
      [{ ...ok, last_component_index: -1 }, /./],
      [{ ...ok, last_component_index: 1.5 }, /./],
      [{ ...ok, status: 'completed' }, /./],
      [{ votes: ok.votes }, /./],
      [[], /./],
      ['healthy', /./],
    ];
    for (const [body, message] of cases) {
      const response = await ctx.call(person.jar, 'PUT', url, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await json(response)).error.message).toMatch(message);
    }
    // A '__proto__' key never reaches the stored answers (the parser drops it).
    await ctx.call(person.jar, 'PUT', url, {
      ...ok,
      votes: JSON.parse('{"__proto__":"healthy"}') as unknown,
    });
    expect(JSON.stringify((await participantRow(person.participantId))?.responses)).not.toContain(
      '__proto__',
    );
    const boundary = await ctx.call(person.jar, 'PUT', url, { ...ok, comments: { [a]: 'x'.repeat(2000) } });
    expect(boundary.status).toBe(200);
    const stored = await participantRow(person.participantId);
    expect(Object.keys(stored?.responses?.votes ?? {})).toEqual([a]);
  });

  it('refuses strangers, other workspaces, members who have not joined, closed rating and completed participants', async () => {
    const check = await createCheck(ctx, admin, { componentCount: 2 });
    const url = `/api/health-checks/${check.healthCheckId}/responses`;
    const body = allRated(check.componentIds);
    const stranger = await signUpParticipant(ctx, check.healthCheckId);
    const otherAdmin = await createAdmin(ctx);
    expect((await ctx.request('PUT', url, { body })).status).toBe(401);
    for (const jar of [stranger.jar, otherAdmin.jar]) {
      const response = await ctx.call(jar, 'PUT', url, body);
      expect(response.status).toBe(403);
      expect((await json(response)).error.message).toBe(english(M.notMember));
    }
    const notJoined = await ctx.call(admin.jar, 'PUT', url, body);
    expect(notJoined.status).toBe(403);

    const done = await joinedParticipant(ctx, check.healthCheckId);
    expect(
      (await ctx.call(done.jar, 'POST', `/api/health-checks/${check.healthCheckId}/submit`, body)).status,
    ).toBe(200);
    const late = await ctx.call(done.jar, 'PUT', url, body);
    expect(late.status).toBe(409);
    expect((await json(late)).error.message).toBe(english(M.alreadySubmitted));
    expect((await participantRow(done.participantId))?.responses).toBeNull();

    const waiting = await joinedParticipant(ctx, check.healthCheckId);
    await setPhase(ctx, check.healthCheckId, 'vote');
    const closed = await ctx.call(waiting.jar, 'PUT', url, body);
    expect(closed.status).toBe(409);
    expect((await json(closed)).error.message).toBe(english(M.ratingClosed));
    expect((await participantRow(waiting.participantId))?.responses).toBeNull();
  });
  it('saves autosaves that arrive together in one go, each with its own progress, refusing only those that may not write', async () => {
    const check = await createCheck(ctx, admin, { componentCount: 4 });
    const closedCheck = await createCheck(ctx, admin, { componentCount: 2 });
    const people = await Promise.all([1, 2, 3, 4].map(() => joinedParticipant(ctx, check.healthCheckId)));
    const done = await joinedParticipant(ctx, check.healthCheckId);
    await ctx.call(
      done.jar,
      'POST',
      `/api/health-checks/${check.healthCheckId}/submit`,
      allRated(check.componentIds),
    );
    const late = await joinedParticipant(ctx, closedCheck.healthCheckId);
    await setPhase(ctx, closedCheck.healthCheckId, 'vote');
    const [a, b, c] = check.componentIds as [string, string, string];
    const bodies = [
      { votes: { [a]: 'healthy' }, comments: {}, last_component_index: 1 },
      { votes: { [a]: 'healthy', [b]: 'dont-know' }, comments: { [c]: 'Later' }, last_component_index: 2 },
      { votes: {}, comments: {}, last_component_index: 9 },
      {
        votes: { [a]: 'fire-warning', [b]: 'healthy', [c]: 'healthy' },
        comments: {},
        last_component_index: 3,
      },
    ];
    const put = (jar: Jar, id: string, body: unknown) =>
      ctx.call(jar, 'PUT', `/api/health-checks/${id}/responses`, body);
    const responses = await Promise.all([
      ...people.map((person, i) => put(person.jar, check.healthCheckId, bodies[i])),
      put(done.jar, check.healthCheckId, bodies[0]),
      put(late.jar, closedCheck.healthCheckId, { votes: {}, comments: {}, last_component_index: 0 }),
      // The same person twice in one go: both answered, the last one kept.
      put(people[0]!.jar, check.healthCheckId, bodies[3]),
    ]);
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 200, 409, 409, 200]);
    expect((await json(responses[4]!)).error.message).toBe(english(M.alreadySubmitted));
    expect((await json(responses[5]!)).error.message).toBe(english(M.ratingClosed));
    const progress = await Promise.all(
      responses.slice(1, 4).map(async (r) => (await json<{ progress: number }>(r)).progress),
    );
    expect(progress).toEqual([50, 0, 75]);
    for (const [i, person] of people.entries()) {
      if (i === 0) continue;
      const row = await participantRow(person.participantId);
      expect(row?.responses).toEqual({
        ...bodies[i],
        last_component_index: i === 2 ? 3 : bodies[i]!.last_component_index,
      });
    }
    expect((await participantRow(people[0]!.participantId))?.responses).toEqual(bodies[3]);
    expect((await participantRow(late.participantId))?.responses).toBeNull();
  });
});

describe('submit', () => {
  it('needs every component rated', async () => {
    const check = await createCheck(ctx, admin, { componentCount: 4 });
    const person = await joinedParticipant(ctx, check.healthCheckId);
    const [a] = check.componentIds as [string];
    const response = await ctx.call(person.jar, 'POST', `/api/health-checks/${check.healthCheckId}/submit`, {
      votes: { [a]: 'healthy' },
      comments: {},
      last_component_index: 0,
    });
    expect(response.status).toBe(400);
    expect((await json(response)).error.message).toBe(
      'You have 3 unanswered components. Please complete all ratings before submitting.',
    );
    expect(
      await ctx.deps.db
        .select()
        .from(healthCheckRatings)
        .where(eq(healthCheckRatings.participantId, person.participantId)),
    ).toEqual([]);
  });

  it('stores ratings and trimmed non-blank comments once, completes the participant and refuses a second submit', async () => {
    const check = await createCheck(ctx, admin, { componentCount: 3 });
    const person = await joinedParticipant(ctx, check.healthCheckId);
    await joinedParticipant(ctx, check.healthCheckId);
    const [a, b, c] = check.componentIds as [string, string, string];
    await ctx.call(person.jar, 'PUT', `/api/health-checks/${check.healthCheckId}/responses`, allRated([a]));
    const body = allRated(check.componentIds, { [a]: '  Meetings run long  ', [b]: '   ', [c]: '' });
    const response = await ctx.call(
      person.jar,
      'POST',
      `/api/health-checks/${check.healthCheckId}/submit`,
      body,
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      redirectTo: `/health-check/${check.healthCheckId}/complete`,
      teamProgress: { completed: 1, total: 2 },
    });
    const ratings = await ctx.deps.db
      .select()
      .from(healthCheckRatings)
      .where(eq(healthCheckRatings.participantId, person.participantId));
    expect(ratings.map((r) => [r.componentId, r.rating]).sort()).toEqual(Object.entries(body.votes).sort());
    const stored = await ctx.deps.db
      .select()
      .from(comments)
      .where(eq(comments.participantId, person.participantId));
    expect(stored.map((s) => s.content)).toEqual(['Meetings run long']);
    expect(stored[0]?.targetId).toBe(ratings.find((r) => r.componentId === a)?.id);
    expect(stored[0]?.targetType).toBe('health_check_rating');
    const row = await participantRow(person.participantId);
    expect(row).toMatchObject({ status: 'completed', responses: null, progress: 100 });
    expect(row?.completedAt).toBeInstanceOf(Date);

    const second = await ctx.call(
      person.jar,
      'POST',
      `/api/health-checks/${check.healthCheckId}/submit`,
      allRated(check.componentIds, { [b]: 'changed my mind' }),
    );
    expect(second.status).toBe(409);
    expect((await json(second)).error.message).toBe(english(M.alreadySubmitted));
    expect(
      (await ctx.deps.db.select().from(comments).where(eq(comments.participantId, person.participantId)))
        .length,
    ).toBe(1);
    expect(
      (
        await ctx.deps.db
          .select()
          .from(healthCheckRatings)
          .where(eq(healthCheckRatings.participantId, person.participantId))
      )
        .map((r) => r.rating)
        .sort(),
    ).toEqual(Object.values(body.votes).sort());

    // A completed participant reads their check as completed, without interim responses.
    const read = await json<Participation>(
      await ctx.call(person.jar, 'GET', `/api/health-checks/${check.healthCheckId}/participation`),
    );
    expect(read.participant?.status).toBe('completed');
    expect(read.resultsReleased).toBe(false);
  });

  it('submits exactly once under 50 concurrent submits', async () => {
    const check = await createCheck(ctx, admin, { componentCount: 5 });
    const person = await joinedParticipant(ctx, check.healthCheckId);
    const body = allRated(check.componentIds, { [check.componentIds[0] as string]: 'One comment' });
    const responses = await Promise.all(
      Array.from({ length: 50 }, () =>
        ctx.call(person.jar, 'POST', `/api/health-checks/${check.healthCheckId}/submit`, body),
      ),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    const [counts] = await queryRows<{ ratings: number; comments: number; notes: number }>(
      ctx.deps.db,
      sql`select (select count(*)::int from health_check_ratings where participant_id = ${person.participantId}) as ratings,
                 (select count(*)::int from comments where participant_id = ${person.participantId}) as comments,
                 (select count(*)::int from notifications where health_check_id = ${check.healthCheckId} and type = 'new-response') as notes`,
    );
    expect(counts).toEqual({ ratings: 5, comments: 1, notes: 1 });
  });

  it('refuses strangers, other workspaces and submits after rating closed', async () => {
    const check = await createCheck(ctx, admin, { componentCount: 2 });
    const body = allRated(check.componentIds);
    const url = `/api/health-checks/${check.healthCheckId}/submit`;
    const stranger = await signUpParticipant(ctx, check.healthCheckId);
    const otherAdmin = await createAdmin(ctx);
    for (const jar of [stranger.jar, otherAdmin.jar]) {
      const response = await ctx.call(jar, 'POST', url, body);
      expect(response.status).toBe(403);
    }
    const waiting = await joinedParticipant(ctx, check.healthCheckId);
    await setPhase(ctx, check.healthCheckId, 'vote');
    const closed = await ctx.call(waiting.jar, 'POST', url, body);
    expect(closed.status).toBe(409);
    expect((await json(closed)).error.message).toBe(english(M.ratingClosed));
    expect(
      await ctx.deps.db
        .select()
        .from(healthCheckRatings)
        .where(eq(healthCheckRatings.healthCheckId, check.healthCheckId)),
    ).toEqual([]);
  });

  it('tells the creator of each response, and e-mails them once everyone has completed', async () => {
    const check = await createCheck(ctx, admin, {
      componentCount: 2,
      settings: { minResponses: 2 },
      title: 'Design team check',
    });
    const people = [
      await joinedParticipant(ctx, check.healthCheckId),
      await joinedParticipant(ctx, check.healthCheckId),
    ];
    // notify() delivers the e-mail through a job, by the creator's preferences (on by default).
    const mailsTo = async () =>
      queryRows<{ id: string }>(
        ctx.deps.db,
        sql`select id from jobs where kind = 'notification-email' and payload->>'userId' = ${admin.userId}
            and payload->>'type' = 'all-completed' and payload->>'healthCheckId' = ${check.healthCheckId}`,
      );
    const events: string[] = [];
    const off = ctx.deps.realtime.subscribe(
      [`health-check:${check.healthCheckId}`, `workspace:${admin.workspaceId}`],
      (e) => events.push(`${e.topic.split(':')[0]}:${e.type}`),
    );

    await ctx.call(
      people[0]!.jar,
      'POST',
      `/api/health-checks/${check.healthCheckId}/submit`,
      allRated(check.componentIds),
    );
    expect(await mailsTo()).toHaveLength(0);
    await ctx.call(
      people[1]!.jar,
      'POST',
      `/api/health-checks/${check.healthCheckId}/submit`,
      allRated(check.componentIds),
    );
    expect(await mailsTo()).toHaveLength(1);
    const notes = await ctx.deps.db
      .select({ type: notifications.type })
      .from(notifications)
      .where(
        and(eq(notifications.userId, admin.userId), eq(notifications.healthCheckId, check.healthCheckId)),
      );
    // 1 of 2 is at least half (a completion milestone); 2 of 2 is everyone (notifications/milestones tests).
    expect(notes.map((n) => n.type).sort()).toEqual([
      'all-completed',
      'completion-milestone',
      'new-response',
      'new-response',
    ]);
    await expect.poll(() => events.filter((e) => e.endsWith('health-check-changed')).length).toBe(4);
    off();

    // Everyone has completed, but the check still collects: nothing is released before collection ends.
    const read = await json<Participation>(
      await ctx.call(people[0]!.jar, 'GET', `/api/health-checks/${check.healthCheckId}/participation`),
    );
    expect(read.resultsReleased).toBe(false);
    expect(read.teamProgress).toEqual({ completed: 2, total: 2 });
  });

  // Milestones for every team size, once each, also under concurrent completions: features/notifications.
});

describe('my health checks', () => {
  it("lists the participant's checks with status and team progress", async () => {
    const first = await createCheck(ctx, admin, { componentCount: 1, title: 'First check' });
    const second = await createCheck(ctx, admin, { componentCount: 1, title: 'Second check' });
    const person = await joinedParticipant(ctx, first.healthCheckId);
    await ctx.call(person.jar, 'POST', `/api/health-checks/${second.healthCheckId}/join`);
    await ctx.call(
      person.jar,
      'POST',
      `/api/health-checks/${first.healthCheckId}/submit`,
      allRated(first.componentIds),
    );
    const response = await ctx.call(person.jar, 'GET', '/api/my/health-checks');
    expect(response.status).toBe(200);
    const body = await json<{
      healthChecks: { id: string; title: string; participantStatus: string; teamProgress: unknown }[];
    }>(response);
    expect(body.healthChecks.map((c) => [c.title, c.participantStatus])).toEqual([
      ['Second check', 'pending'],
      ['First check', 'completed'],
    ]);
    expect(body.healthChecks[1]?.teamProgress).toEqual({ completed: 1, total: 1 });
    const stranger = await signUpParticipant(ctx, first.healthCheckId);
    expect(await json(await ctx.call(stranger.jar, 'GET', '/api/my/health-checks'))).toEqual({
      healthChecks: [],
    });
  });
});
