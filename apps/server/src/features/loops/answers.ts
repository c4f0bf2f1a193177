import type { Locale } from '@pulsecheck/shared/i18n/languages';
import { fieldErrors, NOT_FOUND_MESSAGES } from '@pulsecheck/shared/api/errors';
import type { RoundToAnswer } from '@pulsecheck/shared/loops/contract';
import {
  ANSWER_REFUSAL_MESSAGES,
  answerRefusal,
  LOOP_MESSAGES,
  type AnswerRefusal,
  type QuestionKind,
} from '@pulsecheck/shared/loops/rules';
import {
  answerValueSchema,
  roundAnswersSchema,
  type AnswersBody,
  type FollowUpAnswers,
  type RoundAnswers,
} from '@pulsecheck/shared/loops/schemas';
import { FOLLOW_UP_MESSAGES } from '@pulsecheck/shared/action-items/follow-up';
import { roundQuestionIds, roundQuestionsToAnswer, storeRoundAnswers } from '../follow-ups/service';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { AppError, invalid, notFound } from '../../lib/app-error';
import { brandingOfWorkspace } from '../branding/service';
import { translatorFor } from '../../lib/i18n';
import * as q from './queries';
import { publishLoopChanged, type Deps } from './rounds';
import { questionOut } from './service';
import { newContinuation, secretHash } from './tokens';

/**
 * Answering a round: by the personal link of its e-mail, or as a signed-in member of its audience; the one-click
 * answer from the e-mail and the rest of the form after it (docs/decisions/0009-loops.md, "Anonymity").
 */

/** Who answers which round: a recipient of it. */
export type Identity = { roundId: string; memberId: string };

const linkNotValid = () => notFound(NOT_FOUND_MESSAGES.answerLink);

const REFUSAL_CODES = {
  'already-answered': 'already_answered',
  'round-closed': 'round_closed',
  'loop-paused': 'loop_paused',
  'loop-ended': 'loop_ended',
} as const satisfies Record<AnswerRefusal, string>;

const refused = (refusal: AnswerRefusal) =>
  new AppError(REFUSAL_CODES[refusal], ANSWER_REFUSAL_MESSAGES[refusal]);

/** The recipient behind a personal token; a forged or unknown one is not found. */
export async function identityByToken(db: Db, token: string): Promise<Identity> {
  const recipient = await q.recipientByToken(db, secretHash(token));
  if (!recipient) throw linkNotValid();
  return recipient;
}

/** The signed-in user as a recipient of the round; anyone else is answered 'Round not found'. */
export async function identityForUser(db: Db, roundId: string, userId: string): Promise<Identity> {
  const memberId = await q.recipientForUser(db, roundId, userId);
  if (!memberId) throw notFound(NOT_FOUND_MESSAGES.round);
  return { roundId, memberId };
}

/** The round's questions in the round's order. */
async function roundQuestions(db: Db, questionIds: string[]) {
  const rows = new Map((await q.questionsById(db, questionIds)).map((row) => [row.id, row]));
  return questionIds.flatMap((id) => {
    const row = rows.get(id);
    return row ? [row] : [];
  });
}

/**
 * The answer page: the round and its questions, and whether (and why not) this member can answer now, its words in
 * `locale`.
 */
export async function roundToAnswer(db: Db, identity: Identity, locale: Locale): Promise<RoundToAnswer> {
  const t = translatorFor(locale);
  const round = await q.roundForAnswer(db, identity.roundId, identity.memberId);
  if (!round) throw linkNotValid();
  const refusal = answerRefusal({
    loopStatus: round.loop_status,
    roundStatus: round.status,
    closesAt: new Date(round.closes_at),
    now: new Date(),
    answered: round.answered,
  });
  return {
    loop: {
      id: round.loop_id,
      title: round.title,
      description: round.description,
      anonymous: round.anonymous,
    },
    workspaceName: round.workspace_name,
    round: { id: round.round_id, number: round.number, closesAt: new Date(round.closes_at).toISOString() },
    questions: (await roundQuestions(db, round.question_ids)).map((question) => questionOut(question, t)),
    followUps: await roundQuestionsToAnswer(db, round.round_id, t),
    state: refusal ?? 'open',
    message: refusal ? t.t(ANSWER_REFUSAL_MESSAGES[refusal]) : null,
    branding: await brandingOfWorkspace(db, round.workspace_id),
  };
}

/** Parses answers against the round's questions: 400 with a message per question, nothing written. */
function parseAnswers(schema: z.ZodType<RoundAnswers>, answers: unknown) {
  const parsed = schema.safeParse(answers);
  if (parsed.success) return parsed.data;
  const fields = Object.fromEntries(
    Object.entries(fieldErrors(parsed.error)).map(([key, message]) => [`answers.${key}`, message]),
  );
  throw invalid(Object.values(fields)[0] ?? LOOP_MESSAGES.answerRequired, fields);
}

const answerRows = (answers: RoundAnswers) =>
  Object.entries(answers).map(([questionId, value]) => ({
    questionId,
    score: typeof value === 'number' ? value : null,
    text: typeof value === 'string' ? value : null,
  }));

/**
 * The round locked for an answer, refused as `answerRefusal` says (with `answered` when the ledger holds the
 * member). Answers the round's snapshot.
 */
