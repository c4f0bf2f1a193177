import { messageWith } from '@pulsecheck/shared/i18n/message';
import { LIVE_EVENT, topics } from '@pulsecheck/shared/realtime/topics';
import {
  type JoinInfo,
  type JoinResponse,
  type MyHealthCheck,
  type Participation,
  type ProgressResponse,
  type Responses,
  type SaveResponsesResult,
  type SubmitResult,
} from '@pulsecheck/shared/participation/contract';
import {
  PARTICIPATION_MESSAGES as M,
  unansweredCount,
  type ParticipantStatus,
} from '@pulsecheck/shared/participation/rules';
import { FOLLOW_UP_MESSAGES } from '@pulsecheck/shared/action-items/follow-up';
import { STATUS_OF_PHASE, type Phase } from '@pulsecheck/shared/health-checks/rules';
import type { Locale } from '@pulsecheck/shared/i18n/languages';
import { releaseState } from '@pulsecheck/shared/results/release';
import { milestoneNotice, reachedMilestones } from '@pulsecheck/shared/notifications/milestones';
import type { Access } from '../../auth/access';
import { can, type Actor } from '../../auth/policy';
import type { HealthCheckSettings } from '../../db/schema/health-checks';
import type { Database, Db } from '../../db/client';
import { createBatcher, type Batcher } from '../../lib/batcher';
import { translatorFor } from '../../lib/i18n';
import { AppError, conflict, forbidden, invalid, notFound } from '../../lib/app-error';
import type { AppDeps } from '../../lib/router';
import { brandingOfWorkspace } from '../branding/service';
import { notify, recordMilestones } from '../notifications/service';
import { participationQuestions, storeAnswers } from '../follow-ups/service';
import {
  clearPendingJoin,
  countTeam,
  findCheckForUser,
  findJoinInfo,
  findSaveTarget,
  insertParticipant,
  insertRatingsAndComments,
  listComponents,
  listMyChecks,
  lockSubmitTarget,
  markCompleted,
  saveInterimResponsesBatch,
  type AutosaveItem,
  type AutosaveRow,
} from './queries';

type Deps = Pick<AppDeps, 'db' | 'realtime'>;

const iso = (value: string | Date | null) =>
  value === null ? null : value instanceof Date ? value.toISOString() : new Date(value).toISOString();

/** Whether the per-component results are released to the caller as a participant (the one release rule). */
const releasedToParticipant = (
  check: { phase: string; settings: HealthCheckSettings; team_completed: number },
  participantStatus: ParticipantStatus | null,
) =>
  releaseState({
    phase: check.phase,
    manages: false,
    completed: check.team_completed,
    minResponses: check.settings.minResponses,
    participantStatus,
    showResultsAfterVoting: check.settings.showResultsAfterVoting,
  }) === 'released';

/** The caller as the access policy sees them, from their membership row's access. */
const actorOf = (userId: string, access: string | null): Actor => ({
  userId,
  access: access as Access | null,
});

const votingPath = (id: string) => `/health-check/${id}/voting`;

/** The title behind a join link, for signed-out visitors (the link itself is what is shared). */

/** How many have joined a check, and how many of them completed (the team's progress). */
export const participantCounts = (db: Db, healthCheckId: string) => countTeam(db, healthCheckId);

export async function getJoinInfo(db: Db, healthCheckId: string): Promise<JoinInfo> {
  const row = await findJoinInfo(db, healthCheckId);
  if (!row) throw notFound(M.notFound);
  return {
    id: row.id,
    title: row.title,
    acceptingParticipants: row.phase === 'collect',
    branding: await brandingOfWorkspace(db, row.workspace_id),
  };
}

/**
 * Registers the user for the check (PRODUCT-DECISIONS 1 and 3): a `participant` membership of the workspace
 * and a pending participant, exactly once. Someone already registered gets the same answer in any phase;
 * new participants only while the check collects. Clears the user's pending join for this check.
 */
