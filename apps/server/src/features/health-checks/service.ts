import { DEFAULT_LANGUAGE, type Locale } from '@pulsecheck/shared/i18n/languages';
import { LIVE_EVENT, topics } from '@pulsecheck/shared/realtime/topics';
import {
  allParticipantsCompleted,
  canTransition,
  completionRate,
  HEALTH_CHECK_NOT_FOUND,
  loosenedSettings,
  type Phase,
  phaseLabel,
  STATUS_OF_PHASE,
} from '@pulsecheck/shared/health-checks/rules';
import {
  cleanEmails,
  loosenedMessages,
  settingsSchema,
  type HealthCheckDetail,
  type HealthCheckSettings,
  type LaunchResponse,
  type ParticipantRow,
  type SlackShare,
} from '@pulsecheck/shared/health-checks/schemas';
import { HEALTH_CHECK_MESSAGES } from '@pulsecheck/shared/health-checks/messages';
import { snapshotQuestions } from '../follow-ups/service';
import type { launchSchema } from '@pulsecheck/shared/health-checks/schemas';
import { phaseNotice } from '@pulsecheck/shared/notifications/phase-notices';
import type { z } from 'zod';
import { changedFields, recordWorkspaceAudit, type AuditBy } from '../../audit/record';
import { healthCheckAccess, requireWorkspace } from '../../auth/access';
import { can } from '../../auth/policy';
import type { Db } from '../../db/client';
import { AppError, conflict, forbidden, invalid, notFound, templateNotFound } from '../../lib/app-error';
import { translatorFor } from '../../lib/i18n';
import type { AppDeps } from '../../lib/router';
import { chargeMailQuota } from '../../mail/quota';
import { languageInWorkspace, recipientLanguage, workspaceLanguageOf } from '../../mail/language';
import { renderMail } from '../../mail/templates';
import { notifyEach, postToSlack, slackOf } from '../notifications/service';
import { participantCounts } from '../participation/service';
import { healthCheckLaunched, healthCheckPhaseChanged } from '../../webhooks/emit';
import { prioritizedTallies } from '../results/service';
import { getTemplate } from '../templates/service';
import {
  findAccountLanguages,
  findCheckByLaunchKey,
  findHealthCheckDetail,
  findParticipants,
  findPhaseRecipients,
  insertComponents,
  insertHealthCheck,
  insertSnapshotTemplate,
  lockHealthCheck,
  updatePhase,
  updateSettings,
} from './queries';
import { mailBrandingOfWorkspace } from '../branding/service';
import { canonicalWording } from '../../lib/content-language';

type Deps = Pick<AppDeps, 'db' | 'config' | 'mailer' | 'realtime'>;
type LaunchInput = z.output<typeof launchSchema>;

const toIso = (value: string | Date) => new Date(value).toISOString();

export const joinUrlFor = (config: { appUrl: string }, healthCheckId: string) =>
  `${config.appUrl.replace(/\/$/, '')}/join/${healthCheckId}`;

/** The check, when the user is an admin or member of its workspace (otherwise 404, PRODUCT-DECISIONS 3). */
async function requireManageView(db: Db, userId: string, healthCheckId: string) {
  const access = await healthCheckAccess(db, userId, healthCheckId);
  if (!access?.manages) throw notFound(HEALTH_CHECK_NOT_FOUND);
  return access;
}

/** Tells every open screen of the workspace and of the check to refetch. */
export async function publishHealthCheckChanged(
  deps: Pick<AppDeps, 'realtime'>,
  ids: { workspaceId: string; healthCheckId: string },
  tx?: Db,
) {
  const data = { healthCheckId: ids.healthCheckId };
  await deps.realtime.publish(
    { topic: topics.workspace(ids.workspaceId), type: LIVE_EVENT.healthCheckChanged, data },
    tx,
  );
  await deps.realtime.publish(
    { topic: topics.healthCheck(ids.healthCheckId), type: LIVE_EVENT.healthCheckChanged, data },
    tx,
  );
}

