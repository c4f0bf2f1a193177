import { NOT_FOUND_MESSAGES } from '@pulsecheck/shared/api/errors';
import { CONTENT_MESSAGES, sameLanguageTranslations } from '@pulsecheck/shared/i18n/content';
import { baseLanguage, type Language, type Locale } from '@pulsecheck/shared/i18n/languages';
import type { Translator } from '@pulsecheck/shared/i18n/translate';
import type {
  LaunchLoopResponse,
  LoopDashboardItem,
  LoopDetail,
  LoopQuestionEdit,
  LoopQuestionOut,
  RoundSummary,
} from '@pulsecheck/shared/loops/contract';
import { LOOP_LINKS } from '@pulsecheck/shared/loops/links';
import { responseRate } from '@pulsecheck/shared/loops/stats';
import {
  audienceProblem,
  ENPS_LABELS,
  LOOP_MESSAGES,
  loopDashboardStatus,
  type LoopStatus,
  loosenedLoopMessages,
  loosenedLoopSettings,
  sameQuestion,
  type QuestionKind,
} from '@pulsecheck/shared/loops/rules';
import {
  anchorAt,
  firstRoundProblem,
  nextRoundOpening,
  planFirstRound,
  scheduleSentence,
  type ScheduleRule,
} from '@pulsecheck/shared/loops/schedule';
import type {
  LaunchLoop,
  LoopAudience,
  LoopDefinition,
  LoopQuestion,
} from '@pulsecheck/shared/loops/schemas';
import { changedFields, recordWorkspaceAudit, type AuditBy } from '../../audit/record';
import { loopAccess, requireWorkspace } from '../../auth/access';
import type { Db } from '../../db/client';
import { AppError, conflict, forbidden, invalid, notFound, templateNotFound } from '../../lib/app-error';
import { translatorFor } from '../../lib/i18n';
import { findLoopTemplate } from '../templates/service';
import * as q from './queries';
import { questionWording } from './wording';
import { canonicalWording } from '../../lib/content-language';
import {
  closeLockedRound,
  closeRound,
  publishLoopChanged,
  remindRound,
  roundSummary,
  scheduleOf,
  scheduleOpening,
  startRound,
  toIso,
  type Deps,
} from './rounds';

/** Launch, read, edit, pause, resume and stop a loop, and its rounds by hand (docs/api/loops.md). */

const HOUR_MS = 3_600_000;

const loopNotFound = () => notFound(NOT_FOUND_MESSAGES.loop);
const roundNotFound = () => notFound(NOT_FOUND_MESSAGES.round);

/** The loop when the user may oversee it (workspace admins and members), else 404. */
export async function requireLoop(db: Db, userId: string, loopId: string) {
  const access = await loopAccess(db, userId, loopId);
  if (!access) throw loopNotFound();
  return access;
}

/** The loop when the user may change it: 404 for outsiders, 403 for managers who did not create it. */
async function requireLoopChange(db: Db, userId: string, loopId: string) {
  const access = await requireLoop(db, userId, loopId);
  if (!access.mayChange) throw forbidden(LOOP_MESSAGES.notAllowed);
  return access;
}

/**
 * A question as the API answers it, in the reader's language (`t`) when it has their words (`questionWording`),
 * an eNPS question's fixed end labels in it always.
 */
export function questionOut(row: q.QuestionRow, t: Translator): LoopQuestionOut {
  const words = questionWording(row, t.locale);
  return {
    id: row.id,
    kind: row.kind as QuestionKind,
    text: words.text,
    lowLabel: row.kind === 'enps' ? t.t(ENPS_LABELS.low) : words.lowLabel,
    highLabel: row.kind === 'enps' ? t.t(ENPS_LABELS.high) : words.highLabel,
    shownIn: words.shownIn,
  };
}

/** A current question for its editor (Configure Loop): as written, with its translations as written. */
const questionToEdit = (row: q.QuestionRow, t: Translator): LoopQuestionEdit => ({
  id: row.id,
  kind: row.kind as QuestionKind,
  text: row.text,
  lowLabel: row.kind === 'enps' ? t.t(ENPS_LABELS.low) : row.lowLabel,
  highLabel: row.kind === 'enps' ? t.t(ENPS_LABELS.high) : row.highLabel,
  shownIn: null,
  translations: row.translations ?? {},
});

