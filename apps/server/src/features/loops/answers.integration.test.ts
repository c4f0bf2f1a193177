import type { LoopDetail, MyLoopRound, RoundToAnswer } from '@pulsecheck/shared/loops/contract';
import { LOOP_MESSAGES } from '@pulsecheck/shared/loops/rules';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { queryRows } from '../../db/client';
import { loopAnswers, loopResponses, loopRoundLedger } from '../../db/schema/loops';
import { signedInUser, useAdmin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import {
  addPeople,
  answerByLink,
  answerToken,
  completion,
  launchLoop,
  roundMail,
  roundQuestionIds,
} from '../../test/loops';
import { english, json } from '../../test/requests';

const ctx = useTestContext();
const admin = useAdmin(ctx, { companyName: 'Answers Co' });

const currentRound = async (loopId: string) =>
  (await json<{ loop: LoopDetail }>(await ctx.call(admin.jar, 'GET', `/api/loops/${loopId}`))).loop
    .currentRound!;

/** Rows a round holds: ledger, responses, answers. */
async function rowsOf(roundId: string) {
  const [row] = await queryRows<{ ledger: number; responses: number; answers: number }>(
    ctx.deps.db,
    sql`select (select count(*) from loop_round_ledger where round_id = ${roundId})::int as ledger,
               (select count(*) from loop_responses where round_id = ${roundId})::int as responses,
               (select count(*) from loop_answers a join loop_responses r on r.id = a.response_id
                 where r.round_id = ${roundId})::int as answers`,
  );
  return row!;
}

describe('one answer per member and round', () => {
  it('keeps exactly one of 50 parallel submits from one member; the others are told they answered', async () => {
    const [person] = await addPeople(ctx, admin.workspaceId, 3);
    const loop = await launchLoop(ctx, admin.jar, admin.workspaceId);
    const token = await answerToken(ctx, person!.email);
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => answerByLink(ctx, token, { text: 'once' })),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    for (const response of responses.filter((r) => r.status === 409))
      expect((await json(response)).error.code).toBe('already_answered');
    expect(await rowsOf((await currentRound(loop.id)).id)).toEqual({ ledger: 1, responses: 1, answers: 3 });
  });
});

describe('bad input and faults', () => {
  it('refuses a bad answer with a message per question and writes nothing', async () => {
    const [person] = await addPeople(ctx, admin.workspaceId, 3);
    const loop = await launchLoop(ctx, admin.jar, admin.workspaceId);
    const token = await answerToken(ctx, person!.email);
    const [scale, enps, text] = await roundQuestionIds(ctx, token);
    const cases: [Record<string, unknown>, string][] = [
      [{ [enps!.id]: 5 }, english(LOOP_MESSAGES.answerRequired)],
      [{ [scale!.id]: 6, [enps!.id]: 5 }, english(LOOP_MESSAGES.scaleAnswer)],
      [{ [scale!.id]: 2.5, [enps!.id]: 5 }, english(LOOP_MESSAGES.scaleAnswer)],
      [{ [scale!.id]: 3, [enps!.id]: 11 }, english(LOOP_MESSAGES.enpsAnswer)],
      [
        { [scale!.id]: 3, [enps!.id]: 5, [text!.id]: 'x'.repeat(2001) },
        english(LOOP_MESSAGES.textAnswerTooLong),
      ],
      [{ [scale!.id]: 3, [enps!.id]: 5, [crypto.randomUUID()]: 1 }, english(LOOP_MESSAGES.unknownQuestion)],
    ];
    for (const [answers, message] of cases) {
      const response = await ctx.request('POST', `/api/loop-answer/${token}`, { body: { answers } });
      expect(response.status, message).toBe(400);
      expect((await json(response)).error.message).toBe(message);
    }
    expect(await rowsOf((await currentRound(loop.id)).id)).toEqual({ ledger: 0, responses: 0, answers: 0 });
  });

  it('answers a forged link 404, and a link of an earlier round "This round has closed"', async () => {
    const [person] = await addPeople(ctx, admin.workspaceId, 3);
    const loop = await launchLoop(ctx, admin.jar, admin.workspaceId);
    const forged = await ctx.request('GET', `/api/loop-answer/${'A'.repeat(43)}`);
    expect(forged.status).toBe(404);
    expect((await json(forged)).error.message).toBe('This answer link is not valid');
    const oldToken = await answerToken(ctx, person!.email);

    const next = await ctx.call(admin.jar, 'POST', `/api/loops/${loop.id}/rounds`);
    expect(next.status).toBe(201);
    const old = await answerByLink(ctx, oldToken);
    expect(old.status).toBe(409);
    expect((await json(old)).error).toMatchObject({
      code: 'round_closed',
      message: english(LOOP_MESSAGES.roundClosed),
    });
    const page = await json<RoundToAnswer>(await ctx.request('GET', `/api/loop-answer/${oldToken}`));
    expect(page).toMatchObject({ state: 'round-closed', message: english(LOOP_MESSAGES.roundClosed) });
    // The new round's link is another one, and works.
    const newToken = await answerToken(ctx, person!.email);
    expect(newToken).not.toBe(oldToken);
    expect((await answerByLink(ctx, newToken)).status).toBe(201);
  });

  it('refuses answers while paused and once stopped, and takes them again after resuming', async () => {
    const [person] = await addPeople(ctx, admin.workspaceId, 3);
    const loop = await launchLoop(ctx, admin.jar, admin.workspaceId);
    const token = await answerToken(ctx, person!.email);
    expect((await ctx.call(admin.jar, 'POST', `/api/loops/${loop.id}/pause`)).status).toBe(200);
    const paused = await answerByLink(ctx, token);
    expect((await json(paused)).error).toMatchObject({
      code: 'loop_paused',
      message: english(LOOP_MESSAGES.loopPaused),
    });
    const resumed = await json<{ loop: LoopDetail }>(
      await ctx.call(admin.jar, 'POST', `/api/loops/${loop.id}/resume`),
    );
    expect(resumed.loop.status).toBe('active');
    expect(resumed.loop.nextRoundAt).not.toBeNull();
    expect((await answerByLink(ctx, token)).status).toBe(201);

    const stopped = await json<{ loop: LoopDetail }>(
      await ctx.call(admin.jar, 'POST', `/api/loops/${loop.id}/stop`),
    );
    expect(stopped.loop).toMatchObject({ status: 'completed', nextRoundAt: null, currentRound: null });
    const after = await ctx.request('GET', `/api/loop-answer/${token}`);
    expect((await json<RoundToAnswer>(after)).state).toBe('already-answered');
    const resume = await ctx.call(admin.jar, 'POST', `/api/loops/${loop.id}/resume`);
    expect(resume.status).toBe(409);
    expect((await json(resume)).error.code).toBe('loop_ended');
  });
});

