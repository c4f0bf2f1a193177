import {
  actionsToAsk,
  actionsToAskInRound,
  componentHealth,
  followUpPercentages,
  followUpQuestion,
  followUpReleased,
  healthChange,
  healthChangeWords,
  type FollowUpCounts,
  type Words,
} from '@pulsecheck/shared/action-items/follow-up';
import { nudgeOf } from '@pulsecheck/shared/action-items/nudges';
import { shareOf, workedFigures } from '@pulsecheck/shared/action-items/worked';
import type { FollowUpResult, LoopInsights } from '@pulsecheck/shared/loops/contract';
import { roundResultMessage, roundResultState } from '@pulsecheck/shared/loops/release';
import type { ActionToFollowUp } from '@pulsecheck/shared/dashboard/schemas';
import type { ReleaseState } from '@pulsecheck/shared/results/release';
import { RESULTS_MESSAGES } from '@pulsecheck/shared/results/messages';
import type { RatingCounts } from '@pulsecheck/shared/results/rules';
import type { ComponentFollowUp } from '@pulsecheck/shared/results/schemas';
import type { FollowUpCandidate } from '@pulsecheck/shared/action-items/schemas';
import type { ParticipationFollowUp } from '@pulsecheck/shared/participation/contract';
import { sql } from 'drizzle-orm';
import { requireWorkspace } from '../../auth/access';
import type { Db } from '../../db/client';
import * as q from './queries';

const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

/**
 * The workspace's done action items not yet asked about, for Configure (workspace admins and members only; others
 * 404). Configure applies `actionsToAsk` with the components left switched on; the launch applies it again.
 */
export async function listCandidates(
  db: Db,
  options: { userId: string; workspaceId: string },
): Promise<FollowUpCandidate[]> {
  await requireWorkspace(db, options.userId, options.workspaceId);
  const rows = await q.doneActionsOfWorkspace(db, options.workspaceId);
  return actionsToAsk(rows, {
    componentKeys: rows.flatMap((r) => (r.componentKey ? [r.componentKey] : [])),
    launchAt: new Date(),
  }).map((r) => ({ ...r, completedAt: iso(r.completedAt) }));
}

/**
 * At launch, inside its transaction: the questions the new check asks (the shared rule `actionsToAsk`), each tied
 * to the new check's component with the action's component key.
 */
export async function snapshotQuestions(
  tx: Db,
  options: {
    workspaceId: string;
    healthCheckId: string;
    components: { id: string; key: string }[];
    leaveOut: string[];
    launchAt: Date;
  },
) {
  const byKey = new Map(options.components.map((c) => [c.key, c.id]));
  const asked = actionsToAsk(await q.doneActionsOfWorkspace(tx, options.workspaceId), {
    componentKeys: byKey.keys(),
    launchAt: options.launchAt,
    leaveOut: options.leaveOut,
  });
  await q.insertQuestions(
    tx,
    options.healthCheckId,
    asked.map((a) => ({ actionItemId: a.id, componentId: byKey.get(a.componentKey!)! })),
  );
}

/** The check's follow-up questions as participants see them, in `words`' language (the request's). */
export async function participationQuestions(
  db: Db,
  healthCheckId: string,
  words: Words,
): Promise<ParticipationFollowUp[]> {
  const rows = await q.questionsOfCheck(db, healthCheckId);
  return rows.map((r) => ({
    id: r.id,
    componentId: r.componentId,
    actionTitle: r.actionTitle,
    question: followUpQuestion(r.actionTitle, r.componentTitle, words),
  }));
}

/**
 * Stores the answer counts of the organisation's finished checks not counted yet (insights read them; a no-op once
 * stored, see queries.ts storeFollowUpCounts).
 */
export const storeOrganizationFollowUpCounts = (db: Db, organizationId: string) =>
  q.storeFollowUpCounts(
    db,
    sql`h.workspace_id in (select id from workspaces where organization_id = ${organizationId})`,
  );

