import type { LoopDetail, LoopResults, RoundToAnswer } from '@pulsecheck/shared/loops/contract';
import { LOOP_MESSAGES } from '@pulsecheck/shared/loops/rules';
import { and, eq, inArray, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loopRoundRecipients } from '../../db/schema/loops';
import { jobs, mailOutbox, notifications } from '../../db/schema/messaging';
import { workspaceMembers } from '../../db/schema/organizations';
import { LIVE_EVENT, topics } from '@pulsecheck/shared/realtime/topics';
import type { RealtimeEvent } from '../../realtime/bus';
import { createAdmin, joinedParticipant, signedInUser, useAdmin } from '../../test/accounts';
import { createCheck } from '../../test/health-checks';
import { useTestContext } from '../../test/harness';
import {
  addPeople,
  answerByLink,
  answerToken,
  completion,
  launchLoop,
  loopBody,
  roundMail,
} from '../../test/loops';
import { english, json } from '../../test/requests';
import { complete, PERSONAL } from '../../mail/outbox';
import { inviteRecipients, LOOP_JOBS, openRound } from './rounds';
import { answerToken as deriveToken } from './tokens';

const ctx = useTestContext();
const admin = useAdmin(ctx, { companyName: 'Loop Co' });

const detail = async (loopId: string, jar = admin.jar) =>
  (await json<{ loop: LoopDetail }>(await ctx.call(jar, 'GET', `/api/loops/${loopId}`))).loop;

