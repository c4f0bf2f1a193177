import type { Language } from '@pulsecheck/shared/i18n/languages';
import { and, asc, eq, getTableColumns, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import { countsOf, type Db, first, queryRows, withClause, type WithQuery } from '../../db/client';
import { recipientLanguageSql } from '../../mail/language';
import {
  loopAnswers,
  loopAudience,
  loopQuestions,
  loopResponses,
  loopRoundLedger,
  loopRoundRecipients,
  loopRounds,
  loops,
} from '../../db/schema/loops';
import { LOOP_AUDIENCE_ACCESS } from '@pulsecheck/shared/loops/rules';

/** SQL of the loops feature. Every figure is counted here (GROUP BY); stats.ts turns counts into figures. */

export type LoopRow = typeof loops.$inferSelect;
export type RoundRow = typeof loopRounds.$inferSelect;
/** A question with the language of its loop, the language its wording is written in. */
export type QuestionRow = typeof loopQuestions.$inferSelect & { language: Language };
const questionColumns = { ...getTableColumns(loopQuestions), language: loops.language };

/** Rows per multi-row insert: few parameters each, far below PostgreSQL's 65,535. */
const CHUNK = 5000;

export async function insertInChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += CHUNK) await insert(rows.slice(start, start + CHUNK));
}

export async function findLoopByLaunchKey(db: Db, userId: string, launchKey: string) {
  return first(
    db
      .select({ id: loops.id, nextRoundAt: loops.nextRoundAt, createdAt: loops.createdAt })
      .from(loops)
      .where(and(eq(loops.createdBy, userId), eq(loops.launchKey, launchKey))),
  );
}

/** Inserts the loop unless this user already launched one with the same key; then returns null. */
export async function insertLoop(db: Db, values: typeof loops.$inferInsert) {
  const [row] = await db
    .insert(loops)
    .values(values)
    .onConflictDoNothing({ target: [loops.createdBy, loops.launchKey] })
    .returning({ id: loops.id });
  return row?.id ?? null;
}

export async function workspaceName(db: Db, workspaceId: string) {
  const [row] = await queryRows<{ name: string }>(
    db,
    sql`select name from workspaces where id = ${workspaceId}`,
  );
  return row?.name ?? null;
}

export const findLoop = (db: Db, loopId: string) =>
  first(db.select().from(loops).where(eq(loops.id, loopId)));

/** The loop's row, locked until the transaction ends: round openings, closes, edits and pauses take turns. */
export const lockLoop = (db: Db, loopId: string) =>
  first(db.select().from(loops).where(eq(loops.id, loopId)).for('update'));

export async function updateLoop(db: Db, loopId: string, values: Partial<typeof loops.$inferInsert>) {
  await db.update(loops).set(values).where(eq(loops.id, loopId));
}

/** The loop's current questions, in order (retired ones left out). */
export const currentQuestions = (db: Db, loopId: string): Promise<QuestionRow[]> =>
  db
    .select(questionColumns)
    .from(loopQuestions)
    .innerJoin(loops, eq(loops.id, loopQuestions.loopId))
    .where(and(eq(loopQuestions.loopId, loopId), isNull(loopQuestions.retiredAt)))
    .orderBy(asc(loopQuestions.position));

export const allQuestions = (db: Db, loopId: string): Promise<QuestionRow[]> =>
  db
    .select(questionColumns)
    .from(loopQuestions)
    .innerJoin(loops, eq(loops.id, loopQuestions.loopId))
    .where(eq(loopQuestions.loopId, loopId))
    .orderBy(asc(loopQuestions.position));

export const questionsById = (db: Db, ids: string[]): Promise<QuestionRow[]> =>
  ids.length === 0
    ? Promise.resolve([])
    : db
        .select(questionColumns)
        .from(loopQuestions)
        .innerJoin(loops, eq(loops.id, loopQuestions.loopId))
        .where(inArray(loopQuestions.id, ids));

export async function insertQuestions(db: Db, rows: (typeof loopQuestions.$inferInsert)[]) {
  if (rows.length === 0) return [];
  return db.insert(loopQuestions).values(rows).returning({ id: loopQuestions.id });
}

export async function retireQuestions(db: Db, ids: string[]) {
  if (ids.length === 0) return;
  await db.update(loopQuestions).set({ retiredAt: new Date() }).where(inArray(loopQuestions.id, ids));
}

