import type { CompletionStatus, LaunchLoopResponse, LoopDetail } from '@pulsecheck/shared/loops/contract';
import type { LaunchLoopInput } from '@pulsecheck/shared/loops/schemas';
import { and, eq, sql } from 'drizzle-orm';
import { user } from '../db/schema/auth';
import { jobs } from '../db/schema/messaging';
import { workspaceMembers } from '../db/schema/organizations';
import { loopJobHandlers } from '../features/loops/rounds';
import { runDueJobs } from '../jobs/queue';
import { createLogger } from '../logger';
import type { TestContext } from './harness';
import { latestMail } from './mail';
import { json, type Jar } from './requests';
import { loopBody } from './loop-body';
import { unique, uniqueEmail } from './unique';

export { loopBody, scaleQuestion } from './loop-body';

/** Loops in tests: launch bodies, audiences made straight in the database, the e-mailed links, the loop jobs. */

export async function launchLoop(
  ctx: TestContext,
  jar: Jar,
  workspaceId: string,
  overrides: Partial<LaunchLoopInput> = {},
) {
  const response = await ctx.call(jar, 'POST', '/api/loops', loopBody(workspaceId, overrides));
  if (response.status !== 201) throw new Error(`launch failed: ${response.status} ${await response.text()}`);
  return json<LaunchLoopResponse>(response);
}

export type Person = { userId: string; memberId: string; email: string; name: string };

/** `count` active members of the workspace with accounts (no password), made in two statements. */
export async function addPeople(
  ctx: TestContext,
  workspaceId: string,
  count: number,
  access: 'admin' | 'member' | 'participant' = 'member',
): Promise<Person[]> {
  if (count === 0) return [];
  const users = Array.from({ length: count }, () => {
    const id = unique('u');
    return { id, name: `Person ${id}`, email: uniqueEmail('person'), emailVerified: true };
  });
  await ctx.deps.db.insert(user).values(users);
  const members = await ctx.deps.db
    .insert(workspaceMembers)
    .values(users.map((u) => ({ workspaceId, userId: u.id, access, status: 'active' })))
    .returning({ id: workspaceMembers.id, userId: workspaceMembers.userId });
  return users.map((u) => ({
    userId: u.id,
    memberId: members.find((m) => m.userId === u.id)!.id,
    email: u.email,
    name: u.name,
  }));
}

/** Runs the loop jobs that are due (opening, closing, reminding, inviting) until none is left. */
export async function runLoopJobs(ctx: TestContext) {
  const handlers = loopJobHandlers(ctx.deps);
  const logger = createLogger('silent');
  for (let i = 0; i < 20 && (await runDueJobs({ db: ctx.deps.db, logger, handlers })) > 0; i++);
}

/** Makes the loop jobs of `kind` due now (the clock cannot be moved, the jobs can). */
export async function makeDue(ctx: TestContext, kind: string) {
  await ctx.deps.db
    .update(jobs)
    .set({ runAt: sql`now() - interval '1 second'` })
    .where(and(eq(jobs.kind, kind), eq(jobs.status, 'pending')));
}

/** The newest round e-mail to `email` (its subject says which round). */
export const roundMail = (ctx: TestContext, email: string, subject = 'is open') =>
  latestMail(ctx, email, subject);

/** The personal answer token in the newest round e-mail to `email`. */
export async function answerToken(ctx: TestContext, email: string) {
  const mail = await roundMail(ctx, email);
  const match = /\/loop-answer\/([\w-]+)/.exec(mail.text);
  if (!match?.[1]) throw new Error('no answer link in the e-mail');
  return match[1];
}

export async function completion(ctx: TestContext, jar: Jar, loopId: string) {
  const response = await ctx.call(jar, 'GET', `/api/loops/${loopId}/completion-status`);
  if (response.status !== 200)
    throw new Error(`completion status: ${response.status} ${await response.text()}`);
  return json<CompletionStatus>(response);
}