const questionRow = (loopId: string, question: LoopQuestion, position: number) => ({
  loopId,
  kind: question.kind,
  text: question.text,
  lowLabel: question.kind === 'scale' ? question.lowLabel : null,
  highLabel: question.kind === 'scale' ? question.highLabel : null,
  translations: question.translations ?? null,
  position,
});

/**
 * The language a loop's questions are written in: the one given, else (a launch without one) the admin's own
 * (their request's). A question translated into it is refused: its original says it.
 */
function questionsLanguage(input: LoopDefinition, fallback: Language): Language {
  const language = input.language ?? fallback;
  const index = input.questions.findIndex((question) =>
    sameLanguageTranslations(question.translations, language),
  );
  if (index >= 0) {
    const field = `questions.${index}.translations.${language}`;
    throw invalid(CONTENT_MESSAGES.translationSameLanguage, {
      [field]: CONTENT_MESSAGES.translationSameLanguage,
    });
  }
  return language;
}

const wording = (row: q.QuestionRow) => ({
  kind: row.kind as QuestionKind,
  text: row.text,
  lowLabel: row.lowLabel ?? undefined,
  highLabel: row.highLabel ?? undefined,
});

/**
 * The audience is answerable and large enough: chosen members must be active members of the workspace with an
 * account, and 'all' must hold at least `minResponses` of them (the form checks chosen members' number itself).
 */
async function checkAudience(db: Db, workspaceId: string, audience: LoopAudience, minResponses: number) {
  if (audience.kind === 'members') {
    const found = await q.activeMembersAmong(db, workspaceId, audience.memberIds);
    if (found.length !== audience.memberIds.length) {
      throw invalid(LOOP_MESSAGES.audienceMember, { 'audience.memberIds': LOOP_MESSAGES.audienceMember });
    }
    return;
  }
  const problem = audienceProblem(await q.countActiveMembers(db, workspaceId), minResponses);
  if (problem) throw invalid(problem, { audience: problem });
}

const ruleOf = (input: ScheduleRule): ScheduleRule => ({
  cadence: input.cadence,
  weekday: input.weekday,
  time: input.time,
  timeZone: input.timeZone,
});

/** A loop's title, description and questions as stored: the catalogue's words in English (content-language.ts). */
const storedWording = <T extends LoopDefinition>(input: T): T => ({
  ...input,
  ...canonicalWording({ title: input.title, description: input.description, questions: input.questions }),
});

class DuplicateLaunch extends Error {}

/**
 * 'Launch Loop': one transaction writes the loop, its questions, its chosen audience and the job that opens its
 * first round; with 'Start now' the round then opens at once (the job, should this fail, opens it instead). The
 * client's `launchKey` makes a repeated request answer the first launch (and records nothing more in the audit log).
 */
