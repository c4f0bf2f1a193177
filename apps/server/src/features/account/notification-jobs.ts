import type { Words } from '@pulsecheck/shared/action-items/follow-up';
import { NUDGE_MESSAGES, nudgeWords } from '@pulsecheck/shared/action-items/nudges';
import { resolvePreferences } from '@pulsecheck/shared/account/schemas';
import { brandingSchema } from '@pulsecheck/shared/branding/rules';
import type { NoticePart } from '@pulsecheck/shared/notifications/phase-notices';
import { releaseState } from '@pulsecheck/shared/results/release';
import { overallHealth } from '@pulsecheck/shared/results/rules';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { enqueueJob, type JobHandler } from '../../jobs/queue';
import type { AppDeps } from '../../lib/router';
import { memberOrganizationLanguageOf, translatorOfRecipient } from '../../mail/language';
import { translatorFor } from '../../lib/i18n';
import { DEFAULT_LANGUAGE } from '@pulsecheck/shared/i18n/languages';
import { messageWith, readMessage } from '@pulsecheck/shared/i18n/message';
import type { Translator } from '@pulsecheck/shared/i18n/translate';
import type { HealthLabel } from '@pulsecheck/shared/results/rules';
import { renderMail, type MailContent } from '../../mail/templates';
import {
  channelsFor,
  DELIVERY_JOBS,
  notify,
  postToSlack,
  type NotificationType,
} from '../notifications/service';
import { actionsToFollowUp } from '../follow-ups/service';
import * as q from './queries';
import { unsubscribeUrl } from './service';
import { mailBranding } from '../branding/service';

/** Scheduled notification work; the hourly tick enqueues itself again and whatever is due. */
export const SCHEDULE_JOBS = {
  tick: 'notifications-tick',
  reminders: 'survey-reminders',
  weeklyDigests: 'weekly-digests',
  monthlyReports: 'monthly-reports',
  dailyDigests: 'daily-slack-digests',
  digestEmail: 'digest-email',
  slackDigest: 'slack-digest',
} as const;

/** Scheduled sends go out from this hour (UTC) on their day. */
export const SEND_HOUR_UTC = 8;
const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;

type Deps = Pick<AppDeps, 'db' | 'config' | 'mailer' | 'realtime' | 'logger'>;

const hourStart = (date: Date) => new Date(Math.floor(date.getTime() / HOUR_MS) * HOUR_MS);
const day = (date: Date) => date.toISOString().slice(0, 10);

