import { STATUS_OF_PHASE } from '@pulsecheck/shared/health-checks/rules';
import {
  FOLLOW_UP_ANSWER_LABELS,
  FOLLOW_UP_ANSWERS,
  type Words,
} from '@pulsecheck/shared/action-items/follow-up';
import { csvFile } from '@pulsecheck/shared/api/csv';
import { DEFAULT_SETTINGS } from '@pulsecheck/shared/health-checks/schemas';
import type { Locale } from '@pulsecheck/shared/i18n/languages';
import type { Translator } from '@pulsecheck/shared/i18n/translate';
import {
  dotsVisible,
  missingResponses,
  releaseMessage,
  releaseState,
  type ReleaseState,
} from '@pulsecheck/shared/results/release';
import { RESULTS_MESSAGES } from '@pulsecheck/shared/results/messages';
import type { ComponentResult, ResultsResponse } from '@pulsecheck/shared/results/schemas';
import {
  componentTrend,
  overallHealth,
  prioritize,
  totalOf,
  type TrendDirection,
} from '@pulsecheck/shared/results/rules';
import { privacyFloor } from '@pulsecheck/shared/insights/rules';
import { recordWorkspaceAudit, type AuditBy } from '../../audit/record';
import { healthCheckAccess, organizationCheckAccess } from '../../auth/access';
import type { Db } from '../../db/client';
import type { HealthCheckSettings } from '../../db/schema/health-checks';
import { enqueueJob } from '../../jobs/queue';
import { conflict, invalid, notFound, translateMessage } from '../../lib/app-error';
import { localizeContent } from '../../lib/content-language';
import {
  ACTION_STATUS_WORDS,
  csvHeader,
  RESULTS_CSV_COLUMNS,
  TREND_WORDS,
  wordFor,
} from '../../lib/csv-words';
import { translatorFor } from '../../lib/i18n';
import type { AppDeps } from '../../lib/router';
import { renderMail } from '../../mail/templates';
import { languageInWorkspace } from '../../mail/language';
import { listActionItems } from '../action-items/service';
import { followUpResultRows, followUpsForResults } from '../follow-ups/service';
import { changePhase } from '../health-checks/service';
import * as q from './queries';
import { brandingOfWorkspace } from '../branding/service';

export const settingsOf = (check: {
  settings: Partial<HealthCheckSettings> | null;
}): HealthCheckSettings => ({
  ...DEFAULT_SETTINGS,
  ...check.settings,
});

const iso = (value: string | Date) => new Date(value).toISOString();
type Phase = ResultsResponse['healthCheck']['phase'];

/**
 * The check and how the user relates to it; 404 'Health check not found' for anyone who may not see it. With
 * `organization`, the organisation's owner and admins who are not in the workspace see its completed checks
 * (reading the results from the insights heat map, issue 16).
 */
export async function checkForViewer(db: Db, userId: string, healthCheckId: string, organization = false) {
  const access =
    (await healthCheckAccess(db, userId, healthCheckId)) ??
    (organization ? await organizationCheckAccess(db, userId, healthCheckId) : null);
  const check = access ? await q.findCheck(db, healthCheckId) : undefined;
  if (!access || !check || (access.forOrganization && check.status !== 'completed'))
    throw notFound(RESULTS_MESSAGES.notFound);
  return { access, check };
}

/**
 * The responses a check's figures need for this viewer: its own minimum; for the organisation's owner and admins
 * outside the workspace, the insights' privacy floor (never fewer than 3), so the click-through from the heat map
 * shows no more than the heat map itself.
 */
const minimumFor = (access: { forOrganization: boolean }, minResponses: number) =>
  access.forOrganization ? privacyFloor(minResponses) : minResponses;

/**
 * Components of a check with their counts and dots, prioritized (PRODUCT-DECISIONS 2), aggregated in SQL. While
 * voting runs the dots count as 0 (see dotsVisible), so neither the figures nor the order follow anyone's dots.
 */