export async function launchLoop(
  deps: Deps,
  options: LaunchLoop & { userId: string; by: AuditBy },
  _user?: unknown,
  locale: Locale = 'en',
): Promise<LaunchLoopResponse> {
  const { userId, by, ...rest } = options;
  const input = storedWording(rest);
  const language = questionsLanguage(input, baseLanguage(locale));
  const mail = deps.mailer.enabled ? ('sending' as const) : ('off' as const);
  const earlier = await q.findLoopByLaunchKey(deps.db, userId, input.launchKey);
  if (earlier) return { ...(await launchedAnswer(deps.db, earlier.id)), mail };

  await requireWorkspace(deps.db, userId, input.workspaceId);
  if (input.templateId) {
    const template = await findLoopTemplate(deps.db, input.templateId);
    if (!template || (!template.isGlobal && template.workspaceId !== input.workspaceId))
      throw templateNotFound();
  }
  const now = new Date();
  const rule = ruleOf(input);
  const problem = firstRoundProblem(rule, input.start, now);
  if (problem) throw invalid(problem, { start: problem });
  await checkAudience(deps.db, input.workspaceId, input.audience, input.minResponses);
  const plan = planFirstRound(rule, input.start, now);

  const id = await deps.db
    .transaction(async (tx) => {
      const loopId = await q.insertLoop(tx, {
        workspaceId: input.workspaceId,
        title: input.title,
        description: input.description,
        language,
        status: 'active',
        audienceKind: input.audience.kind,
        ...rule,
        anchorDate: plan.schedule.anchorDate,
        roundDays: input.roundDays,
        anonymous: input.anonymous,
        minResponses: input.minResponses,
        reminder: input.reminder,
        followUpActions: input.followUpActions,
        nextRoundAt: plan.opensAt,
        templateId: input.templateId,
        createdBy: userId,
        launchKey: input.launchKey,
      });
      if (!loopId) throw new DuplicateLaunch();
      await q.insertQuestions(
        tx,
        input.questions.map((question, index) => questionRow(loopId, question, index)),
      );
      if (input.audience.kind === 'members') await q.replaceAudience(tx, loopId, input.audience.memberIds);
      await scheduleOpening(tx, loopId, plan.opensAt);
      await publishLoopChanged(deps, { id: loopId, workspaceId: input.workspaceId }, tx);
      await recordWorkspaceAudit(tx, input.workspaceId, by, {
        action: 'loop.launched',
        targetType: 'loop',
        targetId: loopId,
        targetLabel: input.title,
        changes: {
          questions: input.questions.length,
          audience: input.audience.kind,
          cadence: rule.cadence,
          anonymous: input.anonymous,
          minResponses: input.minResponses,
          firstRoundAt: plan.opensAt.toISOString(),
        },
      });
      return loopId;
    })
    .catch(async (error: unknown) => {
      if (!(error instanceof DuplicateLaunch)) throw error;
      const found = await q.findLoopByLaunchKey(deps.db, userId, input.launchKey);
      if (!found) throw new AppError('internal', 'errors.loopNotLaunched');
      return found.id;
    });
  if (plan.startsNow) {
    await startRound(deps, { loopId: id, expectedAt: plan.opensAt }).catch((error: unknown) => {
      deps.logger.warn({ err: error, loopId: id }, 'the first round will be opened by its job');
    });
  }
  return { ...(await launchedAnswer(deps.db, id)), mail };
}

/** The answer of a launch: when the first round opened (or opens), and whether it started at launch. */
async function launchedAnswer(db: Db, loopId: string) {
  const rounds = await q.roundsWithAnswered(db, loopId);
  const first = rounds.at(-1);
  const loop = await q.findLoop(db, loopId);
  const firstRoundAt = first ? toIso(first.opened_at) : toIso(loop?.nextRoundAt ?? new Date());
  return { id: loopId, firstRoundAt, startedNow: Boolean(first) };
}

/** A loop for Configure Loop (edit) and the headers of its screens, its words in `locale`. */
export async function getLoop(
  deps: Pick<Deps, 'db'>,
  options: { userId: string; loopId: string },
  locale: Locale,
) {
  const access = await requireLoop(deps.db, options.userId, options.loopId);
  return loopDetail(deps.db, options.loopId, access.mayChange, locale);
}

async function loopDetail(db: Db, loopId: string, canChange: boolean, locale: Locale): Promise<LoopDetail> {
  const t = translatorFor(locale);
  const loop = await q.findLoop(db, loopId);
  if (!loop) throw loopNotFound();
  const [questions, rounds, workspaceName] = await Promise.all([
    q.currentQuestions(db, loopId),
    q.roundsWithAnswered(db, loopId),
    q.workspaceName(db, loop.workspaceId),
  ]);
  const audience: LoopAudience =
    loop.audienceKind === 'members'
      ? { kind: 'members', memberIds: await q.audienceMemberIds(db, loopId) }
      : { kind: 'all' };
  const open = rounds.find((round) => round.status === 'open');
  return {
    id: loop.id,
    workspace: { id: loop.workspaceId, name: workspaceName ?? '' },
    title: loop.title,
    description: loop.description,
    status: loop.status as LoopDetail['status'],
    language: loop.language,
    questions: questions.map((question) => questionToEdit(question, t)),
    audience,
    cadence: loop.cadence as LoopDetail['cadence'],
    weekday: loop.weekday as LoopDetail['weekday'],
    time: loop.time,
    timeZone: loop.timeZone,
    roundDays: loop.roundDays,
    anonymous: loop.anonymous,
    minResponses: loop.minResponses,
    reminder: loop.reminder,
    followUpActions: loop.followUpActions,
    schedule: t.say(scheduleSentence(scheduleOf(loop))),
    nextRoundAt: loop.nextRoundAt ? toIso(loop.nextRoundAt) : null,
    currentRound: open ? roundSummary(open) : null,
    roundCount: rounds.length,
    hasAnswers: rounds.some((round) => round.answered > 0),
    templateId: loop.templateId,
    createdAt: toIso(loop.createdAt),
    completedAt: loop.completedAt ? toIso(loop.completedAt) : null,
    canChange,
  };
}

