import { LIVE_EVENT } from '@pulsecheck/shared/realtime/topics';
import {
  DEFAULT_NOTIFICATION_PREFERENCES,
  resolvePreferences,
  type NotificationPreferences,
} from '@pulsecheck/shared/account/schemas';
import { milestoneKey, type Milestone } from '@pulsecheck/shared/notifications/milestones';
import type { NoticePart } from '@pulsecheck/shared/notifications/phase-notices';
import { eq, inArray, sql, type SQL } from 'drizzle-orm';
import { countsOf, queryRows, withClause, type Db, type WithQuery } from '../../db/client';
import { user } from '../../db/schema/auth';
import { enqueueJobs, recordOnce, type NewJob } from '../../jobs/queue';
import { usersEvent } from '../../realtime/bus';
import { brandingOfHealthCheck, brandingOfWorkspace } from '../branding/service';
import { translateMessage } from '../../lib/app-error';
import { translatorFor } from '../../lib/i18n';
import { checkLanguageOf, recipientLanguage, workspaceLanguageOf } from '../../mail/language';

export type NotificationType =
  | 'new-response'
  | 'phase-change'
  | 'results-ready'
  | 'all-completed'
  | 'completion-milestone'
  | 'assignment'
  | 'mention'
  | 'team-update'
  | 'survey-reminder'
  | 'loop-round'
  | 'loop-progress';

export type NotifyInput = {
  userIds: string[];
  type: NotificationType;
  message: string;
  link?: string;
  healthCheckId?: string;
  /** The workspace a notice is about, if any: it goes when the workspace does (its organisation deleted). */
  workspaceId?: string;
  /**
   * Phase changes and results-ready notices: what the notice tells, each part with the e-mail setting that
   * governs it; the e-mail carries the parts the recipient wants (decided again when it is sent).
   */
  parts?: NoticePart[];
};

/** Job kinds that deliver what `notify()` decides; their handlers live in features/account. */
export const DELIVERY_JOBS = {
  email: 'notification-email',
  newResponsesEmail: 'new-responses-email',
  slack: 'slack-post',
} as const;

type Channel = { push: boolean; email: boolean; slack: boolean };

/**
 * Which of the recipient's settings decide each channel of a notification type (PRODUCT-DECISIONS 9, issue 14).
 * Phase changes and results-ready notices always reach the bell and are e-mailed by `phaseChanges` and
 * `resultsReady` (a results-ready notice also tells of the phase change that released the results, so either
 * setting sends it, carrying only the parts that setting wants). Types without a setting (assignments,
 * mentions) always reach the bell and go nowhere else.
 */
export function channelsFor(type: NotificationType, p: NotificationPreferences): Channel {
  const slackOn = (flag: boolean) =>
    p.slackNotifications.enabled && p.slackNotifications.webhookUrl !== '' && flag;
  switch (type) {
    case 'new-response':
      return {
        push: p.pushNotifications.newResponses,
        email: p.emailNotifications.newResponses,
        slack: slackOn(p.slackNotifications.newResponses),
      };
    case 'all-completed':
      return {
        push: p.pushNotifications.completionMilestones,
        email: p.emailNotifications.newResponses,
        slack: slackOn(p.slackNotifications.completionMilestones),
      };
    case 'completion-milestone':
      return {
        push: p.pushNotifications.completionMilestones,
        email: false,
        slack: slackOn(p.slackNotifications.completionMilestones),
      };
    case 'team-update':
      return { push: p.pushNotifications.teamUpdates, email: p.emailNotifications.teamUpdates, slack: false };
    case 'phase-change':
      return { push: true, email: p.emailNotifications.phaseChanges, slack: false };
    case 'results-ready':
      return {
        push: true,
        email: p.emailNotifications.resultsReady || p.emailNotifications.phaseChanges,
        slack: false,
      };
    case 'survey-reminder':
      return {
        push: p.pushNotifications.surveyReminders,
        email: p.emailNotifications.surveyReminders,
        slack: slackOn(p.slackNotifications.surveyReminders),
      };
    case 'loop-round':
      // A loop's new round is the invitation itself, as its e-mail with the personal link is: it reaches every
      // member of the audience, in the bell too (issue 12: members see their open rounds there). What follows it,
      // the reminder before the round closes, is a survey reminder and follows the person's settings above.
      return { push: true, email: false, slack: false };
    case 'loop-progress':
      // A loop's round opening and closing, told to its creator: the loop's milestones, as a check's are.
      return {
        push: p.pushNotifications.completionMilestones,
        email: false,
        slack: slackOn(p.slackNotifications.completionMilestones),
      };
    default:
      return { push: true, email: false, slack: false };
  }
}

