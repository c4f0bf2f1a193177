import { NOT_FOUND_MESSAGES } from '@pulsecheck/shared/api/errors';
import { csvFile } from '@pulsecheck/shared/api/csv';
import {
  INSIGHTS_METHOD,
  type CompletionStatus,
  type LoopInsights,
  type LoopResults,
  type MyLoopRound,
  type QuestionResult,
  type RoundResults,
  type TrendLine,
  type TrendPoint,
} from '@pulsecheck/shared/loops/contract';
import { LOOP_LINKS } from '@pulsecheck/shared/loops/links';
import {
  defaultResultsRound,
  orderFreeText,
  roundResultMessage,
  roundResultState,
} from '@pulsecheck/shared/loops/release';
import {
  ENPS_MAX,
  ENPS_MIN,
  LOOP_MESSAGES,
  SCALE_MAX,
  SCALE_MIN,
  type LoopStatus,
} from '@pulsecheck/shared/loops/rules';
import { scheduleSentence } from '@pulsecheck/shared/loops/schedule';
import {
  changeLabel,
  countsByValue,
  enpsChange,
  enpsGroups,
  enpsSummary,
  participationChange,
  responseRate,
  scaleChange,
  scaleSummary,
  shares,
  type Change,
} from '@pulsecheck/shared/loops/stats';
import type { Locale } from '@pulsecheck/shared/i18n/languages';
import type { Translator } from '@pulsecheck/shared/i18n/translate';
import { recordWorkspaceAudit, type AuditBy } from '../../audit/record';
import type { Db } from '../../db/client';
import { conflict, notFound } from '../../lib/app-error';
import { localizeContent } from '../../lib/content-language';
import { csvHeader, LOOP_RESULTS_CSV_COLUMNS, QUESTION_KIND_WORDS, wordFor } from '../../lib/csv-words';
import { translatorFor } from '../../lib/i18n';
import * as q from './queries';
import { loopActionsWorked, roundFollowUps } from '../follow-ups/service';
import { FOLLOW_UP_ANSWER_LABELS, FOLLOW_UP_ANSWERS } from '@pulsecheck/shared/action-items/follow-up';
import { roundSummary, scheduleOf, toIso } from './rounds';
import { questionOut, requireLoop } from './service';

/**
 * What Completion Status, Loop Results, Loop Insights and the dashboards show of a loop. The SQL counts (GROUP BY,
 * queries.ts); the figures come from the shared stats functions; what shows when from release.ts.
 */

type Deps = { db: Db };

async function loopHeader(db: Db, userId: string, loopId: string) {
  const access = await requireLoop(db, userId, loopId);
  const { loop } = access;
  return {
    loop,
    header: {
      id: loop.id,
      title: loop.title,
      status: loop.status as LoopStatus,
      anonymous: loop.anonymous,
      canChange: access.mayChange,
    },
  };
}

/**
 * Completion Status: the open round's rate, who has and has not answered (names only), time left; the history.
 * Its words (the schedule) in `locale`.
 */
export async function completionStatus(
  deps: Deps,
  options: { userId: string; loopId: string },
  locale: Locale,
): Promise<CompletionStatus> {
  const { loop, header } = await loopHeader(deps.db, options.userId, options.loopId);
  const rounds = await q.roundsWithAnswered(deps.db, loop.id);
  const open = rounds.find((round) => round.status === 'open');
  const now = new Date();
  let current: CompletionStatus['current'] = null;
  if (open) {
    const people = await q.recipientsWithAnswered(deps.db, open.id);
    const person = (row: (typeof people)[number]) => ({ memberId: row.member_id, name: row.name });
    current = {
      ...roundSummary(open),
      timeLeftMs: Math.max(0, new Date(open.closes_at).getTime() - now.getTime()),
      answeredBy: people.filter((row) => row.answered).map(person),
      notAnswered: people.filter((row) => !row.answered).map(person),
      remindedAt: open.reminded_at ? toIso(open.reminded_at) : null,
    };
  }
  return {
    loop: {
      ...header,
      reminder: loop.reminder,
      schedule: translatorFor(locale).say(scheduleSentence(scheduleOf(loop))),
      nextRoundAt: loop.nextRoundAt ? toIso(loop.nextRoundAt) : null,
    },
    now: now.toISOString(),
    current,
    history: rounds.map(roundSummary),
  };
}

type Counts = Map<string, { value: number; count: number }[]>;