/**
 * Launch (spec section 4, PRODUCT-DECISIONS 9): one transaction snapshots the enabled components (keys,
 * examples, order) into a template row that belongs to the check (never listed as a template, so the Templates
 * list does not grow per launch), creates the check in `collect`/`phase_1` and queues the team's invitations,
 * so a failure leaves nothing behind. The client's `launchKey` makes a repeated request return the
 * first launch instead of creating a second check. The launch's audit entry is written in the same transaction
 * (a repeated request records nothing more).
 */
export async function launchHealthCheck(
  deps: Deps,
  options: { userId: string; input: LaunchInput; by: AuditBy },
): Promise<LaunchResponse> {
  const { userId } = options;
  // The catalogue's words in English, whichever language the launcher saw them in (content-language.ts).
  const input = canonicalWording(options.input);
  const existing = await findCheckByLaunchKey(deps.db, userId, input.launchKey);
  const mail = deps.mailer.enabled ? ('sending' as const) : ('off' as const);
  if (existing) {
    return { id: existing, joinUrl: joinUrlFor(deps.config, existing), failedEmails: [], mail };
  }

  // The spec's launch wording for a workspace the launcher is not (or no longer) an admin or member of; the same
  // 404 for a workspace that does not exist, so the answer tells nobody which workspaces exist.
  const membership = await requireWorkspace(deps.db, userId, input.workspaceId).catch((error: unknown) => {
    if (error instanceof AppError && error.code === 'workspace_not_found') {
      throw new AppError('workspace_not_found', HEALTH_CHECK_MESSAGES.membershipRequired);
    }
    throw error;
  });
  const template = await getTemplate(deps, { userId, templateId: input.templateId });
  if (template.isGlobal === false && template.workspaceId !== input.workspaceId) throw templateNotFound();
  const wanted = new Set(input.enabledComponentIds);
  const components = template.components.filter((component) => wanted.has(component.id));
  if (components.length === 0) {
    throw invalid(HEALTH_CHECK_MESSAGES.noEnabledComponents, {
      enabledComponentIds: HEALTH_CHECK_MESSAGES.noEnabledComponents,
    });
  }
  const { valid: emails, invalid: failedEmails } = cleanEmails(input.teamEmails);

  const launched = await deps.db
    .transaction(async (tx) => {
      const templateId = await insertSnapshotTemplate(tx, {
        title: input.title,
        description: input.description,
        workspaceId: input.workspaceId,
        createdBy: userId,
      });
      const inserted = await insertComponents(
        tx,
        components.map((component, index) => ({
          templateId,
          key: component.key,
          title: component.title,
          description: component.description,
          category: component.category,
          orderIndex: index,
          enabled: true,
          examples: component.examples,
        })),
      );
      const id = await insertHealthCheck(tx, {
        title: input.title,
        description: input.description,
        settings: input.settings,
        status: STATUS_OF_PHASE.collect,
        phase: 'collect',
        createdBy: userId,
        createdByWorkspaceMemberId: membership.memberId,
        workspaceId: input.workspaceId,
        templateId,
        launchKey: input.launchKey,
      });
      // Another request with the same key won the race: undo this one and answer with that launch.
      if (!id) throw new DuplicateLaunch();
      // The closed loop (decision 0019): the done action items this check asks about, fixed now.
      await snapshotQuestions(tx, {
        workspaceId: input.workspaceId,
        healthCheckId: id,
        components: inserted,
        leaveOut: input.leaveOutActionItemIds,
        launchAt: new Date(),
      });
      const joinUrl = joinUrlFor(deps.config, id);
      // Daily e-mail budgets (mail/quota.ts); past one, the whole launch rolls back with a 429.
      await chargeMailQuota(tx, deps.config, {
        userId,
        workspaceId: input.workspaceId,
        count: emails.length,
      });
      // The organisation's branding and default language, read once for every invitation of the launch.
      const branding =
        emails.length > 0
          ? await mailBrandingOfWorkspace({ db: tx, config: deps.config }, input.workspaceId)
          : null;
      const languages = emails.length > 0 ? await invitationLanguages(tx, input.workspaceId, emails) : null;
      for (const to of emails) {
        const t = translatorFor(languages?.(to) ?? DEFAULT_LANGUAGE);
        await deps.mailer.enqueue(
          {
            kind: 'health-check-invitation',
            to,
            ...renderMail({
              subject: t.t(HEALTH_CHECK_MESSAGES.invitationSubject),
              heading: t.t('mail.healthCheckInvitation.heading', { title: input.title }),
              paragraphs: [
                t.t('mail.healthCheckInvitation.body'),
                ...(input.description ? [input.description] : []),
              ],
              action: { label: t.t('mail.healthCheckInvitation.action'), url: joinUrl },
              branding,
              translator: t,
            }),
          },
          tx,
        );
      }
      await publishHealthCheckChanged(deps, { workspaceId: input.workspaceId, healthCheckId: id }, tx);
      await recordWorkspaceAudit(tx, input.workspaceId, options.by, {
        action: 'health-check.launched',
        targetType: 'health-check',
        targetId: id,
        targetLabel: input.title,
        changes: {
          template: template.title,
          components: components.length,
          invitations: emails.length,
          settings: input.settings,
        },
      });
      await healthCheckLaunched(tx, {
        id,
        title: input.title,
        workspaceId: input.workspaceId,
        settings: input.settings,
      });
      return { id, joinUrl };
    })
    .catch(async (error: unknown) => {
      if (!(error instanceof DuplicateLaunch)) throw error;
      const id = await findCheckByLaunchKey(deps.db, userId, input.launchKey);
      if (!id) throw new AppError('internal', HEALTH_CHECK_MESSAGES.launchFailed);
      return { id, joinUrl: joinUrlFor(deps.config, id) };
    });
  return { ...launched, failedEmails, mail };
}