describe('launching a loop and its first round', () => {
  it("'Start now' opens round 1 at once: a personal e-mail and a bell notice per member, jobs for the rest", async () => {
    const people = await addPeople(ctx, admin.workspaceId, 4);
    const launched = await launchLoop(ctx, admin.jar, admin.workspaceId, { title: 'Team pulse' });
    expect(launched).toMatchObject({ startedNow: true, mail: 'sending' });

    const loop = await detail(launched.id);
    expect(loop.status).toBe('active');
    expect(loop.currentRound).toMatchObject({ number: 1, status: 'open', answered: 0, anonymous: true });
    // The admin and the four people: everyone active in the workspace when the round opened.
    expect(loop.currentRound?.audience).toBe(5);
    expect(loop.schedule).toBe('Every Monday at 09:00 (Europe/Berlin)');
    expect(new Date(loop.nextRoundAt!).getTime()).toBeGreaterThan(Date.now());

    for (const person of people) {
      const mail = await roundMail(ctx, person.email);
      expect(mail.subject).toBe('Team pulse: round 1 is open');
      expect(mail.text).toContain('/loop-answer/');
      // Each value of the first (scale) question is a one-click link to the answer page.
      for (const value of [1, 2, 3, 4, 5])
        expect(mail.text).toMatch(new RegExp(`/loop-answer/[\\w-]+\\?answer=${value}`));
      const [bell] = await ctx.deps.db
        .select()
        .from(notifications)
        .where(eq(notifications.userId, person.userId));
      expect(bell).toMatchObject({ type: 'loop-round', link: `/loop-rounds/${loop.currentRound!.id}` });
    }
    const tokens = await Promise.all(people.map((p) => answerToken(ctx, p.email)));
    expect(new Set(tokens).size).toBe(4);
    // The database wrote each token (tokens.ts answerTokenSql) exactly as the server derives it for reminders.
    expect(tokens).toEqual(
      people.map((p) => deriveToken(ctx.deps.config.authSecret, loop.currentRound!.id, p.memberId)),
    );

    const pending = await ctx.deps.db
      .select({ kind: jobs.kind })
      .from(jobs)
      .where(and(eq(jobs.status, 'pending')));
    const kinds = pending.map((job) => job.kind);
    expect(kinds).toEqual(expect.arrayContaining([LOOP_JOBS.open, LOOP_JOBS.close, LOOP_JOBS.remind]));
  });

  it("asks the workspace's admins and members only, never people who joined a health check by its link", async () => {
    // An organisation of its own: the file's shared workspace has the people of the tests before.
    const owner = await createAdmin(ctx, { companyName: 'Audience Co' });
    const members = await addPeople(ctx, owner.workspaceId, 2);
    const check = await createCheck(ctx, { workspaceId: owner.workspaceId, userId: owner.userId });
    const linkParticipant = await joinedParticipant(ctx, check.healthCheckId);
    const [membership] = await ctx.deps.db
      .select({ id: workspaceMembers.id, access: workspaceMembers.access })
      .from(workspaceMembers)
      .where(
        and(
          eq(workspaceMembers.workspaceId, owner.workspaceId),
          eq(workspaceMembers.userId, linkParticipant.userId),
        ),
      );
    expect(membership?.access).toBe('participant');

    // Chosen by hand, a link participant is no member a loop may ask.
    const chosen = await ctx.call(
      owner.jar,
      'POST',
      '/api/loops',
      loopBody(owner.workspaceId, {
        audience: { kind: 'members', memberIds: [...members.map((m) => m.memberId), membership!.id] },
      }),
    );
    expect(chosen.status).toBe(400);
    expect(await chosen.text()).toContain(english(LOOP_MESSAGES.audienceMember));

    // 'Everyone': the admin and the two members; the link participant gets no e-mail and no bell notice.
    const launched = await launchLoop(ctx, owner.jar, owner.workspaceId, { title: 'Members only' });
    const loop = await detail(launched.id, owner.jar);
    expect(loop.currentRound?.audience).toBe(3);
    const recipients = await ctx.deps.db
      .select({ memberId: loopRoundRecipients.memberId })
      .from(loopRoundRecipients)
      .where(eq(loopRoundRecipients.roundId, loop.currentRound!.id));
    expect(recipients.map((r) => r.memberId)).not.toContain(membership!.id);
    const mails = await ctx.deps.db
      .select({ subject: mailOutbox.subject })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.to, linkParticipant.email), like(mailOutbox.subject, '%Members only%')));
    expect(mails).toEqual([]);
    const status = await completion(ctx, owner.jar, launched.id);
    expect(JSON.stringify(status)).not.toContain(linkParticipant.userId);
    for (const member of members)
      expect((await roundMail(ctx, member.email)).subject).toContain('Members only');
  });

  it('invites an audience of several batches: each member once, with one e-mail and one bell notice', async () => {
    // 60 people and the admin: three batches on the embedded database (25 each), one on PostgreSQL.
    const owner = await createAdmin(ctx);
    const people = await addPeople(ctx, owner.workspaceId, 60);
    const launched = await launchLoop(ctx, owner.jar, owner.workspaceId, { title: 'Big pulse' });
    const roundId = (await detail(launched.id, owner.jar)).currentRound!.id;
    const recipients = await ctx.deps.db
      .select({ memberId: loopRoundRecipients.memberId })
      .from(loopRoundRecipients)
      .where(eq(loopRoundRecipients.roundId, roundId));
    expect(recipients).toHaveLength(61);
    expect(new Set(recipients.map((r) => r.memberId)).size).toBe(61);
    const emails = people.map((p) => p.email.toLowerCase());
    const mails = await ctx.deps.db
      .select()
      .from(mailOutbox)
      .where(and(inArray(mailOutbox.to, emails), like(mailOutbox.subject, 'Big pulse: round 1 is open')));
    expect(mails.map((m) => m.to).sort()).toEqual([...emails].sort());
    // The round's e-mail is stored once; each message holds only its member's token, and is sent complete.
    expect(new Set(mails.map((m) => m.bodyId)).size).toBe(1);
    expect(mails.every((m) => m.html === null && m.text === null)).toBe(true);
    const sent = await complete(ctx.deps.db, mails);
    for (const [i, mail] of sent.entries()) {
      expect(mail.text).toContain(`/loop-answer/${mails[i]!.personal}`);
      expect(mail.html).toContain(`/loop-answer/${mails[i]!.personal}`);
      expect(mail.text).not.toContain(PERSONAL);
    }
    expect(new Set(mails.map((m) => m.personal)).size).toBe(60);
    const bells = await ctx.deps.db
      .select({ userId: notifications.userId })
      .from(notifications)
      .where(
        and(
          inArray(
            notifications.userId,
            people.map((p) => p.userId),
          ),
          eq(notifications.type, 'loop-round'),
        ),
      );
    expect(bells).toHaveLength(60);
  });

  it('goes on past a batch whose members all left the workspace after the round opened', async () => {
    // More than a batch on either database (30 embedded, 250 PostgreSQL) leaves between the opening and the
    // invitations: the audience is sorted by member id, so the first batches hold only people who left.
    const owner = await createAdmin(ctx);
    const people = await addPeople(ctx, owner.workspaceId, 300);
    const start = new Date(Date.now() + 21 * 86_400_000).toISOString().slice(0, 10);
    const launched = await launchLoop(ctx, owner.jar, owner.workspaceId, { title: 'Leavers pulse', start });
    const round = await ctx.deps.db.transaction((tx) => openRound(ctx.deps, tx, { loopId: launched.id }));
    const byId = [...people].sort((a, b) => (a.memberId < b.memberId ? -1 : 1));
    const [left, stayed] = [byId.slice(0, 260), byId.slice(260)];
    await ctx.deps.db.delete(workspaceMembers).where(
      inArray(
        workspaceMembers.id,
        left.map((p) => p.memberId),
      ),
    );
    await inviteRecipients(ctx.deps, round!.id);
    const recipients = await ctx.deps.db
      .select({ memberId: loopRoundRecipients.memberId })
      .from(loopRoundRecipients)
      .where(eq(loopRoundRecipients.roundId, round!.id));
    const invited = new Set(recipients.map((r) => r.memberId));
    expect(stayed.every((p) => invited.has(p.memberId))).toBe(true);
    expect(left.some((p) => invited.has(p.memberId))).toBe(false);
    expect(invited.size).toBe(stayed.length + 1);
  });

  it('a repeated launch key answers the first launch; nothing is created twice', async () => {
    const body = loopBody(admin.workspaceId);
    const first = await ctx.call(admin.jar, 'POST', '/api/loops', body);
    const second = await ctx.call(admin.jar, 'POST', '/api/loops', body);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect((await json<{ id: string }>(second)).id).toBe((await json<{ id: string }>(first)).id);
  });
});