/**
 * Keeps each question whose id is one of the loop's current questions and whose wording is the same
 * (`sameQuestion`), moving it to its new place; every other question is new (a new trend line), and current
 * questions left out or reworded are retired with their answers.
 */
async function replaceQuestions(tx: Db, loopId: string, questions: LoopQuestion[]) {
  const current = new Map((await q.currentQuestions(tx, loopId)).map((row) => [row.id, row]));
  const kept = new Set<string>();
  const added: ReturnType<typeof questionRow>[] = [];
  for (const [index, question] of questions.entries()) {
    const existing = question.id ? current.get(question.id) : undefined;
    if (existing && sameQuestion(wording(existing), question)) {
      kept.add(existing.id);
      if (existing.position !== index) await q.moveQuestion(tx, existing.id, index);
      // Its translations are not its wording: they change with it kept (and its trend line with it).
      const translations = question.translations ?? null;
      if (JSON.stringify(existing.translations ?? null) !== JSON.stringify(translations))
        await q.updateQuestionTranslations(tx, existing.id, translations);
    } else {
      added.push(questionRow(loopId, question, index));
    }
  }
  await q.retireQuestions(
    tx,
    [...current.keys()].filter((id) => !kept.has(id)),
  );
  await q.insertQuestions(tx, added);
}

const sameRule = (a: ScheduleRule, b: ScheduleRule) =>
  a.cadence === b.cadence && a.weekday === b.weekday && a.time === b.time && a.timeZone === b.timeZone;

/**
 * Edits a running loop (workspace admins and its creator). Once any round has answers, the settings that protect
 * respondents only get stricter (409 naming each field). A new schedule re-anchors from now, as 'Start now' does
 * without opening a round. The open round keeps the questions and settings it opened with. The settings that
 * changed (before and after) and the number of questions go to the audit log in the same transaction.
 */