export async function updateQuestionTranslations(
  db: Db,
  id: string,
  translations: (typeof loopQuestions.$inferInsert)['translations'],
) {
  await db.update(loopQuestions).set({ translations }).where(eq(loopQuestions.id, id));
}

export async function moveQuestion(db: Db, id: string, position: number) {
  await db.update(loopQuestions).set({ position }).where(eq(loopQuestions.id, id));
}

export async function audienceMemberIds(db: Db, loopId: string) {
  const rows = await db
    .select({ memberId: loopAudience.memberId })
    .from(loopAudience)
    .where(eq(loopAudience.loopId, loopId));
  return rows.map((row) => row.memberId);
}

export async function replaceAudience(db: Db, loopId: string, memberIds: string[]) {
  await db.delete(loopAudience).where(eq(loopAudience.loopId, loopId));
  await insertInChunks(memberIds, (chunk) =>
    db.insert(loopAudience).values(chunk.map((memberId) => ({ loopId, memberId }))),
  );
}

/** A membership a loop's audience may hold: active, with an account, admin or member access (not a link participant). */
const askable = (alias?: string) => {
  const column = (name: string) => sql.raw(alias ? `${alias}.${name}` : name);
  return sql`${column('status')} = 'active' and ${column('user_id')} is not null
    and ${column('access')} = any(${sql.param([...LOOP_AUDIENCE_ACCESS])}::text[])`;
};

/** Which of `memberIds` are members of the workspace a loop may ask (askable). */
export async function activeMembersAmong(db: Db, workspaceId: string, memberIds: string[]) {
  if (memberIds.length === 0) return [];
  const found: string[] = [];
  await insertInChunks(memberIds, async (chunk) => {
    const rows = await queryRows<{ id: string }>(
      db,
      sql`select id from workspace_members
          where workspace_id = ${workspaceId} and ${askable()}
            and id in (${sql.join(
              chunk.map((id) => sql`${id}`),
              sql`, `,
            )})`,
    );
    found.push(...rows.map((row) => row.id));
  });
  return found;
}

export async function countActiveMembers(db: Db, workspaceId: string) {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from workspace_members
        where workspace_id = ${workspaceId} and ${askable()}`,
  );
  return row?.n ?? 0;
}

/** The members a round of the loop goes to now: everyone it may ask, or the chosen ones it still may. */
export const roundAudience = (loop: Pick<LoopRow, 'id' | 'workspaceId' | 'audienceKind'>) =>
  loop.audienceKind === 'all'
    ? sql`select id as member_id from workspace_members
          where workspace_id = ${loop.workspaceId} and ${askable()}`
    : sql`select m.id as member_id from loop_audience a
          join workspace_members m on m.id = a.member_id and ${askable('m')}
          where a.loop_id = ${loop.id}`;

/** A list for `in …`, of at least one value. */
export const inList = (values: readonly string[]) =>
  sql`(${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )})`;

// ---------------------------------------------------------------------------------------------------------
// Rounds

export const findRound = (db: Db, roundId: string) =>
  first(db.select().from(loopRounds).where(eq(loopRounds.id, roundId)));

export const lockRound = (db: Db, roundId: string) =>
  first(db.select().from(loopRounds).where(eq(loopRounds.id, roundId)).for('update'));

export const openRoundOf = (db: Db, loopId: string) =>
  first(
    db
      .select()
      .from(loopRounds)
      .where(and(eq(loopRounds.loopId, loopId), eq(loopRounds.status, 'open'))),
  );

/** The loop's rounds, newest first, with their respondents (counted from the ledger while a round is open). */
export async function roundsWithAnswered(db: Db, loopId: string) {
  return queryRows<{
    id: string;
    number: number;
    status: string;
    opened_at: string | Date;
    closes_at: string | Date;
    closed_at: string | Date | null;
    audience: number;
    answered: number;
    anonymous: boolean;
    min_responses: number;
    question_ids: string[];
    reminded_at: string | Date | null;
  }>(
    db,
    sql`select r.id, r.number, r.status, r.opened_at, r.closes_at, r.closed_at, r.audience, r.anonymous,
               r.min_responses, r.question_ids, r.reminded_at,
               coalesce(r.answered, (select count(*) from loop_round_ledger g where g.round_id = r.id))::int
                 as answered
        from loop_rounds r where r.loop_id = ${loopId} order by r.number desc`,
  );
}
export type RoundWithAnswered = Awaited<ReturnType<typeof roundsWithAnswered>>[number];

/** When the loop's last round opened; null before its first. */
export async function lastOpenedAt(db: Db, loopId: string) {
  const [row] = await queryRows<{ at: string | Date | null }>(
    db,
    sql`select max(opened_at) as at from loop_rounds where loop_id = ${loopId}`,
  );
  return row?.at ? new Date(row.at) : null;
}

export async function nextRoundNumber(db: Db, loopId: string) {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select coalesce(max(number), 0)::int + 1 as n from loop_rounds where loop_id = ${loopId}`,
  );
  return row?.n ?? 1;
}

