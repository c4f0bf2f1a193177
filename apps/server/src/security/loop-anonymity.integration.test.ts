import type { LoopDetail } from '@pulsecheck/shared/loops/contract';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { useAdmin } from '../test/accounts';
import { useTestContext } from '../test/harness';
import { addPeople, answerByLink, answerToken, launchLoop } from '../test/loops';
import { json } from '../test/requests';

/**
 * Anonymity against the database (docs/decisions/0009-loops.md): after an anonymous round closes, someone who
 * reads every table must not be able to tell who gave which answer.
 */
const ctx = useTestContext();
const admin = useAdmin(ctx, { companyName: 'Anonymous Co' });

const columnsOf = async (table: string) =>
  (
    await queryRows<{ column_name: string }>(
      ctx.deps.db,
      sql`select column_name from information_schema.columns where table_name = ${table} order by ordinal_position`,
    )
  ).map((row) => row.column_name);

describe('an anonymous round against the database', () => {
  it('stores answers with nothing that leads back to their authors once the round has closed', async () => {
    const people = await addPeople(ctx, admin.workspaceId, 12);
    const launched = await launchLoop(ctx, admin.jar, admin.workspaceId);
    const loop = (
      await json<{ loop: LoopDetail }>(await ctx.call(admin.jar, 'GET', `/api/loops/${launched.id}`))
    ).loop;
    const roundId = loop.currentRound!.id;
    // Each person answers in turn with a value that tells them apart: 1..5 cycling, and their name as free text.
    for (const [index, person] of people.entries()) {
      const response = await answerByLink(ctx, await answerToken(ctx, person.email), {
        scale: (index % 5) + 1,
        enps: index % 11,
        text: `answer of ${person.name}`,
      });
      expect(response.status).toBe(201);
    }
    const close = await ctx.call(admin.jar, 'POST', `/api/loops/${launched.id}/rounds/${roundId}/close`);
    expect(close.status).toBe(200);

    // What the tables can hold: no member, user, token, time or sequence on a response or an answer.
    expect(await columnsOf('loop_responses')).toEqual([
      'id',
      'round_id',
      'anonymous',
      'member_id',
      'continuation_hash',
    ]);
    expect(await columnsOf('loop_answers')).toEqual(['response_id', 'question_id', 'score', 'text']);
    expect(await columnsOf('loop_round_ledger')).toEqual(['round_id', 'member_id']);

    // What they do hold after the close.
    const responses = await queryRows<{
      id: string;
      member_id: string | null;
      continuation_hash: string | null;
      xmin: string;
      ctid: string;
    }>(
      ctx.deps.db,
      sql`select id, member_id, continuation_hash, xmin::text as xmin, ctid::text as ctid
          from loop_responses where round_id = ${roundId} order by ctid`,
    );
    expect(responses).toHaveLength(12);
    expect(responses.every((r) => r.member_id === null && r.continuation_hash === null)).toBe(true);
    // Random ids (version 4), not time-ordered ones.
    expect(responses.every((r) => /^[0-9a-f]{8}-[0-9a-f]{4}-4/.test(r.id))).toBe(true);
    // Every response was written by the closing transaction: its xmin says nothing of when each came in, and
    // matches no ledger row.
    expect(new Set(responses.map((r) => r.xmin)).size).toBe(1);
    const ledger = await queryRows<{ member_id: string; xmin: string }>(
      ctx.deps.db,
      sql`select member_id, xmin::text as xmin from loop_round_ledger where round_id = ${roundId}`,
    );
    expect(ledger).toHaveLength(12);
    expect(ledger.some((row) => row.xmin === responses[0]!.xmin)).toBe(false);

    // The answers lie on disk in an order unrelated to arrival: the free texts read in physical order are not the
    // order people answered in (12! orders; the chance of the arrival order by luck is negligible).
    const texts = await queryRows<{ text: string }>(
      ctx.deps.db,
      sql`select a.text from loop_answers a join loop_responses r on r.id = a.response_id
          where r.round_id = ${roundId} and a.text is not null order by r.ctid`,
    );
    const arrival = people.map((p) => `answer of ${p.name}`);
    expect(texts.map((t) => t.text)).not.toEqual(arrival);
    expect([...texts.map((t) => t.text)].sort()).toEqual([...arrival].sort());

    // Nothing else in the database names a response: no notification, job or e-mail carries an answer.
    const leaks = await queryRows<{ n: number }>(
      ctx.deps.db,
      sql`select ((select count(*) from jobs where payload::text like '%answer of%')
                + (select count(*) from notifications where message like '%answer of%')
                + (select count(*) from mail_outbox where text like '%answer of%'))::int as n`,
    );
    expect(leaks[0]!.n).toBe(0);
  });

  it('refuses at the database a member on an anonymous response', async () => {
    const [person] = await addPeople(ctx, admin.workspaceId, 3);
    const launched = await launchLoop(ctx, admin.jar, admin.workspaceId);
    const loop = (
      await json<{ loop: LoopDetail }>(await ctx.call(admin.jar, 'GET', `/api/loops/${launched.id}`))
    ).loop;
    await expect(
      ctx.deps.db.execute(
        sql`insert into loop_responses (round_id, anonymous, member_id) values (${loop.currentRound!.id}, true, ${person!.memberId})`,
      ),
    ).rejects.toThrow();
    // Nor can a response claim to be of a non-anonymous round when its round is anonymous.
    await expect(
      ctx.deps.db.execute(
        sql`insert into loop_responses (round_id, anonymous, member_id) values (${loop.currentRound!.id}, false, ${person!.memberId})`,
      ),
    ).rejects.toThrow();
  });
});