/** ISO 8601 week, e.g. 2026-W48. */
export function isoWeek(date: Date): string {
  const d = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const weekday = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((d.getTime() - yearStart) / DAY_MS + 1) / 7);
  return `${d.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** Enqueues the tick of the current hour; every process may call it, the unique key keeps one. */
export async function startNotificationSchedule(db: Db, now = new Date()) {
  const at = hourStart(now);
  await enqueueJob(db, {
    kind: SCHEDULE_JOBS.tick,
    payload: { at: at.toISOString() },
    runAt: at,
    uniqueKey: `${SCHEDULE_JOBS.tick}:${at.toISOString()}`,
  });
}

/** What one tick (the hour `at`) schedules: the next tick, and each send that is due, once. */
export async function runTick(db: Db, at: Date) {
  // After downtime the chain resumes from now instead of replaying every missed hour.
  const next = new Date(hourStart(new Date(Math.max(at.getTime(), Date.now()))).getTime() + HOUR_MS);
  await enqueueJob(db, {
    kind: SCHEDULE_JOBS.tick,
    payload: { at: next.toISOString() },
    runAt: next,
    uniqueKey: `${SCHEDULE_JOBS.tick}:${next.toISOString()}`,
  });
  if (at.getUTCHours() < SEND_HOUR_UTC) return;
  const payload = { at: at.toISOString() };
  await enqueueJob(db, { kind: SCHEDULE_JOBS.reminders, payload, uniqueKey: `survey-reminders:${day(at)}` });
  await enqueueJob(db, { kind: SCHEDULE_JOBS.dailyDigests, payload, uniqueKey: `daily-digests:${day(at)}` });
  if (at.getUTCDay() === 1) {
    await enqueueJob(db, {
      kind: SCHEDULE_JOBS.weeklyDigests,
      payload,
      uniqueKey: `weekly-digests:${isoWeek(at)}`,
    });
  }
  if (at.getUTCDate() === 1) {
    await enqueueJob(db, {
      kind: SCHEDULE_JOBS.monthlyReports,
      payload,
      uniqueKey: `monthly-reports:${day(at).slice(0, 7)}`,
    });
  }
}

/** One reminder a day to each participant who has not finished a check that is still collecting. */
export async function sendSurveyReminders(deps: Deps, at: Date) {
  const due = await q.participantsToRemind(deps.db, new Date(at.getTime() - DAY_MS));
  const byCheck = new Map<string, { title: string; userIds: string[] }>();
  for (const row of due) {
    const entry = byCheck.get(row.health_check_id) ?? { title: row.title, userIds: [] };
    entry.userIds.push(row.user_id);
    byCheck.set(row.health_check_id, entry);
  }
  await deps.db.transaction(async (tx) => {
    for (const [healthCheckId, { title, userIds }] of byCheck) {
      await notify(
        deps,
        {
          userIds,
          type: 'survey-reminder',
          // Said in each participant's language by notify (mail/language.ts).
          message: messageWith('mail.surveyReminder.notice', { title }),
          link: `/health-check/${healthCheckId}`,
          healthCheckId,
        },
        tx,
      );
    }
  });
}

/** One job per user who wants the digest; the unique key makes each user's send happen once. */
async function fanOut(
  deps: Deps,
  options: {
    wants: (p: ReturnType<typeof resolvePreferences>) => boolean;
    kind: string;
    key: string;
    payload: Record<string, unknown>;
  },
) {
  const users = await q.teamUsersWithPreferences(deps.db);
  for (const u of users) {
    if (!options.wants(resolvePreferences(u.preferences))) continue;
    await enqueueJob(deps.db, {
      kind: options.kind,
      payload: { ...options.payload, userId: u.id },
      uniqueKey: `${options.key}:${u.id}`,
    });
  }
}

/** The overall health labels in the e-mails' words. */
const HEALTH_WORDS: Record<HealthLabel, string> = {
  'No Data': 'mail.health.noData',
  'No Ratings': 'mail.health.noRatings',
  'Needs Immediate Attention': 'mail.health.immediate',
  'Needs Attention': 'mail.health.attention',
  'Mostly Healthy': 'mail.health.mostlyHealthy',
  'Mixed Health': 'mail.health.mixed',
};

/** The overall health a digest may show: only where the results are released to the check's managers. */
function healthLabel(row: q.DigestRow, t: Translator) {
  const state = releaseState({
    phase: row.phase,
    manages: true,
    completed: row.completed,
    minResponses: row.min_responses,
    participantStatus: null,
    showResultsAfterVoting: true,
  });
  if (state === 'collecting') return t.t('mail.digest.collecting');
  if (state !== 'released') return t.t('mail.digest.locked');
  // Only the totals matter to the label: healthy and fire warnings, and all ratings.
  const { healthy, fire, ratings } = row;
  return t.t(
    HEALTH_WORDS[
      overallHealth([{ healthy, fireWarning: fire, needsImprovement: 0, dontKnow: ratings - healthy - fire }])
    ],
  );
}

const statusOf = (status: string) =>
  status === 'completed' ? 'completed' : status === 'phase_2' ? 'voting' : 'collecting';

/** The digest's line of each check, in `t`'s language (the recipient's; English by default). */
export function digestLines(rows: q.DigestRow[], t: Translator = translatorFor(DEFAULT_LANGUAGE)) {
  return rows.map((r) =>
    t.t('mail.digest.line', {
      workspace: r.workspace,
      title: r.title,
      status: statusOf(r.status),
      completed: r.completed,
      participants: r.participants,
      health: healthLabel(r, t),
    }),
  );
}

/**
 * The digest's 'Actions to follow up' lines: a heading, then each action with where it is and why, in `words`'
 * language (the recipient's, mail/language.ts).
 */
export function nudgeLines(nudges: Awaited<ReturnType<typeof actionsToFollowUp>>, words: Words) {
  if (nudges.length === 0) return [];
  return [
    words.t(NUDGE_MESSAGES.digestHeading),
    ...nudges.map((n) =>
      words.t(NUDGE_MESSAGES.digestLine, {
        workspace: n.workspaceName,
        action: n.description,
        check: n.checkTitle,
        why: nudgeWords(n, words),
      }),
    ),
  ];
}

const PART_FOOTER: Record<NoticePart['setting'], string> = {
  phaseChanges: 'mail.notice.part.phaseChanges',
  resultsReady: 'mail.notice.part.resultsReady',
};

/** Turns the unsubscribe address in the footer into a link. */
function linkFooter(mail: MailContent, url: string): MailContent {
  const escaped = url.replace(/&/g, '&amp;');
  return {
    ...mail,
    html: mail.html.replace(escaped, `<a href="${escaped}" style="color:#4338ca">${escaped}</a>`),
  };
}

const emailPayload = z.object({
  userId: z.string(),
  type: z.string(),
  message: z.string(),
  /** The notice as notify was given it, when it is a catalogue key with its values (`messageWith`). */
  notice: z.string().optional(),
  /** The recipient's language, as notify decided it (mail/language.ts). */
  language: z.string().optional(),
  link: z.string().nullable().optional(),
  healthCheckId: z.string().nullable().optional(),
  parts: z
    .array(z.object({ setting: z.enum(['phaseChanges', 'resultsReady']), text: z.string() }))
    .optional(),
  /** The organisation's branding, read once for every e-mail of the notice (notifications/service.ts). */
  branding: brandingSchema.nullable().optional(),
});
const atPayload = z.object({ at: z.string() });
const userAtPayload = z.object({ at: z.string(), userId: z.string() });

export function notificationJobHandlers(deps: Deps): Record<string, JobHandler> {
  const { db, config, mailer } = deps;
  const absolute = (link: string | null | undefined) => `${config.appUrl}${link ?? '/admin/dashboard'}`;

  return {
    [DELIVERY_JOBS.email]: async (raw) => {
      const job = emailPayload.parse(raw);
      const user = await q.findPreferences(db, job.userId);
      // The setting is read again at send time: switching it off stops what is already queued.
      if (!user || !channelsFor(job.type as NotificationType, resolvePreferences(user.preferences)).email)
        return;
      const url = absolute(job.link);
      const branding = mailBranding(config.appUrl, job.branding);
      const t = translatorOfRecipient({ language: user.language, organization: job.language });
      if (job.type === 'survey-reminder') {
        const unsubscribe = unsubscribeUrl(config, job.userId);
        const notice = job.notice ? readMessage(job.notice) : null;
        const title = notice?.key === 'mail.surveyReminder.notice' ? notice.values?.title : undefined;
        const mail = renderMail({
          subject: job.message,
          heading: t.t('mail.surveyReminder.heading'),
          paragraphs: [
            title === undefined
              ? `Hi ${user.name}, ${job.message.replace(/^Reminder: /, '')}. It takes a few minutes.`
              : t.t('mail.surveyReminder.body', { name: user.name, title }),
          ],
          action: { label: t.t('mail.surveyReminder.action'), url },
          footer: t.t('mail.reminders.unsubscribe', { url: unsubscribe }),
          branding,
          translator: t,
        });
        await mailer.enqueue({ kind: 'survey-reminder', to: user.email, ...linkFooter(mail, unsubscribe) });
        return;
      }
      if (job.parts) {
        // Phase changes and results: only the parts the person wants, each setting with its unsubscribe link.
        const email = resolvePreferences(user.preferences).emailNotifications;
        const wanted = job.parts.filter((part) => email[part.setting]);
        if (wanted.length === 0) return;
        const text = wanted.length === job.parts.length ? job.message : wanted.map((p) => p.text).join('. ');
        const settings = wanted.map((p) => p.setting);
        const unsubscribe = unsubscribeUrl(config, job.userId, settings);
        const mail = renderMail({
          subject: text,
          heading: text,
          paragraphs: [t.t('mail.notice.greeting', { name: user.name }), `${text}.`],
          action: { label: t.t('mail.notice.action'), url },
          footer: t.t('mail.notice.partsFooter', {
            settings: t.list(settings.map((setting) => t.t(PART_FOOTER[setting]))),
            url: unsubscribe,
          }),
          branding,
          translator: t,
        });
        await mailer.enqueue({ kind: job.type, to: user.email, ...linkFooter(mail, unsubscribe) });
        return;
      }
      const subject =
        job.type === 'team-update'
          ? t.t('mail.notice.teamUpdateSubject', { message: job.message })
          : job.message;
      await mailer.enqueue({
        kind: job.type,
        to: user.email,
        ...renderMail({
          subject,
          heading: job.message,
          paragraphs: [t.t('mail.notice.greeting', { name: user.name }), job.message],
          action: { label: t.t('mail.notice.action'), url },
          footer: t.t('mail.notice.footer'),
          branding,
          translator: t,
        }),
      });
    },

    [DELIVERY_JOBS.newResponsesEmail]: async (raw) => {
      const job = z
        .object({
          userId: z.string(),
          healthCheckId: z.string(),
          language: z.string().optional(),
          from: z.string(),
          to: z.string(),
        })
        .parse(raw);
      const user = await q.findPreferences(db, job.userId);
      if (!user || !resolvePreferences(user.preferences).emailNotifications.newResponses) return;
      const check = await q.responsesBetween(db, job.healthCheckId, new Date(job.from), new Date(job.to));
      if (!check || check.fresh === 0) return;
      const t = translatorOfRecipient({ language: user.language, organization: job.language });
      const what = t.t('mail.newResponses.subject', { count: check.fresh, title: check.title });
      await mailer.enqueue({
        kind: 'new-responses',
        to: user.email,
        ...renderMail({
          subject: what,
          heading: what,
          paragraphs: [
            t.t('mail.newResponses.body', { name: user.name, title: check.title, count: check.fresh }),
            t.t('mail.newResponses.completed', { completed: check.completed, total: check.total }),
          ],
          action: {
            label: t.t('mail.newResponses.action'),
            url: absolute(`/admin/health-check/${job.healthCheckId}/manage`),
          },
          footer: t.t('mail.newResponses.footer'),
          translator: t,
        }),
      });
    },

    [DELIVERY_JOBS.slack]: async (raw) => {
      const job = emailPayload.omit({ healthCheckId: true }).parse(raw);
      const user = await q.findPreferences(db, job.userId);
      if (!user) return;
      const prefs = resolvePreferences(user.preferences);
      if (!channelsFor(job.type as NotificationType, prefs).slack) return;
      const { channel, webhookUrl } = prefs.slackNotifications;
      const t = translatorOfRecipient({ language: user.language, organization: job.language });
      await postToSlack(
        webhookUrl,
        `${channel ? `[${channel}] ` : ''}${job.message} <${absolute(job.link)}|${t.t('mail.slack.open')}>`,
      );
    },

    [SCHEDULE_JOBS.tick]: async (raw) => runTick(db, new Date(atPayload.parse(raw).at)),

    [SCHEDULE_JOBS.reminders]: async (raw) => sendSurveyReminders(deps, new Date(atPayload.parse(raw).at)),

    [SCHEDULE_JOBS.weeklyDigests]: async (raw) => {
      const { at } = atPayload.parse(raw);
      await fanOut(deps, {
        wants: (p) => p.emailNotifications.weeklyDigest,
        kind: SCHEDULE_JOBS.digestEmail,
        key: `weekly-digest:${isoWeek(new Date(at))}`,
        payload: { at, period: 'weekly' },
      });
    },

    [SCHEDULE_JOBS.monthlyReports]: async (raw) => {
      const { at } = atPayload.parse(raw);
      await fanOut(deps, {
        wants: (p) => p.emailNotifications.monthlyReports,
        kind: SCHEDULE_JOBS.digestEmail,
        key: `monthly-report:${at.slice(0, 7)}`,
        payload: { at, period: 'monthly' },
      });
    },

    [SCHEDULE_JOBS.dailyDigests]: async (raw) => {
      const { at } = atPayload.parse(raw);
      await fanOut(deps, {
        wants: (p) =>
          p.slackNotifications.enabled &&
          p.slackNotifications.dailyDigest &&
          p.slackNotifications.webhookUrl !== '',
        kind: SCHEDULE_JOBS.slackDigest,
        key: `daily-digest:${at.slice(0, 10)}`,
        payload: { at },
      });
    },

    [SCHEDULE_JOBS.digestEmail]: async (raw) => {
      const job = userAtPayload.extend({ period: z.enum(['weekly', 'monthly']) }).parse(raw);
      const user = await q.findPreferences(db, job.userId);
      if (!user) return;
      const prefs = resolvePreferences(user.preferences).emailNotifications;
      if (!(job.period === 'weekly' ? prefs.weeklyDigest : prefs.monthlyReports)) return;
      const since = new Date(new Date(job.at).getTime() - (job.period === 'weekly' ? 7 : 31) * DAY_MS);
      const rows = await q.digestFor(db, job.userId, since);
      // The weekly digest also lists the user's own actions to follow up (issue 33 item 6, nudges.ts).
      const nudges =
        job.period === 'weekly' ? await actionsToFollowUp(db, { ownerId: job.userId }, new Date(job.at)) : [];
      if (rows.length === 0 && nudges.length === 0) return;
      // In the person's language, else their organisation's (mail/language.ts), else English.
      const t = translatorOfRecipient({
        language: user.language,
        organization: await memberOrganizationLanguageOf(db, job.userId),
      });
      const weekly = job.period === 'weekly';
      await mailer.enqueue({
        kind: weekly ? 'weekly-digest' : 'monthly-report',
        to: user.email,
        ...renderMail({
          subject: t.t(weekly ? 'mail.digest.weeklySubject' : 'mail.digest.monthlySubject'),
          heading: t.t(weekly ? 'mail.digest.weekly' : 'mail.digest.monthly'),
          paragraphs: [
            t.t('mail.digest.body', { name: user.name }),
            ...digestLines(rows, t),
            ...nudgeLines(nudges, t),
          ],
          action: { label: t.t('mail.digest.action'), url: absolute('/admin/dashboard') },
          footer: t.t('mail.digest.footer'),
          translator: t,
        }),
      });
    },

    [SCHEDULE_JOBS.slackDigest]: async (raw) => {
      const job = userAtPayload.parse(raw);
      const user = await q.findPreferences(db, job.userId);
      if (!user) return;
      const slack = resolvePreferences(user.preferences).slackNotifications;
      if (!slack.enabled || !slack.dailyDigest || !slack.webhookUrl) return;
      const rows = await q.digestFor(db, job.userId, new Date(new Date(job.at).getTime() - DAY_MS));
      if (rows.length === 0) return;
      const t = translatorOfRecipient({
        language: user.language,
        organization: await memberOrganizationLanguageOf(db, job.userId),
      });
      await postToSlack(
        slack.webhookUrl,
        [
          `${slack.channel ? `[${slack.channel}] ` : ''}${t.t('mail.slack.dailyDigest')}`,
          ...digestLines(rows, t).map((l) => `• ${l}`),
        ].join('\n'),
      );
    },
  };
}