export async function editLoop(
  deps: Deps,
  options: LoopDefinition & { userId: string; loopId: string; by: AuditBy },
  locale: Locale,
) {
  const { userId, loopId, by, ...rest } = options;
  const input = storedWording(rest);
  const access = await requireLoopChange(deps.db, userId, loopId);
  await checkAudience(deps.db, access.workspaceId, input.audience, input.minResponses);
  await deps.db.transaction(async (tx) => {
    const loop = await q.lockLoop(tx, loopId);
    if (!loop) throw loopNotFound();
    if (loop.status === 'completed') throw new AppError('loop_ended', LOOP_MESSAGES.loopEnded);
    const language = questionsLanguage(input, loop.language);
    const loosened = loosenedLoopSettings(loop, input);
    if (loosened.length > 0 && (await q.roundsWithAnswered(tx, loopId)).some((round) => round.answered > 0)) {
      throw conflict(LOOP_MESSAGES.settingsOnlyStricter, loosenedLoopMessages(loop, loosened));
    }
    const rowsBefore = await q.currentQuestions(tx, loopId);
    const questionsBefore = rowsBefore.map(wording);
    await replaceQuestions(tx, loopId, input.questions);
    await q.replaceAudience(tx, loopId, input.audience.kind === 'members' ? input.audience.memberIds : []);
    const rule = ruleOf(input);
    const rescheduled = !sameRule(scheduleOf(loop), rule);
    const schedule = rescheduled ? anchorAt(rule, new Date()) : scheduleOf(loop);
    let nextRoundAt = loop.nextRoundAt;
    if (rescheduled && loop.status === 'active') {
      const [last] = await q.roundsWithAnswered(tx, loopId);
      nextRoundAt = nextRoundOpening(schedule, {
        after: new Date(),
        lastOpenedAt: last ? new Date(last.opened_at) : null,
      }).opensAt;
      await scheduleOpening(tx, loopId, nextRoundAt);
    }
    await q.updateLoop(tx, loopId, {
      title: input.title,
      description: input.description,
      language,
      audienceKind: input.audience.kind,
      ...rule,
      anchorDate: schedule.anchorDate,
      roundDays: input.roundDays,
      anonymous: input.anonymous,
      minResponses: input.minResponses,
      reminder: input.reminder,
      followUpActions: input.followUpActions,
      nextRoundAt,
    });
    const settingsOf = (values: LoopDefinition | typeof loop) => ({
      title: values.title,
      description: values.description,
      audience: 'audience' in values ? values.audience.kind : values.audienceKind,
      cadence: values.cadence,
      weekday: values.weekday,
      time: values.time,
      timeZone: values.timeZone,
      roundDays: values.roundDays,
      anonymous: values.anonymous,
      minResponses: values.minResponses,
      reminder: values.reminder,
      followUpActions: values.followUpActions,
    });
    const changes = changedFields(settingsOf(loop), settingsOf(input));
    const questionsChanged =
      questionsBefore.length !== input.questions.length ||
      input.questions.some((question, index) => !sameQuestion(questionsBefore[index]!, question));
    if (questionsChanged)
      changes.questions = { before: questionsBefore.length, after: input.questions.length };
    if (language !== loop.language) changes.language = { before: loop.language, after: language };
    // The translations as a count: what people in each language read changed, not the questions.
    const translated = (list: { translations?: object | null }[]) =>
      list.map((question) => JSON.stringify(question.translations ?? {}));
    if (translated(rowsBefore).join('\n') !== translated(input.questions).join('\n')) {
      const count = (list: { translations?: object | null }[]) =>
        list.reduce((sum, question) => sum + Object.keys(question.translations ?? {}).length, 0);
      changes.translations = { before: count(rowsBefore), after: count(input.questions) };
    }
    if (Object.keys(changes).length > 0) {
      await recordWorkspaceAudit(tx, loop.workspaceId, by, {
        action: 'loop.changed',
        targetType: 'loop',
        targetId: loop.id,
        targetLabel: input.title,
        changes,
      });
    }
    await publishLoopChanged(deps, loop, tx);
  });
  return { loop: await loopDetail(deps.db, loopId, true, locale) };
}

type StatusChange = 'pause' | 'resume' | 'stop';

/**
 * Pause (no round opens; the open round takes no answers), resume (the next round by the schedule from now on:
 * missed slots are skipped) and stop (for good: the open round closes and is sealed). Repeating one is harmless.
 * A change of status is recorded in the audit log in its transaction; a repeat changes nothing and records nothing.
 */
export async function changeLoopStatus(
  deps: Deps,
  options: { userId: string; loopId: string; change: StatusChange; by: AuditBy },
  locale: Locale,
) {
  await requireLoopChange(deps.db, options.userId, options.loopId);
  await deps.db.transaction(async (tx) => {
    const loop = await q.lockLoop(tx, options.loopId);
    if (!loop) throw loopNotFound();
    if (loop.status === 'completed') {
      if (options.change === 'stop') return;
      throw new AppError('loop_ended', LOOP_MESSAGES.loopEnded);
    }
    const now = new Date();
    const after: LoopStatus =
      options.change === 'pause' ? 'paused' : options.change === 'resume' ? 'active' : 'completed';
    if (options.change === 'pause') {
      await q.updateLoop(tx, loop.id, { status: 'paused', nextRoundAt: null });
    } else if (options.change === 'resume') {
      if (loop.status === 'active') return;
      const [last] = await q.roundsWithAnswered(tx, loop.id);
      const next = nextRoundOpening(scheduleOf(loop), {
        after: now,
        lastOpenedAt: last ? new Date(last.opened_at) : null,
      }).opensAt;
      await q.updateLoop(tx, loop.id, { status: 'active', nextRoundAt: next });
      await scheduleOpening(tx, loop.id, next);
    } else {
      const open = await q.openRoundOf(tx, loop.id);
      if (open) await closeLockedRound(deps, tx, { loop, round: open, now });
      await q.updateLoop(tx, loop.id, { status: 'completed', nextRoundAt: null, completedAt: now });
    }
    // Last, so the organisation's audit chain is locked only for the end of the transaction.
    if (after !== loop.status) {
      await recordWorkspaceAudit(tx, loop.workspaceId, options.by, {
        action: 'loop.status-changed',
        targetType: 'loop',
        targetId: loop.id,
        targetLabel: loop.title,
        changes: { status: { before: loop.status, after } },
      });
    }
    await publishLoopChanged(deps, loop, tx);
  });
  return { loop: await loopDetail(deps.db, options.loopId, true, locale) };
}