export async function insertRound(db: Db, values: typeof loopRounds.$inferInsert) {
  const [row] = await db.insert(loopRounds).values(values).returning();
  if (!row) throw new Error('round insert returned nothing');
  return row;
}

export async function closeRound(db: Db, roundId: string, values: { closedAt: Date; answered: number }) {
  await db
    .update(loopRounds)
    .set({ status: 'closed', ...values })
    .where(eq(loopRounds.id, roundId));
}

export async function updateRound(db: Db, roundId: string, values: Partial<typeof loopRounds.$inferInsert>) {
  await db.update(loopRounds).set(values).where(eq(loopRounds.id, roundId));
}

/** Takes the round's audience (the members it goes to, now) onto the round; answers how many. */
export async function snapshotAudience(db: Db, roundId: string, audience: SQL) {
  const [row] = await queryRows<{ audience: number }>(
    db,
    sql`update loop_rounds r set audience_ids = a.ids, audience = a.n
        from (select coalesce(array_agg(x.member_id order by x.member_id), '{}') as ids, count(*)::int as n
              from (${audience}) x) a
        where r.id = ${roundId}
        returning r.audience`,
  );
  return row?.audience ?? 0;
}

/**
 * The next `limit` members of the round's audience become recipients, with the hash of their token, in one
 * statement with what `then` adds for them: `then` gets the name of a WITH query of the new recipients (member_id,
 * user_id, email and token) and answers WITH queries that read it (their e-mails, their bell). The round row's
 * counter hands each batch its own slice, so two processes never take the same members; a member who left the
 * workspace since the round opened is skipped. Answers whether there was a slice left (a slice of people who all
 * left is not the end).
 */
export async function inviteNext(
  db: Db,
  options: {
    roundId: string;
    limit: number;
    token: (memberId: SQL) => SQL;
    tokenHash: (token: SQL) => SQL;
    /** The language of a member (`u`, their account), as `memberLanguageSql` says it. */
    language: SQL;
    then: (invitees: SQL) => WithQuery[];
  },
) {
  const { roundId, limit } = options;
  const slice: WithQuery = {
    name: 'slice',
    query: sql`update loop_rounds set invited = invited + ${limit}
               where id = ${roundId} and invited < coalesce(cardinality(audience_ids), 0)
               returning audience_ids, invited`,
  };
  const people: WithQuery = {
    name: 'people',
    query: sql`select m.id as member_id, m.user_id, u.email, ${options.token(sql`m.id`)} as token,
                      ${options.language} as language
               from slice
               cross join lateral unnest(slice.audience_ids[slice.invited - ${limit} + 1 : slice.invited]) as a(member_id)
               join workspace_members m on m.id = a.member_id
               join "user" u on u.id = m.user_id`,
  };
  const invited: WithQuery = {
    name: 'invited',
    query: sql`insert into loop_round_recipients (round_id, member_id, token_hash)
               select ${roundId}, p.member_id, ${options.tokenHash(sql`p.token`)} from people p
               on conflict do nothing
               returning member_id`,
  };
  const invitees: WithQuery = {
    name: 'invitees',
    query: sql`select p.* from people p join invited i on i.member_id = p.member_id`,
  };
  const parts = options.then(sql`${sql.identifier(invitees.name)}`);
  const [row] = await queryRows<{ slice: number }>(
    db,
    sql`${withClause([slice, people, invited, invitees, ...parts])} select ${countsOf([slice, invited, ...parts])}`,
  );
  return { sliced: (row?.slice ?? 0) > 0 };
}

/**
 * The language of a member of a workspace whose organisation's default is `organizationLanguage`, inside a query
 * where `u` is their account (mail/language.ts: their choice, else the organisation's, else English).
 */