/** A participant's answers at submit, inside its transaction (decision 0019). */
export const storeAnswers = q.insertAnswers;

/** The follow-up questions of a check with their answers counted: one statement (queries.ts). */
export const followUpResultRows = (db: Db, healthCheckId: string, checkAnonymous: boolean) =>
  q.followUpResults(db, healthCheckId, checkAnonymous);

/**
 * 'Actions since last check' for the results screen, per component of the check (decision 0019), under the
 * shared rules: answers only when released (followUpReleased), the component's health before (the check the action
 * came from, when its own figures may show) and now, and the question and the change in `words`' language (the
 * request's). Called only when the check's figures are released to the caller.
 */
export function followUpsForResults(
  rows: q.FollowUpResultRow[],
  options: {
    state: ReleaseState;
    minResponses: number;
    commentsOn: boolean;
    nowByComponent: Map<string, { title: string; counts: RatingCounts }>;
    words: Words;
  },
): Map<string, ComponentFollowUp[]> {
  const byComponent = new Map<string, ComponentFollowUp[]>();
  for (const row of rows) {
    const current = options.nowByComponent.get(row.componentId);
    if (!current) continue;
    const counts: FollowUpCounts = {
      yes: row.yes,
      partly: row.partly,
      no: row.no,
      'too-early': row.tooEarly,
    };
    const answered = row.yes + row.partly + row.no + row.tooEarly;
    const released = followUpReleased(options.state, answered, options.minResponses);
    const before = row.beforeReleased
      ? componentHealth({
          healthy: row.beforeHealthy,
          needsImprovement: row.beforeNeedsImprovement,
          fireWarning: row.beforeFireWarning,
          dontKnow: 0,
        })
      : null;
    const now = componentHealth(current.counts);
    const list = byComponent.get(row.componentId) ?? [];
    list.push({
      questionId: row.questionId,
      actionItemId: row.actionItemId,
      actionTitle: row.actionTitle,
      question: followUpQuestion(row.actionTitle, current.title, options.words),
      ownerName: row.ownerName,
      doneAt: iso(row.doneAt),
      answered: options.state === 'released' ? answered : null,
      counts: released ? counts : null,
      percentages: released ? followUpPercentages(counts) : null,
      comments:
        released && options.commentsOn
          ? (row.comments ?? []).map((c) => ({
              author: c.name?.trim() || RESULTS_MESSAGES.anonymous,
              content: c.content,
            }))
          : [],
      before,
      now,
      change: healthChange(before, now),
      changeWords: healthChangeWords(before, now, options.words),
    });
    byComponent.set(row.componentId, list);
  }
  return byComponent;
}

/**
 * 'Actions to follow up' (issue 33 item 6) of a workspace (the dashboard) or of an owner (their weekly digest): the
 * candidates of one query, each under the shared rule `nudgeOf`, oldest first.
 */
export async function actionsToFollowUp(
  db: Db,
  of: { workspaceId: string } | { ownerId: string },
  now = new Date(),
): Promise<(ActionToFollowUp & { workspaceName: string })[]> {
  const rows = await q.actionsToFollowUp(db, of, now);
  return rows.flatMap((row) => {
    const nudge = nudgeOf(row, now);
    if (!nudge) return [];
    return [
      {
        id: row.id,
        description: row.description,
        healthCheckId: row.healthCheckId,
        checkTitle: row.checkTitle,
        ownerName: row.ownerName,
        dueDate: row.dueDate,
        completedAt: iso(row.completedAt),
        reason: nudge.reason,
        days: nudge.days,
        workspaceName: row.workspaceName,
      },
    ];
  });
}

// ---------------------------------------------------------------------------------------------------------
// Loop rounds ('Follow-up on actions', issue 33 item 3)

/**
 * At a round's opening, inside its transaction: the questions the round asks (the shared rule
 * `actionsToAskInRound`: the workspace's actions done since `since` and not asked before).
 */