export async function joinHealthCheck(
  deps: Deps,
  options: { userId: string; healthCheckId: string },
): Promise<JoinResponse> {
  const { db, realtime } = deps;
  return db.transaction(async (tx) => {
    const check = await findCheckForUser(tx, options.healthCheckId, options.userId);
    if (!check) throw notFound(M.notFound);
    if (check.participant_id) {
      await clearPendingJoin(tx, options.userId, options.healthCheckId);
      return { participantId: check.participant_id, redirectTo: votingPath(check.id) };
    }
    if (check.phase !== 'collect') throw conflict(M.notAccepting, undefined, { status: check.status });
    const { participantId, created } = await insertParticipant(tx, {
      healthCheckId: check.id,
      workspaceId: check.workspace_id,
      userId: options.userId,
    });
    await clearPendingJoin(tx, options.userId, options.healthCheckId);
    if (created) {
      const data = { healthCheckId: check.id };
      await realtime.publish(
        { topic: topics.healthCheck(check.id), type: LIVE_EVENT.participantsChanged, data },
        tx,
      );
      await realtime.publish(
        { topic: topics.workspace(check.workspace_id), type: LIVE_EVENT.participantsChanged, data },
        tx,
      );
    }
    return { participantId, redirectTo: votingPath(check.id) };
  });
}

/**
 * Spec section 4: "on login the participant is set up, pending_join cleared". Registers the user for the check
 * their sign-up named, as the verification redirect does; when the check no longer takes people (or is gone), the
 * pending join is cleared all the same, so it never lingers.
 */
export async function completePendingJoin(deps: Deps, options: { userId: string; healthCheckId: string }) {
  try {
    await joinHealthCheck(deps, options);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    await clearPendingJoin(deps.db, options.userId, options.healthCheckId);
  }
}

/**
 * The participation screen's read: the check, its enabled components in order, the caller's interim
 * responses and the team's progress. Signed-in non-members get the spec's 403 (PRODUCT-DECISIONS 3). The
 * follow-up questions in `locale`, the request's language.
 */
export async function getParticipation(
  db: Db,
  options: { userId: string; healthCheckId: string; preview: boolean; locale: Locale },
): Promise<Participation> {
  const check = await findCheckForUser(db, options.healthCheckId, options.userId);
  if (!check) throw notFound(M.notFound);
  const actor = actorOf(options.userId, check.access);
  if (!can(actor, 'check:participate')) throw forbidden(M.notMember);
  const components = await listComponents(db, check.template_id);
  const followUps = await participationQuestions(db, check.id, translatorFor(options.locale));
  const teamProgress = { completed: check.team_completed, total: check.team_total };
  const participantStatus = (check.participant_status ?? null) as ParticipantStatus | null;
  return {
    healthCheck: {
      id: check.id,
      title: check.title,
      description: check.description,
      phase: check.phase as Phase,
      status: STATUS_OF_PHASE[check.phase as Phase],
      workspaceName: check.workspace_name ?? M.unknownWorkspace,
      settings: check.settings,
    },
    components: components.map((c) => ({ ...c, examples: c.examples ?? [] })),
    followUps,
    participant:
      check.participant_id && participantStatus
        ? {
            id: check.participant_id,
            status: participantStatus,
            responses: check.responses,
            completedAt: iso(check.participant_completed_at),
          }
        : null,
    teamProgress,
    preview: options.preview && can(actor, 'check:oversee'),
    resultsReleased: releasedToParticipant(check, participantStatus),
    branding: await brandingOfWorkspace(db, check.workspace_id),
  };
}

/** Phase and team progress for polling: no access beyond seeing the check is needed to count. */
export async function getProgress(
  db: Db,
  options: { userId: string; healthCheckId: string },
): Promise<ProgressResponse> {
  const check = await findCheckForUser(db, options.healthCheckId, options.userId);
  if (!check) throw notFound(M.notFound);
  if (!can(actorOf(options.userId, check.access), 'check:participate')) throw forbidden(M.notMember);
  return {
    phase: check.phase as Phase,
    teamProgress: { completed: check.team_completed, total: check.team_total },
  };
}

type Target = {
  phase: string;
  access: string | null;
  participant_id: string | null;
  participant_status: string | null;
  component_ids: string[];
  follow_up_ids: string[];
};

const savedResult = (saved: AutosaveRow): SaveResponsesResult => ({
  status: saved.status as ParticipantStatus,
  progress: saved.progress,
  savedAt: iso(saved.last_activity) ?? new Date().toISOString(),
});