export const memberLanguageSql = (organizationLanguage: string | null) =>
  recipientLanguageSql(sql`u.language`, sql`${organizationLanguage}::text`);

/** The languages the members of the round's audience not yet invited are written to (`memberLanguageSql`). */
export async function audienceLanguages(db: Db, roundId: string, language: SQL) {
  const rows = await queryRows<{ language: string }>(
    db,
    sql`select distinct ${language} as language
        from loop_rounds r
        cross join lateral unnest(r.audience_ids[r.invited + 1 :]) as a(member_id)
        join workspace_members m on m.id = a.member_id
        join "user" u on u.id = m.user_id
        where r.id = ${roundId}`,
  );
  return rows.map((row) => row.language);
}

/** Forgets a round's audience list once every member of it is a recipient. */
export async function dropAudienceList(db: Db, roundId: string) {
  await db.execute(
    sql`update loop_rounds set audience_ids = null
        where id = ${roundId} and invited >= coalesce(cardinality(audience_ids), 0)`,
  );
}

/**
 * Recipients who have not answered, with what reminders need: their address, name, settings and language
 * (`language`, see `memberLanguageSql`).
 */
export async function unansweredRecipients(db: Db, roundId: string, language: SQL) {
  return queryRows<{
    member_id: string;
    user_id: string;
    email: string;
    name: string;
    preferences: unknown;
    language: string;
  }>(
    db,
    sql`select rc.member_id, u.id as user_id, u.email, u.name, u.notification_preferences as preferences,
               ${language} as language
        from loop_round_recipients rc
        join workspace_members m on m.id = rc.member_id and m.status = 'active'
        join "user" u on u.id = m.user_id
        where rc.round_id = ${roundId}
          and not exists (select 1 from loop_round_ledger g where g.round_id = rc.round_id and g.member_id = rc.member_id)`,
  );
}

/** The round's recipients with whether each answered (names only: never what). */
export async function recipientsWithAnswered(db: Db, roundId: string) {
  return queryRows<{ member_id: string; name: string; answered: boolean }>(
    db,
    sql`select rc.member_id, coalesce(nullif(trim(u.name), ''), m.invitation_email, 'Unknown') as name,
               exists (select 1 from loop_round_ledger g
                       where g.round_id = rc.round_id and g.member_id = rc.member_id) as answered
        from loop_round_recipients rc
        join workspace_members m on m.id = rc.member_id
        left join "user" u on u.id = m.user_id
        where rc.round_id = ${roundId}
        order by lower(coalesce(u.name, '')), rc.member_id`,
  );
}

/**
 * The answers of a round per question and value (scale and eNPS), and per question the free-text answers
 * (value null): the one GROUP BY that results read live and that closing stores in loop_round_counts.
 */
const roundCountsSelect = (roundId: string) =>
  sql`select a.question_id, a.score as value, count(*)::int as count
      from loop_responses r join loop_answers a on a.response_id = r.id
      where r.round_id = ${roundId}
      group by a.question_id, a.score`;

export type CountRow = { question_id: string; value: number | null; count: number };

export const countRoundAnswers = (db: Db, roundId: string) =>
  queryRows<CountRow>(db, roundCountsSelect(roundId));

/** Closing: the round's counts stored (free text is not counted there: results count it live). */
export async function storeRoundCounts(db: Db, roundId: string) {
  await db.execute(
    sql`insert into loop_round_counts (round_id, question_id, value, count)
        select ${roundId}, question_id, value, count from (${roundCountsSelect(roundId)}) c
        where value is not null`,
  );
}

/** Everything Loop Insights reads, in three small statements run together: rounds, questions, stored counts. */
export async function insightsData(db: Db, loopId: string) {
  const [rounds, questions, counts] = await Promise.all([
    roundsWithAnswered(db, loopId),
    allQuestions(db, loopId),
    storedCounts(db, loopId),
  ]);
  return { rounds, questions, counts };
}

/**
 * The stored counts of a loop's closed rounds, the aggregate that insights read: one row per round and question,
 * its values and their counts as two arrays (a few hundred rows for a year of weekly rounds).
 */
export const storedCounts = (db: Db, loopId: string) =>
  queryRows<{ round_id: string; question_id: string; values: number[]; counts: number[] }>(
    db,
    sql`select c.round_id, c.question_id, array_agg(c.value order by c.value) as values,
               array_agg(c.count order by c.value) as counts
        from loop_rounds r join loop_round_counts c on c.round_id = r.id
        where r.loop_id = ${loopId}
        group by c.round_id, c.question_id`,
  );