export async function snapshotRoundQuestions(
  tx: Db,
  options: { workspaceId: string; roundId: string; since: Date; openAt: Date },
) {
  const asked = actionsToAskInRound(await q.doneActionsOfWorkspace(tx, options.workspaceId), options);
  await q.insertRoundQuestions(
    tx,
    options.roundId,
    asked.map((a) => a.id),
  );
}

/** The round's follow-up questions as the answer page shows them, in `words`' language (the request's). */
export async function roundQuestionsToAnswer(db: Db, roundId: string, words: Words) {
  const rows = await q.questionsOfRound(db, roundId);
  return rows.map((r) => ({ id: r.id, question: followUpQuestion(r.actionTitle, r.componentTitle, words) }));
}

/** The ids of the round's follow-up questions: what its answers may refer to. */
export async function roundQuestionIds(db: Db, roundId: string): Promise<Set<string>> {
  return new Set((await q.questionsOfRound(db, roundId)).map((r) => r.id));
}

export const storeRoundAnswers = q.upsertRoundAnswers;
export const storeRoundCounts = q.storeRoundCounts;

/**
 * A round's follow-ups for Loop Results: each released by the round's own rule applied to its answers
 * (`roundResultState`, as each question of the round), so nothing while an anonymous round is open and nothing
 * below the round's minimum; figures null otherwise. The questions in `words`' language (the request's).
 */
export async function roundFollowUps(
  db: Db,
  round: { id: string; anonymous: boolean; open: boolean; minResponses: number; answered: number },
  words: Words,
): Promise<FollowUpResult[]> {
  const rows = await q.roundFollowUpResults(db, round.id);
  const whole = { ...round, answers: round.answered };
  const roundState = roundResultState(whole);
  return rows.map((r) => {
    // Nothing of a round that may not show, not even how many answered a question (as its other questions).
    if (roundState !== 'released')
      return {
        id: r.id,
        actionItemId: r.actionItemId,
        actionTitle: r.actionTitle,
        question: followUpQuestion(r.actionTitle, r.componentTitle, words),
        answers: 0,
        state: roundState,
        message: roundResultMessage(roundState, whole),
        counts: null,
        percentages: null,
      };
    const counts: FollowUpCounts = {
      yes: r.counts.yes,
      partly: r.counts.partly,
      no: r.counts.no,
      'too-early': r.counts['too-early'],
    };
    const answers = counts.yes + counts.partly + counts.no + counts['too-early'];
    const figure = { ...round, answers };
    const state = roundResultState(figure);
    const released = state === 'released';
    return {
      id: r.id,
      actionItemId: r.actionItemId,
      actionTitle: r.actionTitle,
      question: followUpQuestion(r.actionTitle, r.componentTitle, words),
      answers,
      state,
      message: roundResultMessage(state, figure),
      counts: released ? counts : null,
      percentages: released ? followUpPercentages(counts) : null,
    };
  });
}

/**
 * 'Actions that worked' for a loop (issue 33 item 5): its closed rounds' follow-ups pooled by the shared rules
 * (`workedFigures`): a question's answers count only when its round shows (respondents at its minimum) and at
 * least that many answered it.
 */
export async function loopActionsWorked(db: Db, loopId: string): Promise<LoopInsights['actionsWorked']> {
  const rows = await q.loopFollowUpCounts(db, loopId);
  const figures = workedFigures(
    rows.map((r) => ({
      asked: true,
      checkShown:
        roundResultState({
          anonymous: r.anonymous,
          open: false,
          answers: r.answered,
          minResponses: r.min_responses,
        }) === 'released',
      floor: r.min_responses,
      counts: r.counts,
      before: null,
      after: null,
    })),
  );
  return {
    asked: figures.asked,
    answered: figures.answered,
    workedShare: shareOf(figures.worked, figures.answered),
  };
}