/** The ids of the open round's questions, in order. */
export async function roundQuestionIds(ctx: TestContext, token: string) {
  const response = await ctx.request('GET', `/api/loop-answer/${token}`);
  const body = await json<{ questions: { id: string; kind: string }[] }>(response);
  return body.questions;
}

/** Answers with the personal link: the scale, the eNPS score and a free text (as `loopBody`'s questions). */
export async function answerByLink(
  ctx: TestContext,
  token: string,
  values: { scale?: number; enps?: number; text?: string } = {},
) {
  const questions = await roundQuestionIds(ctx, token);
  const answers: Record<string, number | string> = {};
  for (const question of questions) {
    if (question.kind === 'scale') answers[question.id] = values.scale ?? 4;
    if (question.kind === 'enps') answers[question.id] = values.enps ?? 9;
    if (question.kind === 'text' && values.text !== undefined) answers[question.id] = values.text;
  }
  return ctx.request('POST', `/api/loop-answer/${token}`, { body: { answers } });
}

/** The editable part of a loop, as Configure Loop sends it back. */
export function editable(loop: LoopDetail) {
  return {
    title: loop.title,
    description: loop.description,
    questions: loop.questions.map((q) =>
      q.kind === 'scale'
        ? { id: q.id, kind: q.kind, text: q.text, lowLabel: q.lowLabel!, highLabel: q.highLabel! }
        : { id: q.id, kind: q.kind, text: q.text },
    ),
    audience: loop.audience,
    cadence: loop.cadence,
    weekday: loop.weekday,
    time: loop.time,
    timeZone: loop.timeZone,
    roundDays: loop.roundDays,
    anonymous: loop.anonymous,
    minResponses: loop.minResponses,
    reminder: loop.reminder,
  };
}

/** Every loop table: what backups and the move to PostgreSQL must carry (ops tests). */
export const LOOP_TABLES = [
  'public.loops',
  'public.loop_questions',
  'public.loop_rounds',
  'public.loop_round_recipients',
  'public.loop_round_ledger',
  'public.loop_responses',
  'public.loop_answers',
  'public.loop_round_counts',
  'public.jobs',
];

/**
 * A loop of the admin's workspace with a closed round: three people answer it (scale, eNPS and free text), the
 * admin closes it; its rounds' jobs (the next opening) stay pending. Answers the loop and the admin's session.
 */
export async function loopWithClosedRound(ctx: TestContext, admin: { jar: Jar; workspaceId: string }) {
  const people = await addPeople(ctx, admin.workspaceId, 3);
  const loop = await launchLoop(ctx, admin.jar, admin.workspaceId, {
    title: 'Carried pulse',
    audience: { kind: 'members', memberIds: people.map((p) => p.memberId) },
  });
  for (const [index, person] of people.entries()) {
    const answered = await answerByLink(ctx, await answerToken(ctx, person.email), {
      scale: index + 2,
      enps: index * 4,
      text: `Carried answer ${index + 1}`,
    });
    if (answered.status !== 201) throw new Error(`answer: ${answered.status} ${await answered.text()}`);
  }
  const detail = await json<{ loop: LoopDetail }>(await ctx.call(admin.jar, 'GET', `/api/loops/${loop.id}`));
  const roundId = detail.loop.currentRound!.id;
  const closed = await ctx.call(admin.jar, 'POST', `/api/loops/${loop.id}/rounds/${roundId}/close`);
  if (closed.status !== 200) throw new Error(`close: ${closed.status} ${await closed.text()}`);
  return { loopId: loop.id, roundId, jar: admin.jar };
}

/** The loop's results and insights as the admin reads them (to compare one database with another). */
export async function loopResults(
  ctx: Pick<TestContext, 'call'>,
  loop: { loopId: string; roundId: string; jar: Jar },
) {
  const read = async (path: string) => {
    const response = await ctx.call(loop.jar, 'GET', path);
    if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return json<unknown>(response);
  };
  return {
    results: await read(`/api/loops/${loop.loopId}/results?roundId=${loop.roundId}`),
    insights: await read(`/api/loops/${loop.loopId}/insights`),
  };
}