describe('one-click answers from the e-mail', () => {
  it("opening a value's link records nothing: the page and the API only read; the press posts it", async () => {
    const [person] = await addPeople(ctx, admin.workspaceId, 3);
    const loop = await launchLoop(ctx, admin.jar, admin.workspaceId);
    const round = await currentRound(loop.id);
    const mail = await roundMail(ctx, person!.email);
    const link = new URL(/https?:\/\/\S+\/loop-answer\/[\w-]+\?answer=4(?=\s|$)/m.exec(mail.text)![0]);
    const token = link.pathname.split('/').at(-1)!;
    // The web app as the server serves it: the link's GET answers the page.
    const webDir = mkdtempSync(path.join(tmpdir(), 'pulsecheck-web-'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Pulsecheck</title>');
    const app = createApp(ctx.deps, { webDir });

    const opened = [
      await app.request(`${link.pathname}${link.search}`),
      await app.request(`${link.pathname}${link.search}`, { method: 'HEAD' }),
      await app.request(`/api/loop-answer/${token}?answer=4`),
      await app.request(`/api/loop-answer/${token}/quick?value=4`),
    ];
    expect(opened.map((response) => response.status)).toEqual([200, 200, 200, 404]);
    expect(await opened[0]!.text()).toContain('<title>Pulsecheck</title>');
    expect(await rowsOf(round.id)).toEqual({ ledger: 0, responses: 0, answers: 0 });
    expect((await completion(ctx, admin.jar, loop.id)).current?.answeredBy).toEqual([]);

    const sent = await ctx.request('POST', `/api/loop-answer/${token}/quick`, { body: { value: 4 } });
    expect(sent.status).toBe(201);
    expect(await rowsOf(round.id)).toEqual({ ledger: 1, responses: 1, answers: 1 });
    const [answer] = await ctx.deps.db
      .select({ score: loopAnswers.score })
      .from(loopAnswers)
      .innerJoin(loopResponses, eq(loopResponses.id, loopAnswers.responseId))
      .where(eq(loopResponses.roundId, round.id));
    expect(answer?.score).toBe(4);
  });

  it('records the first answer, then the rest with the continuation; a second click is refused', async () => {
    const [person] = await addPeople(ctx, admin.workspaceId, 3);
    const loop = await launchLoop(ctx, admin.jar, admin.workspaceId);
    const token = await answerToken(ctx, person!.email);
    const [, enps, text] = await roundQuestionIds(ctx, token);
    const round = await currentRound(loop.id);

    const bad = await ctx.request('POST', `/api/loop-answer/${token}/quick`, { body: { value: 9 } });
    expect(bad.status).toBe(400);
    expect((await json(bad)).error.message).toBe(english(LOOP_MESSAGES.scaleAnswer));
    expect(await rowsOf(round.id)).toEqual({ ledger: 0, responses: 0, answers: 0 });

    const quick = await ctx.request('POST', `/api/loop-answer/${token}/quick`, { body: { value: 2 } });
    expect(quick.status).toBe(201);
    const { continuation } = await json<{ continuation: string }>(quick);
    expect(await rowsOf(round.id)).toEqual({ ledger: 1, responses: 1, answers: 1 });
    const again = await ctx.request('POST', `/api/loop-answer/${token}/quick`, { body: { value: 5 } });
    expect((await json(again)).error.code).toBe('already_answered');

    const rest = await ctx.request('POST', '/api/loop-responses/continue', {
      body: { continuation, answers: { [enps!.id]: 7, [text!.id]: 'More focus time' } },
    });
    expect(rest.status).toBe(200);
    expect(await rowsOf(round.id)).toEqual({ ledger: 1, responses: 1, answers: 3 });
    const unknown = await ctx.request('POST', '/api/loop-responses/continue', {
      body: { continuation: 'x'.repeat(43), answers: {} },
    });
    expect(unknown.status).toBe(404);

    // Closing seals the round: the continuation leads nowhere afterwards.
    await ctx.call(admin.jar, 'POST', `/api/loops/${loop.id}/rounds/${round.id}/close`);
    const sealed = await ctx.request('POST', '/api/loop-responses/continue', {
      body: { continuation, answers: { [enps!.id]: 1 } },
    });
    expect(sealed.status).toBe(404);
    const scores = await ctx.deps.db
      .select({ score: loopAnswers.score })
      .from(loopAnswers)
      .innerJoin(loopResponses, eq(loopResponses.id, loopAnswers.responseId))
      .where(eq(loopResponses.roundId, round.id));
    expect(scores.map((s) => s.score).sort()).toEqual([2, 7, null]);
  });
});

describe('signed-in members', () => {
  it('see their open rounds on /dashboard and answer them; others get 404', async () => {
    const member = await signedInUser(ctx, { workspaceId: admin.workspaceId, access: 'member' });
    const outsider = await signedInUser(ctx);
    await addPeople(ctx, admin.workspaceId, 2);
    const loop = await launchLoop(ctx, admin.jar, admin.workspaceId, { title: 'Signed-in pulse' });
    const mine = await json<{ rounds: MyLoopRound[] }>(
      await ctx.call(member.jar, 'GET', '/api/my/loop-rounds'),
    );
    const round = mine.rounds.find((r) => r.loopId === loop.id);
    expect(round).toMatchObject({ title: 'Signed-in pulse', number: 1, answered: false });
    expect(round?.link).toBe(`/loop-rounds/${round?.roundId}`);

    const form = await json<RoundToAnswer>(
      await ctx.call(member.jar, 'GET', `/api/loop-rounds/${round!.roundId}/answer`),
    );
    expect(form.state).toBe('open');
    const [scale, enps] = form.questions;
    const body = { answers: { [scale!.id]: 4, [enps!.id]: 9 } };
    expect(
      (await ctx.call(member.jar, 'POST', `/api/loop-rounds/${round!.roundId}/answer`, body)).status,
    ).toBe(201);
    const twice = await ctx.call(member.jar, 'POST', `/api/loop-rounds/${round!.roundId}/answer`, body);
    expect((await json(twice)).error.message).toBe(english(LOOP_MESSAGES.alreadyAnswered));
    const after = await json<{ rounds: MyLoopRound[] }>(
      await ctx.call(member.jar, 'GET', '/api/my/loop-rounds'),
    );
    expect(after.rounds.find((r) => r.loopId === loop.id)?.answered).toBe(true);

    for (const method of ['GET', 'POST'] as const) {
      const response = await ctx.call(
        outsider.jar,
        method,
        `/api/loop-rounds/${round!.roundId}/answer`,
        method === 'POST' ? body : undefined,
      );
      expect(response.status).toBe(404);
      expect((await json(response)).error.message).toBe('Round not found');
    }
    const ledger = await ctx.deps.db
      .select()
      .from(loopRoundLedger)
      .where(eq(loopRoundLedger.roundId, round!.roundId));
    expect(ledger).toHaveLength(1);
  });
});