export async function prioritizedTallies(db: Db, check: { id: string; templateId: string; phase: string }) {
  const tallies = await q.componentTallies(db, check);
  return prioritize(dotsVisible(check.phase) ? tallies : tallies.map((t) => ({ ...t, dots: 0 })));
}

/** The caller's release state of a check (the one rule, shared: PRODUCT-DECISIONS 3). */
export const releaseFor = (
  check: { phase: string },
  settings: HealthCheckSettings,
  viewer: { manages: boolean; completed: number; participantStatus: string | null },
): ReleaseState =>
  releaseState({
    phase: check.phase,
    manages: viewer.manages,
    completed: viewer.completed,
    minResponses: settings.minResponses,
    participantStatus: viewer.participantStatus,
    showResultsAfterVoting: settings.showResultsAfterVoting,
  });

async function trendFor(db: Db, check: q.Check, access: { forOrganization: boolean }) {
  const previous = await q.previousCompletedCheck(db, check);
  if (!previous) return null;
  // The earlier check's own anonymity threshold still applies to what its figures reveal.
  if (previous.completed < minimumFor(access, settingsOf(previous).minResponses)) return null;
  const tallies = await q.componentTallies(db, previous);
  return {
    previous: {
      id: previous.id,
      title: previous.title,
      completedAt: previous.completedAt ? iso(previous.completedAt) : null,
      overallHealth: overallHealth(tallies),
    },
    byKey: new Map(tallies.map((t) => [t.key, t])),
  };
}

/**
 * The results of a check as the caller may see them (PRODUCT-DECISIONS 3): per-component figures only above
 * the anonymity threshold, to participants only once released, and never a rater's identity when anonymous. The
 * texts written with values (the follow-up questions, the change in words) are in `locale`, the request's language.
 */