/**
 * Sealing an anonymous round at close (0009): its responses and answers are rewritten in one statement, in
 * random order and with new random ids, and the old rows deleted (their answers go with them by the cascade), so
 * afterwards every response of the round shares this transaction's id and lies on disk in an order unrelated to
 * when it came; nothing ties a response to the ledger row written with it. Their follow-up answers ('Follow-up on
 * actions') are rewritten with them. Continuation secrets go too.
 */
export async function sealResponses(db: Db, roundId: string) {
  await db.execute(
    sql`with old as (delete from loop_responses where round_id = ${roundId} returning id, anonymous),
        mapping as materialized (select id as old_id, gen_random_uuid() as new_id, anonymous, random() as shuffle
                                 from old),
        responses as (insert into loop_responses (id, round_id, anonymous)
                      select new_id, ${roundId}, anonymous from mapping order by shuffle),
        follow_ups as (insert into loop_follow_up_answers (response_id, question_id, answer)
                       select m.new_id, f.question_id, f.answer
                       from loop_follow_up_answers f join mapping m on m.old_id = f.response_id
                       order by m.shuffle)
        insert into loop_answers (response_id, question_id, score, text)
        select m.new_id, a.question_id, a.score, a.text
        from loop_answers a join mapping m on m.old_id = a.response_id
        order by m.shuffle`,
  );
}

export async function clearContinuations(db: Db, roundId: string) {
  await db.update(loopResponses).set({ continuationHash: null }).where(eq(loopResponses.roundId, roundId));
}