class DuplicateLaunch extends Error {}

/** The manage screen's view of a check. */
export async function getHealthCheck(
  deps: Deps,
  options: { userId: string; healthCheckId: string },
): Promise<HealthCheckDetail> {
  const access = await requireManageView(deps.db, options.userId, options.healthCheckId);
  const row = await findHealthCheckDetail(deps.db, options.healthCheckId);
  if (!row) throw notFound(HEALTH_CHECK_NOT_FOUND);
  const settings = row.settings;
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    phase: row.phase,
    status: STATUS_OF_PHASE[row.phase as Phase],
    settings,
    createdAt: toIso(row.created_at),
    phaseStartedAt: toIso(row.phase_started_at),
    completedAt: row.completed_at ? toIso(row.completed_at) : null,
    workspace: { id: row.workspace_id, name: row.workspace_name },
    participants: { total: row.total, completed: row.completed },
    completionRate: completionRate(row.completed, row.total),
    allCompleted: allParticipantsCompleted(row.completed, row.total, settings.minResponses),
    joinUrl: joinUrlFor(deps.config, row.id),
    canManage: access.mayChange,
  };
}

/** The Share dialog's Slack button: whether the caller's own Slack card can post (PRODUCT-DECISIONS 9). */
export async function slackShareState(
  deps: Deps,
  options: { userId: string; healthCheckId: string },
): Promise<SlackShare> {
  await requireManageView(deps.db, options.userId, options.healthCheckId);
  const slack = await slackOf(deps.db, options.userId);
  return { connected: slack !== null, channel: slack?.channel ?? '' };
}

/**
 * The language of each invitation of a launch (mail/language.ts): an address with an account that chose one gets
 * that language, any other the default of the workspace's organisation.
 */
async function invitationLanguages(db: Db, workspaceId: string, emails: string[]) {
  const organization = await workspaceLanguageOf(db, workspaceId);
  const chosen = new Map(
    (await findAccountLanguages(db, emails)).map((row) => [row.email.toLowerCase(), row.language]),
  );
  return (email: string): Locale =>
    recipientLanguage({ language: chosen.get(email.toLowerCase()), organization });
}