export async function getResults(
  deps: Pick<AppDeps, 'db'>,
  options: { userId: string; healthCheckId: string; locale: Locale },
): Promise<ResultsResponse> {
  const { db } = deps;
  const { access, check } = await checkForViewer(db, options.userId, options.healthCheckId, true);
  const settings = settingsOf(check);
  const minResponses = minimumFor(access, settings.minResponses);
  // Independent reads go together: on PostgreSQL they run side by side on the pool.
  const [people, voted, followUp, branding] = await Promise.all([
    q.participantSummary(db, check.id, options.userId),
    q.votersCount(db, check.id),
    access.manages ? q.pendingFollowUp(db, check.id) : null,
    // Participants see their organisation's branding here as on their other screens (decision 0018).
    access.manages ? null : brandingOfWorkspace(db, check.workspaceId),
  ]);
  const missing = missingResponses(people.completed, minResponses);
  const state = releaseFor(
    check,
    { ...settings, minResponses },
    {
      manages: access.manages || access.forOrganization,
      completed: people.completed,
      participantStatus: people.mine,
    },
  );

  let components: ComponentResult[] | null = null;
  let health: ResultsResponse['overallHealth'] = null;
  let actionItems: ResultsResponse['actionItems'] = null;
  let trend: ResultsResponse['trend'] = null;
  if (state === 'released') {
    const [tallies, comments, items, previous, followUpRows] = await Promise.all([
      prioritizedTallies(db, check),
      settings.enableComments ? q.componentComments(db, check.id, settings.allowAnonymous) : [],
      listActionItems(db, check.id),
      trendFor(db, check, access),
      followUpResultRows(db, check.id, settings.allowAnonymous),
    ]);
    const commentsOf = new Map(comments.map((c) => [c.componentId, c.items]));
    const followUps = followUpsForResults(followUpRows, {
      state,
      minResponses,
      commentsOn: settings.enableComments,
      nowByComponent: new Map(
        tallies.map((t) => [
          t.id,
          { title: t.title?.trim() || RESULTS_MESSAGES.untitledComponent, counts: t },
        ]),
      ),
      words: translatorFor(options.locale),
    });
    health = overallHealth(tallies);
    actionItems = items;
    trend = previous ? { previous: previous.previous } : null;
    components = tallies.map((t, index) => {
      const before = previous?.byKey.get(t.key);
      const direction: TrendDirection | null = before ? componentTrend(t, before) : null;
      return {
        id: t.id,
        key: t.key,
        title: t.title?.trim() || RESULTS_MESSAGES.untitledComponent,
        description: t.description,
        category: t.category?.trim() || RESULTS_MESSAGES.uncategorized,
        orderIndex: t.orderIndex,
        healthy: t.healthy,
        needsImprovement: t.needsImprovement,
        fireWarning: t.fireWarning,
        dontKnow: t.dontKnow,
        total: totalOf(t),
        dots: dotsVisible(check.phase) ? t.dots : null,
        rank: index + 1,
        comments: (commentsOf.get(t.id) ?? []).map((c) => ({
          author: c.name?.trim() || RESULTS_MESSAGES.anonymous,
          content: c.content,
        })),
        trend: direction,
        followUps: followUps.get(t.id) ?? [],
      };
    });
  }

  return {
    healthCheck: {
      id: check.id,
      title: check.title.trim() || RESULTS_MESSAGES.untitledCheck,
      description: check.description,
      phase: check.phase as Phase,
      status: STATUS_OF_PHASE[check.phase as Phase],
      createdAt: iso(check.createdAt),
      completedAt: check.completedAt ? iso(check.completedAt) : null,
      workspaceName: check.workspaceName,
      allowAnonymous: settings.allowAnonymous,
      enableComments: settings.enableComments,
      minResponses: settings.minResponses,
      votesPerPerson: settings.votesPerPerson,
    },
    viewer: {
      manages: access.manages,
      canPlan: check.phase === 'summarize' && access.mayChange,
      isParticipant: Boolean(access.participantId),
    },
    participants: { total: people.total, completed: people.completed },
    release: { state, missingResponses: missing },
    overallHealth: health,
    components,
    actionItems,
    voting: { voted, eligible: people.completed },
    trend,
    followUp,
    branding,
  };
}

/**
 * 'Plan Actions': summarize → plan, through the health-checks phase machine (workspace admins and the check's
 * creator; a repeat is a no-op; any other phase is a 409), which also notifies and publishes the change.
 */
export async function planActions(
  deps: Pick<AppDeps, 'db' | 'realtime' | 'mailer' | 'config'>,
  options: { userId: string; healthCheckId: string; by: AuditBy },
) {
  await checkForViewer(deps.db, options.userId, options.healthCheckId);
  await changePhase(deps, {
    healthCheckId: options.healthCheckId,
    userId: options.userId,
    to: 'plan',
    by: options.by,
  });
  return { phase: 'plan' as const };
}

/**
 * One action of 'Actions since last check' as the CSV writes it: the same facts as the screen, in `words`'
 * language (the action's title as written).
 */
function followUpCsvText(f: ComponentResult['followUps'][number], words: Words) {
  const facts = [
    f.ownerName ? words.t('csv.followUpOwner', { name: f.ownerName }) : null,
    f.doneAt ? words.t('csv.followUpDone', { date: f.doneAt.slice(0, 10) }) : null,
    f.counts && f.percentages
      ? FOLLOW_UP_ANSWERS.map((a) =>
          words.t('csv.followUpAnswer', {
            answer: words.t(FOLLOW_UP_ANSWER_LABELS[a]),
            count: f.counts![a],
            percent: f.percentages![a],
          }),
        ).join(', ')
      : null,
    f.changeWords,
  ].filter(Boolean);
  return words.t('csv.followUpLine', { action: f.actionTitle, facts: facts.join(', ') });
}