/**
 * Posts to a user's Slack webhook (https://hooks.slack.com only, checked when it is saved). A redirect is never
 * followed: it could lead the server's request anywhere, past that allow-list, so it counts as a failure.
 */
export async function postToSlack(webhookUrl: string, text: string) {
  const response = await fetch(webhookUrl, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ text }),
    redirect: 'manual',
    signal: AbortSignal.timeout(10_000),
  });
  await response.body?.cancel();
  if (response.status >= 300 && response.status < 400)
    throw new Error(`Slack webhook answered ${response.status}: redirects are not followed`);
  if (!response.ok) throw new Error(`Slack webhook answered ${response.status}`);
}

/** The user's Slack card when it can post (on, with a webhook): its channel and webhook; null otherwise. */
export async function slackOf(db: Db, userId: string) {
  const [row] = await db
    .select({ preferences: user.notificationPreferences })
    .from(user)
    .where(eq(user.id, userId));
  const slack = resolvePreferences(row?.preferences).slackNotifications;
  return slack.enabled && slack.webhookUrl !== ''
    ? { channel: slack.channel, webhookUrl: slack.webhookUrl }
    : null;
}

const HOUR_MS = 3600_000;

/**
 * Notifies users as each of them chose: the bell (an in-app row and a live push) when their push setting
 * for the type is on, an e-mail and a Slack post (queued as jobs, so a failing SMTP server or webhook never
 * breaks the caller and is retried) when those are on. New-response e-mails are summarised: at most one per
 * check per hour. Pass `tx` to make it part of a larger transaction: nothing is announced if it rolls back.
 */
export async function notify(deps: { db: Db }, input: NotifyInput, tx?: Db): Promise<void> {
  const userIds = [...new Set(input.userIds)];
  if (userIds.length === 0) return;
  const db = tx ?? deps.db;
  const rows = await db
    .select({ id: user.id, preferences: user.notificationPreferences, language: user.language })
    .from(user)
    .where(inArray(user.id, userIds));
  // Each recipient's language (mail/language.ts): a message that is a catalogue key (with its values, `messageWith`)
  // is said in it, in the bell and in what the delivery jobs send; a message in words stays as it is.
  const organization =
    rows.length === 0
      ? null
      : input.healthCheckId
        ? await checkLanguageOf(db, input.healthCheckId)
        : input.workspaceId
          ? await workspaceLanguageOf(db, input.workspaceId)
          : null;
  const now = Date.now();
  const pushTo = new Map<string, string[]>();
  const deliveries: NewJob[] = [];
  for (const row of rows) {
    const language = recipientLanguage({ language: row.language, organization });
    const message = translateMessage(translatorFor(language), input.message);
    const channels = channelsFor(input.type, resolvePreferences(row.preferences));
    if (channels.push) pushTo.set(message, [...(pushTo.get(message) ?? []), row.id]);
    if (channels.email) {
      if (input.type === 'new-response' && input.healthCheckId) {
        // One summary per check and hour: the job of this hour's bucket runs when the bucket ends.
        const bucketEnd = Math.floor(now / HOUR_MS) * HOUR_MS + HOUR_MS;
        deliveries.push({
          kind: DELIVERY_JOBS.newResponsesEmail,
          payload: {
            userId: row.id,
            healthCheckId: input.healthCheckId,
            language,
            from: new Date(bucketEnd - HOUR_MS).toISOString(),
            to: new Date(bucketEnd).toISOString(),
          },
          runAt: new Date(bucketEnd),
          uniqueKey: `new-responses-email:${row.id}:${input.healthCheckId}:${new Date(bucketEnd).toISOString()}`,
        });
      } else {
        const day = new Date(now).toISOString().slice(0, 10);
        deliveries.push({
          kind: DELIVERY_JOBS.email,
          payload: {
            userId: row.id,
            type: input.type,
            message,
            ...(message === input.message ? {} : { notice: input.message }),
            language,
            link: input.link ?? null,
            healthCheckId: input.healthCheckId ?? null,
            ...(input.parts
              ? {
                  parts: input.parts.map((part) => ({
                    ...part,
                    text: translateMessage(translatorFor(language), part.text),
                  })),
                }
              : {}),
          },
          // At most one reminder a day per check and person, whoever asks for it.
          uniqueKey:
            input.type === 'survey-reminder'
              ? `survey-reminder-email:${day}:${row.id}:${input.healthCheckId ?? ''}`
              : undefined,
        });
      }
    }
    if (channels.slack) {
      deliveries.push({
        kind: DELIVERY_JOBS.slack,
        payload: { userId: row.id, type: input.type, message, language, link: input.link ?? null },
      });
    }
  }
  // The e-mails carry the branding of the organisation the notice is about, read once for all of them.
  const emails = deliveries.filter((job) => job.kind === DELIVERY_JOBS.email);
  if (emails.length > 0 && (input.healthCheckId || input.workspaceId)) {
    const branding = input.healthCheckId
      ? await brandingOfHealthCheck(db, input.healthCheckId)
      : await brandingOfWorkspace(db, input.workspaceId!);
    for (const job of emails) job.payload = { ...job.payload, branding };
  }
  // One insert for every delivery: a phase change of a large team stays a few statements.
  await enqueueJobs(db, deliveries);
  for (const [message, ids] of pushTo) await bell(db, listOf(ids), { ...input, message });
}