async function lockForAnswer(tx: Db, roundId: string, answered: boolean) {
  const locked = await q.lockRoundForAnswer(tx, roundId);
  if (!locked) throw linkNotValid();
  const refusal = answerRefusal({
    loopStatus: locked.loop_status,
    roundStatus: locked.round.status,
    closesAt: locked.round.closesAt,
    now: new Date(),
    answered,
  });
  if (refusal) throw refused(refusal);
  return locked;
}

/**
 * One member's answer to a round, in one transaction: the ledger row decides (insert … on conflict do nothing), so
 * of concurrent submits exactly one writes and the others are told 'You have already answered this round'; the
 * response and its answers are written with it or not at all. An anonymous response carries no member.
 */
async function writeAnswer(
  deps: Deps,
  identity: Identity,
  answers: RoundAnswers,
  options: { continuationHash?: string; followUps?: FollowUpAnswers } = {},
) {
  await deps.db.transaction(async (tx) => {
    const answered = await q.hasAnswered(tx, identity.roundId, identity.memberId);
    const locked = await lockForAnswer(tx, identity.roundId, answered);
    if (!(await q.recordAnswered(tx, identity.roundId, identity.memberId))) throw refused('already-answered');
    const responseId = await q.insertResponse(tx, {
      roundId: identity.roundId,
      anonymous: locked.round.anonymous,
      memberId: locked.round.anonymous ? null : identity.memberId,
      continuationHash: options.continuationHash ?? null,
    });
    await q.upsertAnswers(tx, responseId, answerRows(answers));
    await storeRoundAnswers(tx, {
      roundId: identity.roundId,
      responseId,
      answers: options.followUps ?? {},
    });
    await publishLoopChanged(deps, { id: locked.loop_id, workspaceId: locked.workspace_id }, tx);
  });
}

async function roundOf(db: Db, roundId: string) {
  const round = await q.findRound(db, roundId);
  if (!round) throw linkNotValid();
  return { round, questions: await roundQuestions(db, round.questionIds) };
}

const kinds = (questions: q.QuestionRow[]) =>
  questions.map((question) => ({ id: question.id, kind: question.kind as QuestionKind }));

/**
 * Follow-up answers ('Follow-up on actions') checked against the round's own follow-up questions: an id of any
 * other question is refused (400), nothing written.
 */
async function checkFollowUps(db: Db, roundId: string, followUps: FollowUpAnswers | undefined) {
  if (!followUps || Object.keys(followUps).length === 0) return {};
  const own = await roundQuestionIds(db, roundId);
  if (Object.keys(followUps).some((id) => !own.has(id)))
    throw invalid(FOLLOW_UP_MESSAGES.unknownRoundQuestion, {
      followUps: FOLLOW_UP_MESSAGES.unknownRoundQuestion,
    });
  return followUps;
}

/** The whole form: scale and eNPS questions answered, free text optional, follow-ups optional. */
export async function submitAnswers(deps: Deps, identity: Identity, body: AnswersBody) {
  const { questions } = await roundOf(deps.db, identity.roundId);
  const answers = parseAnswers(roundAnswersSchema(kinds(questions)), body.answers);
  const followUps = await checkFollowUps(deps.db, identity.roundId, body.followUps);
  await writeAnswer(deps, identity, answers, { followUps });
}

/**
 * The one-click answer from the e-mail: the first question's value, recorded like a whole answer (the member has
 * then answered the round), and a continuation secret for the rest of the form, stored hashed on the response.
 */
export async function quickAnswer(deps: Deps, identity: Identity, value: number) {
  const { questions } = await roundOf(deps.db, identity.roundId);
  const [first] = questions;
  if (!first || first.kind === 'text') throw invalid(LOOP_MESSAGES.quickAnswerKind);
  const parsed = answerValueSchema(first.kind as QuestionKind).safeParse(value);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? LOOP_MESSAGES.answerRequired;
    throw invalid(message, { value: message });
  }
  const continuation = newContinuation();
  await writeAnswer(
    deps,
    identity,
    { [first.id]: parsed.data },
    { continuationHash: secretHash(continuation) },
  );
  return { continuation };
}

/**
 * The rest of the form after a one-click answer, by its continuation secret alone (it leads to the response, never
 * to the member): partial answers, each replacing the one before, while the round is open. Sealing at close
 * forgets the secret.
 */
export async function continueAnswer(
  deps: Deps,
  options: {
    continuation: string;
    answers: Record<string, number | string>;
    followUps?: FollowUpAnswers | undefined;
  },
) {
  const response = await q.responseByContinuation(deps.db, secretHash(options.continuation));
  if (!response) throw linkNotValid();
  const { questions } = await roundOf(deps.db, response.roundId);
  const answers = parseAnswers(roundAnswersSchema(kinds(questions), { partial: true }), options.answers);
  const followUps = await checkFollowUps(deps.db, response.roundId, options.followUps);
  await deps.db.transaction(async (tx) => {
    const locked = await lockForAnswer(tx, response.roundId, false);
    // Sealing may have replaced the response since it was found.
    if (!(await q.responseByContinuation(tx, secretHash(options.continuation)))) throw linkNotValid();
    await q.upsertAnswers(tx, response.id, answerRows(answers));
    await storeRoundAnswers(tx, { roundId: response.roundId, responseId: response.id, answers: followUps });
    await publishLoopChanged(deps, { id: locked.loop_id, workspaceId: locked.workspace_id }, tx);
  });
}