/** The shared refusals of autosave and submit, in the order a caller can fix them. */
function checkWritable(
  userId: string,
  target: Target | undefined,
): asserts target is Target & { participant_id: string } {
  if (!target) throw notFound(M.notFound);
  if (!can(actorOf(userId, target.access), 'check:participate')) throw forbidden(M.notMember);
  if (!target.participant_id) throw forbidden(M.notParticipant);
  if (target.participant_status === 'completed') throw new AppError('already_submitted', M.alreadySubmitted);
  if (target.phase !== 'collect') throw new AppError('rating_closed', M.ratingClosed);
}

function checkComponents(
  target: { component_ids: string[]; follow_up_ids: string[] },
  responses: {
    votes: Record<string, string>;
    comments: Record<string, string>;
    follow_ups?: Record<string, string>;
    follow_up_comments?: Record<string, string>;
  },
) {
  const known = new Set(target.component_ids);
  const unknown = [...Object.keys(responses.votes), ...Object.keys(responses.comments)].find(
    (id) => !known.has(id),
  );
  if (unknown) throw invalid(M.unknownComponent, { votes: M.unknownComponent });
  const questions = new Set(target.follow_up_ids);
  const unknownQuestion = [
    ...Object.keys(responses.follow_ups ?? {}),
    ...Object.keys(responses.follow_up_comments ?? {}),
  ].find((id) => !questions.has(id));
  if (unknownQuestion) {
    throw invalid(FOLLOW_UP_MESSAGES.unknownQuestion, { follow_ups: FOLLOW_UP_MESSAGES.unknownQuestion });
  }
}

/**
 * One autosave batcher per database. One batch in flight makes the batches largest; measured best on both
 * databases (bench/README.md), and it leaves the rest of the pool to other requests.
 */
const autosaveBatchers = new WeakMap<Database, Batcher<AutosaveItem, AutosaveRow | null>>();

const batcherFor = (database: Database) => {
  let batcher = autosaveBatchers.get(database);
  if (!batcher) {
    batcher = createBatcher((items) => saveInterimResponsesBatch(database, items), {
      maxInFlight: 1,
      maxBatch: 100,
    });
    autosaveBatchers.set(database, batcher);
  }
  return batcher;
};

/**
 * Autosave, idempotent, on the hot path. Its rules live in one place: the single statement of
 * saveInterimResponsesBatch checks the session, the membership, the participant, the phase and the components,
 * drops comments when they are off, computes the progress and writes, shared by the autosaves that arrive
 * together. When it refuses, the step-by-step checks below only say why (they write nothing); if none refuses
 * any more (something changed meanwhile), the statement runs once more. `caller` answers 401 without a session.
 */
export async function autosave(
  database: Database,
  item: AutosaveItem,
  caller: () => Promise<{ id: string }>,
): Promise<SaveResponsesResult> {
  const saved = await batcherFor(database).submit(item);
  if (saved) return savedResult(saved);
  const user = await caller();
  const target = await findSaveTarget(database.db, item.healthCheckId, user.id);
  checkWritable(user.id, target);
  checkComponents(target, item.responses);
  const retried = await batcherFor(database).submit(item);
  if (retried) return savedResult(retried);
  throw conflict(M.saveFailed);
}

/**
 * Submit (spec sections 4 and 5): in one transaction, the ratings (never twice), the non-blank trimmed
 * comments, and the participant completed with its interim responses cleared. A repeated or concurrent
 * submit waits for the first and is refused with 'You have already submitted your responses'.
 */