/**
 * The users of `ids` as a SELECT of user_id, in one parameter however many (a list of parameters costs the embedded
 * database per item).
 */
const listOf = (ids: string[]) =>
  sql`select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb) as user_id`;

type BellNotice = Pick<NotifyInput, 'type' | 'message' | 'link' | 'healthCheckId' | 'workspaceId'>;

/**
 * The bell of each user `users` yields (column user_id) as WITH queries: `name` writes their notification rows (and
 * answers their user ids), `name_pushed` sends their live pushes. A message given as SQL is an expression over the
 * row `users` yields for the person (`u`): the notice in each one's language (mail/language.ts `byLanguageSql`).
 */
function bellQueries(
  users: SQL,
  notice: Omit<BellNotice, 'message'> & { message: string | SQL },
  name: string,
): WithQuery[] {
  const people =
    typeof notice.message === 'string'
      ? sql`select distinct user_id from (${users}) x`
      : sql`select distinct on (user_id) * from (${users}) x`;
  return [
    {
      name,
      query: sql`insert into notifications (user_id, type, message, link, health_check_id, workspace_id)
                 select u.user_id, ${notice.type}, ${notice.message}, ${notice.link ?? null},
                        ${notice.healthCheckId ?? null}, ${notice.workspaceId ?? null}
                 from (${people}) u
                 returning user_id`,
    },
    {
      name: `${name}_pushed`,
      query: usersEvent(sql`select user_id from ${sql.identifier(name)}`, {
        type: LIVE_EVENT.notification,
        data: { kind: notice.type },
      }),
    },
  ];
}

/** `bellQueries` in a statement of their own. Answers whom it told. */
async function bell(db: Db, users: SQL, notice: BellNotice): Promise<string[]> {
  const parts = bellQueries(users, notice, 'told');
  // The pushes are counted in the rows answered: PostgreSQL skips a WITH query that nothing reads (`countsOf`).
  const rows = await queryRows<{ user_id: string }>(
    db,
    sql`${withClause(parts)} select user_id, ${countsOf(parts.slice(1))} from told`,
  );
  return rows.map((row) => row.user_id);
}

/** Settings with every in-app notice off: a type still pushed under them reaches everyone, whatever they chose. */
const NO_PUSH: NotificationPreferences = {
  ...DEFAULT_NOTIFICATION_PREFERENCES,
  pushNotifications: {
    surveyReminders: false,
    newResponses: false,
    completionMilestones: false,
    teamUpdates: false,
  },
};