/** Count rows by question: values (scale, eNPS) and free-text answers (value null) apart. */
function byQuestion(rows: q.CountRow[]) {
  const values: Counts = new Map();
  const texts = new Map<string, number>();
  for (const row of rows) {
    if (row.value === null) {
      texts.set(row.question_id, (texts.get(row.question_id) ?? 0) + row.count);
      continue;
    }
    const list = values.get(row.question_id) ?? [];
    list.push({ value: row.value, count: row.count });
    values.set(row.question_id, list);
  }
  return { values, texts };
}

/** A question's figures from its counts per value, by kind (stats.ts). */
function figures(kind: string, rows: { value: number; count: number }[]) {
  if (kind === 'scale') {
    const summary = scaleSummary(countsByValue(rows, SCALE_MIN, SCALE_MAX));
    return { answers: summary.answers, counts: summary.counts, mean: summary.mean, enps: null };
  }
  const counts = countsByValue(rows, ENPS_MIN, ENPS_MAX);
  const enps = enpsSummary(enpsGroups(counts));
  const { promoters, passives, detractors, score } = enps;
  return { answers: enps.answers, counts, mean: null, enps: { promoters, passives, detractors, score } };
}

/** What the release rule (roundResultState) asks of a round, with `answers` of the round or of one question. */
const resultBase = (round: q.RoundWithAnswered, answers: number) => ({
  anonymous: round.anonymous,
  open: round.status === 'open',
  minResponses: round.min_responses,
  answers,
});

/**
 * A round's results, each question released only on its own answers too (a one-click answer may answer one); why
 * something shows nothing said by `t`.
 */
async function roundResults(db: Db, round: q.RoundWithAnswered, t: Translator): Promise<RoundResults> {
  const why = (message: string | null) => (message === null ? null : t.say(message));
  const summary = roundSummary(round);
  const state = roundResultState(resultBase(round, round.answered));
  const questions = (await q.questionsById(db, round.question_ids)).sort(
    (a, b) => round.question_ids.indexOf(a.id) - round.question_ids.indexOf(b.id),
  );
  const released = state === 'released';
  // Nothing of a round that may not show is even read.
  const { values, texts } = released ? byQuestion(await q.countRoundAnswers(db, round.id)) : byQuestion([]);
  const freeText = released ? await q.freeTexts(db, round.id) : [];
  const results = questions.map((question): QuestionResult => {
    const shown = {
      ...questionOut(question, t),
      counts: null,
      shares: null,
      mean: null,
      enps: null,
      texts: null,
    };
    if (!released)
      return {
        ...shown,
        answers: 0,
        state,
        message: why(roundResultMessage(state, resultBase(round, round.answered))),
      };
    if (question.kind === 'text') {
      const list = freeText.filter((row) => row.question_id === question.id);
      const answers = texts.get(question.id) ?? 0;
      const own = roundResultState(resultBase(round, answers));
      return {
        ...shown,
        answers,
        state: own,
        message: why(roundResultMessage(own, resultBase(round, answers))),
        texts:
          own === 'released'
            ? orderFreeText(
                list.map((row) => ({ text: row.text, author: round.anonymous ? null : row.author })),
              )
            : null,
      };
    }
    const made = figures(question.kind, values.get(question.id) ?? []);
    const own = roundResultState(resultBase(round, made.answers));
    if (own !== 'released')
      return {
        ...shown,
        answers: made.answers,
        state: own,
        message: why(roundResultMessage(own, resultBase(round, made.answers))),
      };
    return { ...shown, ...made, shares: shares(made.counts), state: own, message: null };
  });
  return {
    ...summary,
    state,
    message: why(roundResultMessage(state, resultBase(round, round.answered))),
    questions: results,
    followUps: (
      await roundFollowUps(
        db,
        {
          id: round.id,
          anonymous: round.anonymous,
          open: round.status === 'open',
          minResponses: round.min_responses,
          answered: round.answered,
        },
        t,
      )
    ).map((followUp) => ({ ...followUp, message: why(followUp.message) })),
  };
}

async function pickRound(db: Db, loopId: string, roundId: string | undefined) {
  const rounds = await q.roundsWithAnswered(db, loopId);
  const round = roundId
    ? rounds.find((row) => row.id === roundId)
    : defaultResultsRound(rounds, (row) => roundResultState(resultBase(row, row.answered)));
  if (roundId && !round) throw notFound(NOT_FOUND_MESSAGES.round);
  return { rounds, round };
}