async function summaryOf(db: Db, loopId: string, roundId: string): Promise<RoundSummary> {
  const round = (await q.roundsWithAnswered(db, loopId)).find((row) => row.id === roundId);
  if (!round) throw roundNotFound();
  return roundSummary(round);
}

/** 'Start Next Round Now': closes the open round and opens the next one; it stands in for its period's slot. */
export async function startNextRoundNow(deps: Deps, options: { userId: string; loopId: string }) {
  await requireLoopChange(deps.db, options.userId, options.loopId);
  const round = await startRound(deps, { loopId: options.loopId });
  if (!round) throw loopNotFound();
  return { round: await summaryOf(deps.db, options.loopId, round.id) };
}

/** The round, when it is one of the loop's (any other id is not found). */
async function requireRoundOf(db: Db, loopId: string, roundId: string) {
  const round = await q.findRound(db, roundId);
  if (!round || round.loopId !== loopId) throw roundNotFound();
  return round;
}

/** 'Close Round Now'. Closing a closed round answers it as it is. */
export async function closeRoundNow(
  deps: Deps,
  options: { userId: string; loopId: string; roundId: string },
) {
  await requireLoopChange(deps.db, options.userId, options.loopId);
  await requireRoundOf(deps.db, options.loopId, options.roundId);
  await closeRound(deps, { roundId: options.roundId });
  return { round: await summaryOf(deps.db, options.loopId, options.roundId) };
}

/**
 * 'Send Reminder': to the round's members who have not answered, by their settings; at most one an hour (decided
 * and recorded under the locks, so two clicks send one).
 */
export async function sendReminder(deps: Deps, options: { userId: string; loopId: string; roundId: string }) {
  await requireLoopChange(deps.db, options.userId, options.loopId);
  await requireRoundOf(deps.db, options.loopId, options.roundId);
  const due = await deps.db.transaction(async (tx) => {
    const loop = await q.lockLoop(tx, options.loopId);
    const round = await q.lockRound(tx, options.roundId);
    if (!loop || !round) throw roundNotFound();
    if (round.status !== 'open') throw new AppError('round_closed', LOOP_MESSAGES.roundClosed);
    if (round.remindedAt && Date.now() - round.remindedAt.getTime() < HOUR_MS) {
      throw conflict(LOOP_MESSAGES.reminderTooSoon);
    }
    await q.updateRound(tx, round.id, { remindedAt: new Date() });
    return { loop, round };
  });
  const reminded = await remindRound(deps, due);
  return { reminded, mail: deps.mailer.enabled ? ('sending' as const) : ('off' as const) };
}

/** The workspace's loops for the admin dashboard, with the current (or last) round's figures. */
export async function dashboardLoopItems(db: Db, workspaceId: string): Promise<LoopDashboardItem[]> {
  const rows = await q.dashboardLoops(db, workspaceId);
  return rows.map((row) => {
    const status = loopDashboardStatus(row.status);
    const responses = row.answered ?? 0;
    const audience = row.audience ?? 0;
    return {
      id: row.id,
      kind: 'loop',
      title: row.title,
      description: row.description || null,
      status,
      loopStatus: row.status as LoopStatus,
      createdAt: toIso(row.created_at),
      completedAt: row.completed_at ? toIso(row.completed_at) : null,
      responses,
      totalParticipants: audience,
      completionRate: responseRate(responses, audience),
      overdue: false,
      currentRound: row.number,
      roundOpen: row.round_status === 'open',
      nextRoundAt: row.next_round_at ? toIso(row.next_round_at) : null,
      link: status === 'completed' ? LOOP_LINKS.results(row.id) : LOOP_LINKS.completionStatus(row.id),
    };
  });
}