/** An action item of a component as the CSV writes it: its description as written, its status in words. */
const actionItemCsvText = (item: NonNullable<ResultsResponse['actionItems']>[number], words: Translator) =>
  words.t('csv.actionItem', {
    description: item.description,
    status: wordFor(ACTION_STATUS_WORDS, item.status, words),
    withOwner: item.owner ? 'yes' : 'no',
    owner: item.owner?.name ?? '',
    withDue: item.dueDate ? 'yes' : 'no',
    due: item.dueDate ?? '',
  });

/**
 * Results as CSV, under the same rules as the screen; 409 with the reason while not released. Each download is
 * recorded in the audit log (who, which check; never a figure of it). Its header and its own words in `locale`,
 * the downloader's language; the catalogue's component titles and categories too (`localizeContent`); what people
 * wrote (action items, names) as written; numbers as numbers.
 */
export async function exportResultsCsv(
  deps: Pick<AppDeps, 'db'>,
  options: { userId: string; healthCheckId: string; by: AuditBy; locale: Locale },
) {
  const results = await getResults(deps, options);
  const words = translatorFor(options.locale);
  if (!results.components) {
    const { state, missingResponses } = results.release;
    throw state === 'below-threshold'
      ? conflict('results.belowThreshold', undefined, { count: missingResponses })
      : conflict(releaseMessage(state, missingResponses));
  }
  const items = results.actionItems ?? [];
  // A title or category getResults left as a key ('Untitled Component') in words; the catalogue's in the language.
  const content = (text: string, field: 'title' | 'category') => {
    const said = translateMessage(words, text);
    return said !== text ? said : localizeContent(options.locale, text, field);
  };
  const rows = results.components.map((c) => [
    c.rank,
    content(c.title, 'title'),
    content(c.category, 'category'),
    c.healthy,
    c.needsImprovement,
    c.fireWarning,
    c.dontKnow,
    c.total,
    c.dots ?? '',
    c.trend ? words.t(TREND_WORDS[c.trend]) : '',
    items
      .filter((i) => i.componentId === c.id)
      .map((i) => actionItemCsvText(i, words))
      .join('; '),
    c.followUps.map((f) => followUpCsvText(f, words)).join('; '),
  ]);
  const csv = csvFile([csvHeader(RESULTS_CSV_COLUMNS, words), ...rows]);
  const slug =
    results.healthCheck.title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'health-check';
  await deps.db.transaction(async (tx) => {
    const check = await q.findCheck(tx, options.healthCheckId);
    if (!check) throw notFound(RESULTS_MESSAGES.notFound);
    await recordWorkspaceAudit(tx, check.workspaceId, options.by, {
      action: 'results.exported',
      targetType: 'health-check',
      targetId: check.id,
      targetLabel: check.title,
      changes: { format: 'csv', report: 'results', phase: check.phase },
    });
  });
  return { csv, filename: `${slug}-results.csv` };
}

/** Job kind of the follow-up reminder; its handler is registered in main.ts. */
export const FOLLOW_UP_JOB = q.FOLLOW_UP_JOB;
const FOLLOW_UP_HOUR_UTC = 9;
const today = () => new Date().toISOString().slice(0, 10);

/** 'Schedule Follow-up': e-mails the creator on that date (one job per check and date; a new date replaces it). */
export async function scheduleFollowUp(
  deps: Pick<AppDeps, 'db'>,
  options: { userId: string; healthCheckId: string; date: string },
) {
  const { access, check } = await checkForViewer(deps.db, options.userId, options.healthCheckId);
  if (!access.manages) throw notFound(RESULTS_MESSAGES.notFound);
  const runAt = new Date(`${options.date}T${String(FOLLOW_UP_HOUR_UTC).padStart(2, '0')}:00:00Z`);
  if (Number.isNaN(runAt.getTime()) || runAt.toISOString().slice(0, 10) !== options.date) {
    throw invalid('errors.dateFormat', { date: 'errors.dateFormat' });
  }
  if (options.date <= today())
    throw invalid(RESULTS_MESSAGES.followUpInPast, { date: RESULTS_MESSAGES.followUpInPast });
  const uniqueKey = `follow-up:${check.id}:${options.date}`;
  await deps.db.transaction(async (tx) => {
    await q.cancelOtherFollowUps(tx, check.id, uniqueKey);
    await enqueueJob(tx, {
      kind: q.FOLLOW_UP_JOB,
      payload: { healthCheckId: check.id, date: options.date, scheduledBy: options.userId },
      runAt,
      uniqueKey,
    });
  });
  return {
    date: options.date,
    icsUrl: `/api/health-checks/${check.id}/follow-up/calendar?date=${options.date}`,
  };
}