/** Loop Results: the round picker and the chosen round's results (default: defaultResultsRound), in `locale`. */
export async function loopResults(
  deps: Deps,
  options: { userId: string; loopId: string; roundId?: string },
  locale: Locale,
): Promise<LoopResults> {
  const { header } = await loopHeader(deps.db, options.userId, options.loopId);
  const { rounds, round } = await pickRound(deps.db, options.loopId, options.roundId);
  return {
    loop: header,
    rounds: rounds.map(roundSummary),
    round: round ? await roundResults(deps.db, round, translatorFor(locale)) : null,
  };
}

/**
 * The CSV export of a released round (default: as Loop Results): a line per question and value, and per free-text
 * answer, its header, kinds and messages in the downloader's `locale`, the catalogue's questions too; answers and
 * names as written, numbers as numbers. Each download is recorded in the audit log (who, which loop
 * and round; never an answer).
 */
export async function loopResultsCsv(
  deps: Deps,
  options: { userId: string; loopId: string; roundId?: string | undefined; by: AuditBy; locale: Locale },
) {
  const words = translatorFor(options.locale);
  const { loop } = await loopHeader(deps.db, options.userId, options.loopId);
  const { round } = await pickRound(deps.db, options.loopId, options.roundId);
  if (!round) throw notFound(NOT_FOUND_MESSAGES.round);
  const results = await roundResults(deps.db, round, words);
  if (results.state !== 'released') throw conflict(LOOP_MESSAGES.resultsNotReleased);
  const rows: (string | number | null)[][] = [csvHeader(LOOP_RESULTS_CSV_COLUMNS, words)];
  const prefix = [localizeContent(options.locale, loop.title, 'title'), round.number];
  const followUpKind = words.t(QUESTION_KIND_WORDS['follow-up']!);
  for (const shown of results.questions) {
    // The catalogue's question in the downloader's language (an admin's own as written), its kind in words.
    const question = {
      ...shown,
      text: localizeContent(options.locale, shown.text, 'text'),
      kind: wordFor(QUESTION_KIND_WORDS, shown.kind, words),
    };
    if (question.state !== 'released') {
      rows.push([
        ...prefix,
        question.text,
        question.kind,
        null,
        question.answers,
        null,
        null,
        null,
        question.message,
        null,
      ]);
      continue;
    }
    for (const text of question.texts ?? [])
      rows.push([
        ...prefix,
        question.text,
        question.kind,
        null,
        null,
        null,
        null,
        null,
        text.text,
        text.author,
      ]);
    const min = shown.kind === 'scale' ? SCALE_MIN : ENPS_MIN;
    for (const [index, count] of (question.counts ?? []).entries()) {
      rows.push([
        ...prefix,
        question.text,
        question.kind,
        index + min,
        count,
        question.shares?.[index] ?? null,
        question.mean,
        question.enps?.score ?? null,
        null,
        null,
      ]);
    }
  }
  // 'Follow-up on actions': a line per answer of each released follow-up, as the questions' values.
  for (const followUp of results.followUps) {
    if (followUp.state !== 'released' || !followUp.counts || !followUp.percentages) {
      rows.push([
        ...prefix,
        followUp.question,
        followUpKind,
        null,
        followUp.answers,
        null,
        null,
        null,
        followUp.message,
        null,
      ]);
      continue;
    }
    for (const answer of FOLLOW_UP_ANSWERS)
      rows.push([
        ...prefix,
        followUp.question,
        followUpKind,
        words.t(FOLLOW_UP_ANSWER_LABELS[answer]),
        followUp.counts[answer],
        followUp.percentages[answer],
        null,
        null,
        null,
        null,
      ]);
  }
  await deps.db.transaction((tx) =>
    recordWorkspaceAudit(tx, loop.workspaceId, options.by, {
      action: 'results.exported',
      targetType: 'loop',
      targetId: loop.id,
      targetLabel: loop.title,
      changes: { format: 'csv', report: 'loop-results', round: round.number },
    }),
  );
  return {
    fileName: `loop-${round.number}-${loop.title.replace(/[^\w-]+/g, '-').slice(0, 40)}.csv`,
    body: csvFile(rows),
  };
}

type PointInput = {
  round: q.RoundWithAnswered;
  counts: { value: number; count: number }[];
};