export async function countLedger(db: Db, roundId: string) {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from loop_round_ledger where round_id = ${roundId}`,
  );
  return row?.n ?? 0;
}

// ---------------------------------------------------------------------------------------------------------
// Answering

/** A recipient by the hash of their personal token. */
export const recipientByToken = (db: Db, tokenHash: string) =>
  first(
    db
      .select({ roundId: loopRoundRecipients.roundId, memberId: loopRoundRecipients.memberId })
      .from(loopRoundRecipients)
      .where(eq(loopRoundRecipients.tokenHash, tokenHash)),
  );

/** The signed-in user's membership that received the round, if any. */
export async function recipientForUser(db: Db, roundId: string, userId: string) {
  const [row] = await queryRows<{ member_id: string }>(
    db,
    sql`select rc.member_id from loop_round_recipients rc
        join workspace_members m on m.id = rc.member_id and m.user_id = ${userId} and m.status = 'active'
        where rc.round_id = ${roundId} limit 1`,
  );
  return row?.member_id ?? null;
}

/** What the answer page shows of a round, and whether the member answered. */
export async function roundForAnswer(db: Db, roundId: string, memberId: string | null) {
  const [row] = await queryRows<{
    round_id: string;
    number: number;
    status: string;
    closes_at: string | Date;
    question_ids: string[];
    anonymous: boolean;
    loop_id: string;
    title: string;
    description: string;
    loop_status: string;
    workspace_name: string;
    workspace_id: string;
    answered: boolean;
  }>(
    db,
    sql`select r.id as round_id, r.number, r.status, r.closes_at, r.question_ids, r.anonymous,
               l.id as loop_id, l.title, l.description, l.status as loop_status, w.name as workspace_name,
               w.id as workspace_id,
               exists (select 1 from loop_round_ledger g where g.round_id = r.id and g.member_id = ${memberId})
                 as answered
        from loop_rounds r join loops l on l.id = r.loop_id join workspaces w on w.id = l.workspace_id
        where r.id = ${roundId}`,
  );
  return row;
}

/**
 * An answer's view of its round: the loop row shared-locked first (round openings, closes, pauses and stops lock it
 * exclusively, so none of them interleaves with an answer), then the round read in a statement of its own, so it
 * sees a close that committed while this waited.
 */
export async function lockRoundForAnswer(db: Db, roundId: string) {
  const [loop] = await queryRows<{ loop_status: string; loop_id: string; workspace_id: string }>(
    db,
    sql`select status as loop_status, id as loop_id, workspace_id from loops
        where id = (select loop_id from loop_rounds where id = ${roundId}) for share`,
  );
  const round = await findRound(db, roundId);
  return loop && round ? { ...loop, round } : undefined;
}

export async function hasAnswered(db: Db, roundId: string, memberId: string) {
  const rows = await db
    .select({ roundId: loopRoundLedger.roundId })
    .from(loopRoundLedger)
    .where(and(eq(loopRoundLedger.roundId, roundId), eq(loopRoundLedger.memberId, memberId)))
    .limit(1);
  return rows.length > 0;
}

/** The ledger row: true when this call wrote it (the member had not answered), false when it was there. */
export async function recordAnswered(db: Db, roundId: string, memberId: string) {
  const rows = await db
    .insert(loopRoundLedger)
    .values({ roundId, memberId })
    .onConflictDoNothing()
    .returning({ roundId: loopRoundLedger.roundId });
  return rows.length > 0;
}

export async function insertResponse(db: Db, values: typeof loopResponses.$inferInsert) {
  const [row] = await db.insert(loopResponses).values(values).returning({ id: loopResponses.id });
  if (!row) throw new Error('response insert returned nothing');
  return row.id;
}

/** Writes answers of a response; an answer to a question answered before replaces it. */
export async function upsertAnswers(
  db: Db,
  responseId: string,
  answers: { questionId: string; score: number | null; text: string | null }[],
) {
  if (answers.length === 0) return;
  await db
    .insert(loopAnswers)
    .values(answers.map((answer) => ({ responseId, ...answer })))
    .onConflictDoUpdate({
      target: [loopAnswers.responseId, loopAnswers.questionId],
      set: { score: sql`excluded.score`, text: sql`excluded.text` },
    });
}

export const responseByContinuation = (db: Db, hash: string) =>
  first(
    db
      .select({ id: loopResponses.id, roundId: loopResponses.roundId })
      .from(loopResponses)
      .where(eq(loopResponses.continuationHash, hash)),
  );

// ---------------------------------------------------------------------------------------------------------
// Results

/** A round's free-text answers, with the member's name only where the response carries one (not anonymous). */
export async function freeTexts(db: Db, roundId: string) {
  return queryRows<{ question_id: string; text: string; author: string | null }>(
    db,
    sql`select a.question_id, a.text,
               case when r.anonymous then null else u.name end as author
        from loop_responses r
        join loop_answers a on a.response_id = r.id and a.text is not null
        left join workspace_members m on m.id = r.member_id
        left join "user" u on u.id = m.user_id
        where r.round_id = ${roundId}`,
  );
}

// ---------------------------------------------------------------------------------------------------------
// Dashboards

/** The workspace's loops, newest first, with their last round's figures (one statement). */
export async function dashboardLoops(db: Db, workspaceId: string) {
  return queryRows<{
    id: string;
    title: string;
    description: string;
    status: string;
    created_at: string | Date;
    completed_at: string | Date | null;
    next_round_at: string | Date | null;
    number: number | null;
    round_status: string | null;
    audience: number | null;
    answered: number | null;
  }>(
    db,
    sql`select l.id, l.title, l.description, l.status, l.created_at, l.completed_at, l.next_round_at,
               r.number, r.status as round_status, r.audience,
               coalesce(r.answered, (select count(*) from loop_round_ledger g where g.round_id = r.id))::int
                 as answered
        from loops l
        left join lateral (select * from loop_rounds x where x.loop_id = l.id order by x.number desc limit 1) r
          on true
        where l.workspace_id = ${workspaceId}
        order by l.created_at desc`,
  );
}

/** The open rounds of active loops whose audience holds the user (the participant's /dashboard and bell). */
export async function openRoundsFor(db: Db, userId: string) {
  return queryRows<{
    round_id: string;
    loop_id: string;
    title: string;
    workspace_name: string;
    number: number;
    closes_at: string | Date;
    answered: boolean;
  }>(
    db,
    sql`select r.id as round_id, l.id as loop_id, l.title, w.name as workspace_name, r.number, r.closes_at,
               exists (select 1 from loop_round_ledger g where g.round_id = r.id and g.member_id = rc.member_id)
                 as answered
        from workspace_members m
        join loop_round_recipients rc on rc.member_id = m.id
        join loop_rounds r on r.id = rc.round_id and r.status = 'open' and r.closes_at > now()
        join loops l on l.id = r.loop_id and l.status = 'active'
        join workspaces w on w.id = l.workspace_id
        where m.user_id = ${userId} and m.status = 'active'
        order by r.closes_at`,
  );
}