const icsText = (value: string) =>
  value
    .replace(/\\/g, '\\\\')
    .replace(/[,;]/g, (ch) => `\\${ch}`)
    .replace(/\r?\n/g, '\\n');

/** An all-day calendar event for the follow-up date (RFC 5545). */
export async function followUpCalendar(
  deps: Pick<AppDeps, 'db' | 'config'>,
  options: { userId: string; healthCheckId: string; date: string },
) {
  const { access, check } = await checkForViewer(deps.db, options.userId, options.healthCheckId);
  if (!access.manages) throw notFound(RESULTS_MESSAGES.notFound);
  const start = new Date(`${options.date}T00:00:00Z`);
  if (Number.isNaN(start.getTime())) throw invalid('errors.dateFormat');
  const end = new Date(start.getTime() + 24 * 60 * 60 * 1000);
  const day = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '');
  const stamp = new Date()
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const url = `${deps.config.appUrl}/admin/health-check/${check.id}/results`;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Pulsecheck//Follow-up//EN',
    'CALSCALE:GREGORIAN',
    'BEGIN:VEVENT',
    `UID:follow-up-${check.id}-${day(start)}@pulsecheck`,
    `DTSTAMP:${stamp}`,
    `DTSTART;VALUE=DATE:${day(start)}`,
    `DTEND;VALUE=DATE:${day(end)}`,
    `SUMMARY:${icsText(`Follow-up health check: ${check.title}`)}`,
    `DESCRIPTION:${icsText(`Time to repeat the health check "${check.title}" and compare with the last results: ${url}`)}`,
    `URL:${url}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return { ics: lines.join('\r\n') + '\r\n', filename: `follow-up-${options.date}.ics` };
}

/** The follow-up job: e-mails the check's creator (or whoever scheduled it) a reminder to run it again. */
export async function sendFollowUp(
  deps: Pick<AppDeps, 'db' | 'mailer' | 'config'>,
  payload: Record<string, unknown>,
) {
  const healthCheckId = typeof payload.healthCheckId === 'string' ? payload.healthCheckId : '';
  const check = healthCheckId ? await q.findCheck(deps.db, healthCheckId) : undefined;
  if (!check) return;
  const recipientId =
    check.createdBy ?? (typeof payload.scheduledBy === 'string' ? payload.scheduledBy : null);
  const recipient = recipientId ? await q.userContact(deps.db, recipientId) : undefined;
  if (!recipient) return;
  // In the recipient's language, else their organisation's (mail/language.ts); a catalogue title in it too.
  const locale = await languageInWorkspace(deps.db, { userId: recipientId, workspaceId: check.workspaceId });
  const t = translatorFor(locale);
  const title = localizeContent(locale, check.title, 'title');
  await deps.mailer.enqueue({
    kind: 'follow-up',
    to: recipient.email,
    ...renderMail({
      subject: t.t('mail.followUp.subject', { title }),
      heading: t.t('mail.followUp.heading'),
      paragraphs: [t.t('mail.followUp.body', { name: recipient.name, title }), t.t('mail.followUp.why')],
      action: {
        label: t.t('mail.followUp.action'),
        url: `${deps.config.appUrl}/admin/health-check/${check.id}/results`,
      },
      translator: t,
    }),
  });
}