/** The points of one question's line, each with its change from the line's previous point (stats.ts). */
function linePoints(kind: string, inputs: PointInput[], t: Translator): TrendPoint[] {
  const made = inputs.map(({ round, counts }) => {
    const fig = figures(kind, counts);
    const roundState = roundResultState(resultBase(round, round.answered));
    const state = roundState === 'released' ? roundResultState(resultBase(round, fig.answers)) : roundState;
    return { round, counts: fig.counts, state, fig };
  });
  return made.map((point, index) => {
    const previous = made[index - 1];
    let change: Change | null = null;
    if (previous && previous.state === 'released' && point.state === 'released') {
      const minimum = Math.max(previous.round.min_responses, point.round.min_responses);
      change =
        kind === 'scale'
          ? scaleChange(previous.counts, point.counts, minimum)
          : enpsChange(enpsGroups(previous.counts), enpsGroups(point.counts), minimum);
    }
    const released = point.state === 'released';
    return {
      roundId: point.round.id,
      number: point.round.number,
      openedAt: toIso(point.round.opened_at),
      answers: released ? point.fig.answers : 0,
      state: point.state,
      value: released ? (kind === 'scale' ? point.fig.mean : (point.fig.enps?.score ?? null)) : null,
      change,
      label: t.t(changeLabel(change)),
    };
  });
}

/**
 * Loop Insights: a trend line per question id (a new wording is a new question, so a new line), over the rounds
 * that asked it; participation per round. Closed rounds are read from their stored counts (one small GROUP BY
 * result per round); an open round that is not anonymous is counted live; an open anonymous round shows nothing.
 */
export async function loopInsights(
  deps: Deps,
  options: { userId: string; loopId: string },
  locale: Locale,
): Promise<LoopInsights> {
  const t = translatorFor(locale);
  // Read together with the access check (in parallel on a server database); nothing is answered unless it passes.
  const [{ header }, { rounds, questions, counts: stored }, actionsWorked] = await Promise.all([
    loopHeader(deps.db, options.userId, options.loopId),
    q.insightsData(deps.db, options.loopId),
    loopActionsWorked(deps.db, options.loopId),
  ]);
  const chronological = [...rounds].reverse();
  const counts = new Map<string, { value: number; count: number }[]>();
  for (const row of stored) {
    const values = row.values.map((value, index) => ({ value, count: row.counts[index] ?? 0 }));
    counts.set(`${row.round_id}:${row.question_id}`, values);
  }
  const open = chronological.find((round) => round.status === 'open' && !round.anonymous);
  if (open) {
    for (const [questionId, values] of byQuestion(await q.countRoundAnswers(deps.db, open.id)).values)
      counts.set(`${open.id}:${questionId}`, values);
  }

  const lines: TrendLine[] = questions
    .filter((question) => question.kind !== 'text')
    .sort((a, b) => Number(a.retiredAt !== null) - Number(b.retiredAt !== null) || a.position - b.position)
    .flatMap((question) => {
      const asked = chronological.filter((round) => round.question_ids.includes(question.id));
      if (asked.length === 0) return [];
      return [
        {
          ...questionOut(question, t),
          current: question.retiredAt === null,
          points: linePoints(
            question.kind,
            asked.map((round) => ({ round, counts: counts.get(`${round.id}:${question.id}`) ?? [] })),
            t,
          ),
        },
      ];
    });
  const participation = chronological.map((round, index) => {
    const previous = chronological[index - 1];
    const change = previous
      ? participationChange(
          { answered: previous.answered, audience: previous.audience },
          { answered: round.answered, audience: round.audience },
        )
      : null;
    return {
      roundId: round.id,
      number: round.number,
      openedAt: toIso(round.opened_at),
      answers: round.answered,
      audience: round.audience,
      state: 'released' as const,
      value: responseRate(round.answered, round.audience),
      change,
      label: t.t(changeLabel(change)),
    };
  });
  const { canChange: _canChange, ...loop } = header;
  return {
    loop,
    lines,
    enps: lines.filter((line) => line.kind === 'enps'),
    participation,
    actionsWorked,
    method: t.t(INSIGHTS_METHOD),
  };
}

/** The signed-in member's open rounds (the participant /dashboard). */
export async function myLoopRounds(db: Db, userId: string): Promise<MyLoopRound[]> {
  const rows = await q.openRoundsFor(db, userId);
  return rows.map((row) => ({
    roundId: row.round_id,
    loopId: row.loop_id,
    title: row.title,
    workspaceName: row.workspace_name,
    number: row.number,
    closesAt: toIso(row.closes_at),
    answered: row.answered,
    link: LOOP_LINKS.round(row.round_id),
  }));
}