/** 'Slack' in the Share dialog: posts the join link to the caller's Slack channel, when their card is connected. */
export async function shareToSlack(
  deps: Deps & Pick<AppDeps, 'logger'>,
  options: { userId: string; healthCheckId: string },
): Promise<SlackShare> {
  await requireManageView(deps.db, options.userId, options.healthCheckId);
  const row = await findHealthCheckDetail(deps.db, options.healthCheckId);
  if (!row) throw notFound(HEALTH_CHECK_NOT_FOUND);
  const slack = await slackOf(deps.db, options.userId);
  if (!slack) throw conflict(HEALTH_CHECK_MESSAGES.slackNotConnected);
  // In the sharer's language (their channel, their words), else their organisation's.
  const t = translatorFor(
    await languageInWorkspace(deps.db, { userId: options.userId, workspaceId: row.workspace_id }),
  );
  try {
    await postToSlack(
      slack.webhookUrl,
      t.t(HEALTH_CHECK_MESSAGES.slackInvitation, {
        title: row.title,
        joinUrl: joinUrlFor(deps.config, row.id),
      }),
    );
  } catch (error) {
    deps.logger.warn({ err: error, healthCheckId: row.id }, 'Slack share failed');
    throw new AppError('unavailable', HEALTH_CHECK_MESSAGES.slackFailed);
  }
  return { connected: true, channel: slack.channel };
}

export async function listParticipants(
  deps: Deps,
  options: { userId: string; healthCheckId: string },
): Promise<ParticipantRow[]> {
  await requireManageView(deps.db, options.userId, options.healthCheckId);
  const rows = await findParticipants(deps.db, options.healthCheckId);
  return rows.map((row) => ({
    id: row.id,
    name: row.name?.trim() || 'Unknown',
    email: row.email,
    status: row.status,
    progress: row.progress,
    lastActivity: row.last_activity ? toIso(row.last_activity) : null,
    completedAt: row.completed_at ? toIso(row.completed_at) : null,
  }));
}

/**
 * Everyone of the check but the person who moved it hears of the change, each with their own notice
 * (`phaseNotice`): results-ready where the change opens results to them under the release rule, a phase change
 * otherwise. In the phase change's transaction, so a change that rolls back announces nothing.
 *
 * A large team: the bell rows and the e-mail deliveries are one insert each, and each e-mail is sent later by
 * the job and outbox workers, so the request does not wait for them. These e-mails do not count against the
 * daily e-mail budget (mail/quota.ts): that budget limits what one person can have sent to addresses they type
 * in; these go to people who joined the check themselves, with a verified address, at most once per phase
 * change (three per check), each by their own settings and with an unsubscribe link. Charging them would make
 * a phase change fail, or drop the e-mails people asked for, once a team is larger than the budget.
 */
async function tellPhaseChange(
  deps: Deps,
  tx: Db,
  options: {
    check: { id: string; title: string; phase: string; settings: HealthCheckSettings };
    to: Phase;
    actorId: string;
  },
) {
  const { check, to } = options;
  const { completed } = await participantCounts(tx, check.id);
  const recipients = (await findPhaseRecipients(tx, check.id)).filter((r) => r.user_id !== options.actorId);
  await notifyEach(
    deps,
    recipients.map((r) => {
      const notice = phaseNotice({
        healthCheckId: check.id,
        title: check.title,
        from: check.phase,
        to,
        manages: r.manages,
        participantStatus: r.participant_status,
        completed,
        minResponses: check.settings.minResponses,
        showResultsAfterVoting: check.settings.showResultsAfterVoting,
      });
      return { userId: r.user_id, notice: { ...notice, healthCheckId: check.id } };
    }),
    tx,
  );
}

/**
 * Moves a check to its next phase (PRODUCT-DECISIONS 1), for workspace admins and the check's creator. Voting
 * needs `minResponses` completed participants; completing records `completed_at`. Repeating a change that
 * already happened is a no-op, so a double click is harmless; any other move is a 409. The change, its
 * notifications, its live events and its audit entry commit together (a no-op or a refusal records nothing).
 */