export async function submitResponses(
  deps: Deps,
  options: {
    userId: string;
    healthCheckId: string;
    responses: Pick<Responses, 'votes' | 'comments' | 'follow_ups' | 'follow_up_comments'>;
  },
): Promise<SubmitResult> {
  const { db, realtime } = deps;
  const { healthCheckId } = options;
  return db.transaction(async (tx) => {
    const target = await lockSubmitTarget(tx, healthCheckId, options.userId);
    checkWritable(options.userId, target);
    checkComponents(target, options.responses);
    const missing = unansweredCount(target.component_ids, options.responses.votes);
    if (missing > 0) throw invalid(M.unanswered, { votes: M.unanswered }, { count: missing });

    // With comments off nothing typed is stored (PRODUCT-DECISIONS 3); each comment keeps the anonymity in force.
    const comments = target.settings.enableComments
      ? Object.fromEntries(
          Object.entries(options.responses.comments)
            .map(([id, text]) => [id, text.trim()] as const)
            .filter(([, text]) => text.length > 0),
        )
      : {};
    await insertRatingsAndComments(tx, {
      healthCheckId,
      participantId: target.participant_id,
      votes: options.responses.votes,
      comments,
      anonymous: target.settings.allowAnonymous,
    });
    // Follow-up answers (decision 0019) are stored and kept anonymous like the ratings and their comments.
    const answers = options.responses.follow_ups ?? {};
    await storeAnswers(tx, {
      healthCheckId,
      participantId: target.participant_id,
      answers,
      comments: target.settings.enableComments
        ? Object.fromEntries(
            Object.entries(options.responses.follow_up_comments ?? {})
              .map(([id, text]) => [id, text.trim()] as const)
              .filter(([id, text]) => text.length > 0 && id in answers),
          )
        : {},
      anonymous: target.settings.allowAnonymous,
    });
    await markCompleted(tx, target.participant_id);
    const teamProgress = await countTeam(tx, healthCheckId);

    const data = { healthCheckId };
    await realtime.publish(
      { topic: topics.healthCheck(healthCheckId), type: LIVE_EVENT.healthCheckChanged, data },
      tx,
    );
    await realtime.publish(
      { topic: topics.workspace(target.workspace_id), type: LIVE_EVENT.healthCheckChanged, data },
      tx,
    );
    if (target.created_by) {
      await tellCreator(deps, tx, {
        creatorId: target.created_by,
        healthCheckId,
        title: target.title,
        minResponses: target.settings.minResponses,
        teamProgress,
      });
    }
    return { redirectTo: `/health-check/${healthCheckId}/complete`, teamProgress };
  });
}

/**
 * The creator hears of each new response, and of each completion milestone once (at least half, enough to
 * vote, everyone: `milestones.ts` in packages/shared, for any team size). notify() delivers by their
 * preferences (bell, e-mail, Slack). Inside the submit transaction, which holds the check's row lock, so the
 * counts are exact and nothing is announced for a submit that rolls back; the milestone records' unique keys
 * make each announcement happen once even beyond that lock.
 */
async function tellCreator(
  deps: Deps,
  tx: Db,
  options: {
    creatorId: string;
    healthCheckId: string;
    title: string;
    minResponses: number;
    teamProgress: { completed: number; total: number };
  },
) {
  const link = `/admin/health-check/${options.healthCheckId}/manage`;
  const { completed, total } = options.teamProgress;
  await notify(
    deps,
    {
      userIds: [options.creatorId],
      type: 'new-response',
      message: messageWith('mail.notice.newResponse', { title: options.title, completed, total }),
      link,
      healthCheckId: options.healthCheckId,
    },
    tx,
  );
  const team = { completed, total, minResponses: options.minResponses };
  const fired = await recordMilestones(tx, {
    healthCheckId: options.healthCheckId,
    reached: reachedMilestones(team),
    ...team,
  });
  const notice = milestoneNotice(fired, { ...team, title: options.title });
  if (!notice) return;
  await notify(
    deps,
    {
      userIds: [options.creatorId],
      type: notice.type,
      message: notice.message,
      link,
      healthCheckId: options.healthCheckId,
    },
    tx,
  );
}

/** The checks the user takes part in, for /dashboard. */
export async function listMyHealthChecks(db: Db, userId: string): Promise<MyHealthCheck[]> {
  const rows = await listMyChecks(db, userId);
  return rows.map((row) => {
    const teamProgress = { completed: row.team_completed, total: row.team_total };
    const participantStatus = row.participant_status as ParticipantStatus;
    return {
      id: row.id,
      title: row.title,
      workspaceName: row.workspace_name ?? M.unknownWorkspace,
      phase: row.phase as Phase,
      status: STATUS_OF_PHASE[row.phase as Phase],
      participantStatus,
      progress: row.progress,
      joinedAt: iso(row.joined_at) ?? '',
      completedAt: iso(row.completed_at),
      teamProgress,
      resultsReleased: releasedToParticipant(row, participantStatus),
    };
  });
}