/** Whether the bell of `type` reaches everyone, whatever their settings (`channelsFor`). */
const reachesEveryone = (type: NotificationType) => channelsFor(type, NO_PUSH).push;

/**
 * The bell of a notice that reaches everyone whatever their settings (a loop's new round), as WITH queries named
 * after `name` for a larger statement that writes what the notice tells of: see `bellQueries`.
 */
export function everyoneBell(
  users: SQL,
  notice: Omit<BellNotice, 'message'> & { message: string | SQL },
  name: string,
): WithQuery[] {
  if (!reachesEveryone(notice.type))
    throw new Error(`a ${notice.type} notice follows each person's settings`);
  return bellQueries(users, notice, name);
}

/**
 * Bell notifications only (no e-mail or Slack), to the users a SELECT yields (column user_id), however many, each by
 * their own settings for the type (`channelsFor`, as `notify` decides): one read of their settings (none for a type
 * nobody's settings can keep from the bell), then one statement for the rows and their live pushes. For notices whose
 * recipients were chosen already (loop rounds and their reminders, features/loops). The notice belongs to
 * `workspaceId`: it goes with the workspace (and its organisation). Answers the users who were notified.
 */
export async function notifyBell(
  deps: { db: Db },
  input: { users: SQL; type: NotificationType; message: string; link: string; workspaceId: string },
  tx?: Db,
): Promise<string[]> {
  const db = tx ?? deps.db;
  if (reachesEveryone(input.type)) return bell(db, input.users, input);
  const candidates = await queryRows<{ id: string; preferences: unknown }>(
    db,
    sql`select u.id, u.notification_preferences as preferences from "user" u
        where u.id in (select user_id from (${input.users}) x)`,
  );
  const userIds = candidates
    .filter((row) => channelsFor(input.type, resolvePreferences(row.preferences)).push)
    .map((row) => row.id);
  return userIds.length === 0 ? [] : bell(db, listOf(userIds), input);
}

/** One notice per person, for notices that differ between recipients: people with the same notice are notified together. */
export async function notifyEach(
  deps: { db: Db },
  notices: { userId: string; notice: Omit<NotifyInput, 'userIds'> }[],
  tx?: Db,
): Promise<void> {
  const groups = new Map<string, { notice: Omit<NotifyInput, 'userIds'>; userIds: string[] }>();
  for (const { userId, notice } of notices) {
    const key = JSON.stringify([
      notice.type,
      notice.message,
      notice.link,
      notice.healthCheckId,
      notice.workspaceId,
      notice.parts,
    ]);
    const group = groups.get(key) ?? { notice, userIds: [] };
    group.userIds.push(userId);
    groups.set(key, group);
  }
  for (const { notice, userIds } of groups.values()) await notify(deps, { ...notice, userIds }, tx);
}

/** The record of a check's milestones (one finished job each, under a unique key: `recordOnce`). */
export const MILESTONE_RECORD = 'completion-milestone';

/**
 * Records the milestones the check has reached and returns those recorded now, the ones to announce: each is
 * recorded once per check (`milestoneKey`), so concurrent completions, on any number of processes, announce
 * it once. Pass the completing transaction: a rollback forgets the record with the completion.
 */
export async function recordMilestones(
  tx: Db,
  options: {
    healthCheckId: string;
    reached: Milestone[];
    minResponses: number;
    completed: number;
    total: number;
  },
): Promise<Milestone[]> {
  const fresh: Milestone[] = [];
  for (const milestone of options.reached) {
    const key = milestoneKey(milestone, options.minResponses);
    const recorded = await recordOnce(tx, {
      kind: MILESTONE_RECORD,
      uniqueKey: `${MILESTONE_RECORD}:${options.healthCheckId}:${key}`,
      payload: {
        healthCheckId: options.healthCheckId,
        milestone: key,
        completed: options.completed,
        total: options.total,
      },
    });
    if (recorded) fresh.push(milestone);
  }
  return fresh;
}