export async function changePhase(
  deps: Deps,
  options: { healthCheckId: string; userId: string; to: Phase; by: AuditBy },
): Promise<{ phase: Phase; status: string }> {
  const { healthCheckId, userId, to } = options;
  const access = await requireManageView(deps.db, userId, healthCheckId);
  return deps.db.transaction(async (tx) => {
    const check = await lockHealthCheck(tx, healthCheckId);
    if (!check) throw notFound(HEALTH_CHECK_NOT_FOUND);
    if (!can(access.actor, 'check:change', check)) throw forbidden(HEALTH_CHECK_MESSAGES.notAllowed);
    if (check.phase === to) return { phase: to, status: check.status };
    if (!canTransition(check.phase, to)) {
      throw conflict('healthChecks.wrongTransition', undefined, {
        from: phaseLabel(check.phase),
        to: phaseLabel(to),
      });
    }
    if (to === 'vote') {
      const { completed } = await participantCounts(tx, healthCheckId);
      if (completed < check.settings.minResponses) {
        throw conflict('healthChecks.minResponsesForVoting', undefined, {
          count: check.settings.minResponses,
        });
      }
    }
    const status = STATUS_OF_PHASE[to];
    await updatePhase(tx, healthCheckId, { phase: to, status, completed: to === 'summarize' });
    await tellPhaseChange(deps, tx, { check, to, actorId: userId });
    await publishHealthCheckChanged(deps, { workspaceId: check.workspaceId, healthCheckId }, tx);
    const { completed } = await participantCounts(tx, healthCheckId);
    await healthCheckPhaseChanged(
      tx,
      check,
      {
        from: check.phase,
        to,
        completed,
        completes: to === 'summarize',
      },
      () => prioritizedTallies(tx, { ...check, phase: to }),
    );
    // Last, so the organisation's audit chain is locked only for the end of the transaction.
    await recordWorkspaceAudit(tx, check.workspaceId, options.by, {
      action: 'health-check.phase-changed',
      targetType: 'health-check',
      targetId: healthCheckId,
      targetLabel: check.title,
      changes: { phase: { before: check.phase, after: to } },
    });
    return { phase: to, status };
  });
}

/**
 * The Settings tab: editable while the check collects responses. Once anyone has joined, the settings that
 * protect participants only get stricter (PRODUCT-DECISIONS 3): a change that loosens one is a 409 naming each
 * field. The check row is locked, so a join waits for the change and a change sees every earlier join. The fields
 * that changed, before and after, go to the audit log in the same transaction (saving the same settings records
 * nothing).
 */
export async function changeSettings(
  deps: Deps,
  options: { userId: string; healthCheckId: string; settings: HealthCheckSettings; by: AuditBy },
): Promise<HealthCheckSettings> {
  const access = await requireManageView(deps.db, options.userId, options.healthCheckId);
  const settings = settingsSchema.parse(options.settings);
  return deps.db.transaction(async (tx) => {
    const check = await lockHealthCheck(tx, options.healthCheckId);
    if (!check) throw notFound(HEALTH_CHECK_NOT_FOUND);
    if (!can(access.actor, 'check:change', check)) throw forbidden(HEALTH_CHECK_MESSAGES.notAllowed);
    if (check.phase !== 'collect') throw conflict(HEALTH_CHECK_MESSAGES.settingsLocked);
    const loosened = loosenedSettings(check.settings, settings);
    if (loosened.length > 0 && (await participantCounts(tx, options.healthCheckId)).total > 0) {
      throw conflict(HEALTH_CHECK_MESSAGES.settingsOnlyStricter, loosenedMessages(check.settings, loosened));
    }
    await updateSettings(tx, options.healthCheckId, settings);
    const changes = changedFields(check.settings, settings);
    if (Object.keys(changes).length > 0) {
      await recordWorkspaceAudit(tx, check.workspaceId, options.by, {
        action: 'health-check.settings-changed',
        targetType: 'health-check',
        targetId: check.id,
        targetLabel: check.title,
        changes,
      });
    }
    await publishHealthCheckChanged(
      deps,
      { workspaceId: check.workspaceId, healthCheckId: options.healthCheckId },
      tx,
    );
    return settings;
  });
}