describe('answering and the completion status', () => {
  it('takes one answer per member by the personal link, names who answered, and reads nothing on GET', async () => {
    const people = await addPeople(ctx, admin.workspaceId, 3);
    const launched = await launchLoop(ctx, admin.jar, admin.workspaceId);
    const [first, second] = people;
    const token = await answerToken(ctx, first!.email);

    const page = await json<RoundToAnswer>(await ctx.request('GET', `/api/loop-answer/${token}`));
    expect(page.state).toBe('open');
    expect(page.questions.map((q) => q.kind)).toEqual(['scale', 'enps', 'text']);
    expect((await completion(ctx, admin.jar, launched.id)).current?.answered).toBe(0);

    const answered = await answerByLink(ctx, token, { scale: 5, enps: 10, text: 'Great week' });
    expect(answered.status).toBe(201);
    const again = await answerByLink(ctx, token);
    expect(again.status).toBe(409);
    expect((await json(again)).error).toMatchObject({
      code: 'already_answered',
      message: english(LOOP_MESSAGES.alreadyAnswered),
    });

    const status = await completion(ctx, admin.jar, launched.id);
    expect(status.current).toMatchObject({ answered: 1 });
    expect(status.current?.answeredBy.map((p) => p.name)).toEqual([first!.name]);
    expect(status.current?.notAnswered.map((p) => p.name)).toContain(second!.name);
    expect(status.current?.timeLeftMs).toBeGreaterThan(0);

    // An open anonymous round shows no figures to anyone.
    const results = await json<LoopResults>(
      await ctx.call(admin.jar, 'GET', `/api/loops/${launched.id}/results`),
    );
    expect(results.round).toMatchObject({ state: 'collecting', message: english(LOOP_MESSAGES.collecting) });
    expect(results.round?.questions.every((q) => q.counts === null && q.texts === null)).toBe(true);
  });

  it('closes the round by its job and shows results once it has the minimum', async () => {
    const people = await addPeople(ctx, admin.workspaceId, 3);
    const launched = await launchLoop(ctx, admin.jar, admin.workspaceId);
    const scores = [
      { scale: 5, enps: 10, text: 'b answer' },
      { scale: 3, enps: 6, text: 'A answer' },
      { scale: 4, enps: 8, text: 'café' },
    ];
    for (const [index, person] of people.entries()) {
      const response = await answerByLink(ctx, await answerToken(ctx, person.email), scores[index]);
      expect(response.status).toBe(201);
    }
    const round = (await detail(launched.id)).currentRound!;
    const close = await ctx.call(admin.jar, 'POST', `/api/loops/${launched.id}/rounds/${round.id}/close`);
    expect(close.status).toBe(200);

    const results = await json<LoopResults>(
      await ctx.call(admin.jar, 'GET', `/api/loops/${launched.id}/results?roundId=${round.id}`),
    );
    expect(results.round).toMatchObject({ state: 'released', status: 'closed', answered: 3 });
    const [scale, enps, text] = results.round!.questions;
    expect(scale).toMatchObject({ counts: [0, 0, 1, 1, 1], mean: 4, answers: 3 });
    expect(enps?.enps).toEqual({ promoters: 1, passives: 1, detractors: 1, score: 0 });
    expect(text?.texts).toEqual([
      { text: 'A answer', author: null },
      { text: 'b answer', author: null },
      { text: 'café', author: null },
    ]);
  });
});

describe('live events', () => {
  it('tell the loop screens that someone answered, with the loop id only, and only to its managers', async () => {
    const [person] = await addPeople(ctx, admin.workspaceId, 3);
    const launched = await launchLoop(ctx, admin.jar, admin.workspaceId);
    const events: RealtimeEvent[] = [];
    const unsubscribe = ctx.deps.realtime.subscribe([topics.loop(launched.id)], (event) =>
      events.push(event),
    );
    try {
      expect(
        (await answerByLink(ctx, await answerToken(ctx, person!.email), { scale: 5, enps: 10 })).status,
      ).toBe(201);
      await expect.poll(() => events.length).toBeGreaterThan(0);
      expect(events[0]).toEqual({
        topic: topics.loop(launched.id),
        type: LIVE_EVENT.loopChanged,
        data: { loopId: launched.id },
      });
    } finally {
      unsubscribe();
    }
    const stranger = await signedInUser(ctx);
    const refused = await ctx.call(stranger.jar, 'GET', `/api/events?topic=${topics.loop(launched.id)}`);
    expect(refused.status).toBe(404);
    const watched = await ctx.call(admin.jar, 'GET', `/api/events?topic=${topics.loop(launched.id)}`);
    expect(watched.status).toBe(200);
    await watched.body?.cancel();
  });
});
