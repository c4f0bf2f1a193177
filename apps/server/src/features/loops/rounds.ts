import { setImmediate as nextTurn } from 'node:timers/promises';
import { resolvePreferences } from '@pulsecheck/shared/account/schemas';
import { isLanguage, type Locale } from '@pulsecheck/shared/i18n/languages';
import type { Translator } from '@pulsecheck/shared/i18n/translate';
import { AppError } from '../../lib/app-error';
import type { RoundSummary } from '@pulsecheck/shared/loops/contract';
import { LOOP_LINKS } from '@pulsecheck/shared/loops/links';
import {
  ENPS_LABELS,
  ENPS_MAX,
  ENPS_MIN,
  LOOP_MESSAGES,
  SCALE_MAX,
  SCALE_MIN,
} from '@pulsecheck/shared/loops/rules';
import {
  localMoment,
  nextRoundOpening,
  reminderAt,
  roundClosing,
  type Schedule,
} from '@pulsecheck/shared/loops/schedule';
import { responseRate } from '@pulsecheck/shared/loops/stats';
import { LIVE_EVENT, topics } from '@pulsecheck/shared/realtime/topics';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { enqueueJob, enqueueJobs, type JobHandler } from '../../jobs/queue';
import { translatorFor } from '../../lib/i18n';
import type { AppDeps } from '../../lib/router';
import {
  byLanguageSql,
  languageInWorkspace,
  recipientLanguage,
  workspaceLanguageOf,
} from '../../mail/language';
import { localizeContent } from '../../lib/content-language';
import { PERSONAL, type OutgoingMail } from '../../mail/outbox';
import { renderMail, type MailChoices } from '../../mail/templates';
import { unsubscribeUrl } from '../account/service';
import { channelsFor, everyoneBell, notify, notifyBell } from '../notifications/service';
import * as q from './queries';
import { snapshotRoundQuestions, storeRoundCounts as storeRoundFollowUpCounts } from '../follow-ups/service';
import { loopRoundChanged } from '../../webhooks/emit';
import { answerToken, answerTokenSql, secretHashSql } from './tokens';
import { questionWording } from './wording';
import { mailBrandingOfWorkspace } from '../branding/service';
import type { Branding } from '@pulsecheck/shared/branding/rules';

/**
 * A loop's rounds: opened by the job table at their time (exactly once, also with several processes), by 'Start
 * now' and by 'Start Next Round Now'; closed at their time or by hand, and sealed; reminders; the round's e-mails,
 * queued in batches after it opened (docs/decisions/0009-loops.md).
 */

export type Deps = Pick<AppDeps, 'db' | 'config' | 'mailer' | 'realtime' | 'logger'>;

export const LOOP_JOBS = {
  open: 'loop-round-open',
  close: 'loop-round-close',
  remind: 'loop-round-remind',
  invite: 'loop-round-invite',
} as const;

/**
 * People told per statement (invitations) or transaction (reminders) when a round's e-mails go out. The embedded
 * database runs in the server's own thread, one statement at a time: there a batch is small (about 7 ms of work),
 * so the requests that arrive while 10,000 members are invited wait for short batches, not for a long one; a request
 * may wait for one batch at each of its own turns of the event loop, so 40 or 50 members a batch already took
 * the autosaves' p99 near 100 ms (bench `loop-round-open`, session 9).
 * Between batches the event loop reads what has arrived (`nextTurn`): the embedded database answers in promises
 * alone, so without it a large audience would keep every other request waiting until the last batch.
 */
const inviteBatch = (deps: Deps) => (deps.config.databaseUrl ? 250 : 30);
/** How long after an opening its invitation job waits before taking over what is left (see `openRound`). */
const INVITE_FALLBACK_MS = 60_000;

/** A time from the database as the API answers it. */
export const toIso = (value: string | Date) => new Date(value).toISOString();
const instant = (value: string | Date) => new Date(value);

export const scheduleOf = (loop: q.LoopRow): Schedule => ({
  cadence: loop.cadence as Schedule['cadence'],
  weekday: loop.weekday as Schedule['weekday'],
  time: loop.time,
  timeZone: loop.timeZone,
  anchorDate: loop.anchorDate,
});

export function roundSummary(row: q.RoundWithAnswered): RoundSummary {
  return {
    id: row.id,
    number: row.number,
    status: row.status === 'closed' ? 'closed' : 'open',
    openedAt: toIso(row.opened_at),
    closesAt: toIso(row.closes_at),
    closedAt: row.closed_at ? toIso(row.closed_at) : null,
    audience: row.audience,
    answered: row.answered,
    responseRate: responseRate(row.answered, row.audience),
    anonymous: row.anonymous,
    minResponses: row.min_responses,
  };
}

/**
 * The words of a loop's notices to its creator (bell and Slack): in their language, else their organisation's
 * (mail/language.ts), as the notice is stored in it.
 */
async function creatorTranslator(db: Db, loop: { createdBy: string | null; workspaceId: string }) {
  return translatorFor(
    await languageInWorkspace(db, { userId: loop.createdBy, workspaceId: loop.workspaceId }),
  );
}

/** Tells the loop's screens and its workspace's dashboards to refetch. Ids only: never a figure. */
export async function publishLoopChanged(
  deps: Pick<AppDeps, 'realtime'>,
  loop: { id: string; workspaceId: string },
  tx?: Db,
) {
  const data = { loopId: loop.id };
  for (const topic of [topics.loop(loop.id), topics.workspace(loop.workspaceId)])
    await deps.realtime.publish({ topic, type: LIVE_EVENT.loopChanged, data }, tx);
}

/** The job that opens the loop's next round at `at`; its key makes one opening per loop and instant. */
export async function scheduleOpening(tx: Db, loopId: string, at: Date) {
  await enqueueJob(tx, {
    kind: LOOP_JOBS.open,
    payload: { loopId, at: at.toISOString() },
    runAt: at,
    uniqueKey: `loop-round:${loopId}:${at.toISOString()}`,
  });
}

/**
 * Opens the loop's next round, in the caller's transaction, the loop row locked:
 * - by the job (`expectedAt`): only while the loop is active and its next_round_at is still that instant, so a
 *   repeated or stale job (another process, a schedule changed since) opens nothing and answers null;
 * - by hand: refused while paused (409 loop_paused) or once stopped (409 loop_ended).
 * Closes the open round first, inserts the round (numbered after the last) with a snapshot of what decides its
 * results and of its audience, the next opening, and the close, the reminder and the invitations as jobs. The
 * recipients, their e-mails and bell notices are written after commit, in batches (`inviteRecipients`).
 */
export async function openRound(
  deps: Deps,
  tx: Db,
  options: { loopId: string; expectedAt?: Date; now?: Date },
): Promise<q.RoundRow | null> {
  const now = options.now ?? new Date();
  const loop = await q.lockLoop(tx, options.loopId);
  if (!loop) return null;
  if (options.expectedAt) {
    if (loop.status !== 'active' || loop.nextRoundAt?.getTime() !== options.expectedAt.getTime()) return null;
  } else if (loop.status === 'completed') {
    throw new AppError('loop_ended', LOOP_MESSAGES.loopEnded);
  } else if (loop.status === 'paused') {
    throw new AppError('loop_paused', LOOP_MESSAGES.loopPaused);
  }
  const open = await q.openRoundOf(tx, loop.id);
  if (open) await closeLockedRound(deps, tx, { loop, round: open, now });

  const schedule = scheduleOf(loop);
  const closesAt = roundClosing(schedule, now, loop.roundDays);
  const questions = await q.currentQuestions(tx, loop.id);
  const previousOpening = await q.lastOpenedAt(tx, loop.id);
  const inserted = await q.insertRound(tx, {
    loopId: loop.id,
    number: await q.nextRoundNumber(tx, loop.id),
    status: 'open',
    openedAt: now,
    closesAt,
    audience: 0,
    anonymous: loop.anonymous,
    minResponses: loop.minResponses,
    questionIds: questions.map((question) => question.id),
  });
  // The audience as it is now, one array on the round; its members become recipients with their e-mails.
  const audience = await q.snapshotAudience(tx, inserted.id, q.roundAudience(loop));
  const round = { ...inserted, audience };
  // 'Follow-up on actions': the workspace's actions done since the previous round opened (the loop's creation for
  // its first), fixed now, so a question never appears or disappears while the round is open (decision 0019).
  if (loop.followUpActions)
    await snapshotRoundQuestions(tx, {
      workspaceId: loop.workspaceId,
      roundId: round.id,
      since: previousOpening ?? loop.createdAt,
      openAt: now,
    });
  await loopRoundChanged(tx, 'loop.round_opened', loop, round);
  // A round opened by its job stands for the job's slot (even if it ran early or late); one opened by hand for now.
  const served = options.expectedAt ?? now;
  const next = nextRoundOpening(schedule, {
    after: new Date(Math.max(now.getTime(), served.getTime())),
    lastOpenedAt: served,
  }).opensAt;
  await q.updateLoop(tx, loop.id, { nextRoundAt: next });
  await scheduleOpening(tx, loop.id, next);
  await enqueueJobs(tx, [
    {
      kind: LOOP_JOBS.close,
      payload: { roundId: round.id },
      runAt: closesAt,
      uniqueKey: `loop-round-close:${round.id}`,
    },
    {
      // The opening's own process invites right after commit (`startRound`); the job is there for when that
      // process stops first, so it waits instead of running the same batches beside it.
      kind: LOOP_JOBS.invite,
      payload: { roundId: round.id },
      runAt: new Date(now.getTime() + INVITE_FALLBACK_MS),
      uniqueKey: `loop-round-invite:${round.id}`,
    },
    ...(loop.reminder
      ? [
          {
            kind: LOOP_JOBS.remind,
            payload: { roundId: round.id },
            runAt: reminderAt(now, closesAt),
            uniqueKey: `loop-round-remind:${round.id}`,
          },
        ]
      : []),
  ]);
  await publishLoopChanged(deps, loop, tx);
  const creator = await creatorTranslator(tx, loop);
  await notify(
    deps,
    {
      userIds: loop.createdBy ? [loop.createdBy] : [],
      type: 'loop-progress',
      message: creator.t(LOOP_MESSAGES.roundOpenedNotice, {
        title: loop.title,
        number: round.number,
        count: audience,
      }),
      link: LOOP_LINKS.completionStatus(loop.id),
      workspaceId: loop.workspaceId,
    },
    tx,
  );
  return round;
}

/**
 * Opens a round in a transaction of its own and then queues its e-mails (also queued by the round's invitation
 * job, should this process stop first). Answers the round, or null when the job found nothing to open.
 */
export async function startRound(deps: Deps, options: { loopId: string; expectedAt?: Date; now?: Date }) {
  const round = await deps.db.transaction((tx) => openRound(deps, tx, options));
  if (round) {
    await inviteRecipients(deps, round.id).catch((error: unknown) => {
      deps.logger.warn({ err: error, roundId: round.id }, 'loop invitations will be retried by their job');
    });
  }
  return round;
}

/**
 * Closes a round whose loop row the caller holds locked: counts its answers into loop_round_counts (GROUP BY),
 * seals an anonymous round (queries.ts `sealResponses`), clears continuation secrets and records its respondents.
 * A closed round is left as it is.
 */
export async function closeLockedRound(
  deps: Deps,
  tx: Db,
  options: {
    loop: Pick<q.LoopRow, 'id' | 'workspaceId' | 'title' | 'createdBy'>;
    round: q.RoundRow;
    now?: Date;
  },
) {
  const { loop, round } = options;
  if (round.status === 'closed') return round;
  const answered = await q.countLedger(tx, round.id);
  await q.storeRoundCounts(tx, round.id);
  await storeRoundFollowUpCounts(tx, round.id);
  if (round.anonymous) await q.sealResponses(tx, round.id);
  else await q.clearContinuations(tx, round.id);
  const closedAt = options.now ?? new Date();
  await q.closeRound(tx, round.id, { closedAt, answered });
  await loopRoundChanged(tx, 'loop.round_closed', loop, round);
  await publishLoopChanged(deps, loop, tx);
  const creator = await creatorTranslator(tx, loop);
  await notify(
    deps,
    {
      userIds: loop.createdBy ? [loop.createdBy] : [],
      type: 'loop-progress',
      message: creator.t(LOOP_MESSAGES.roundClosedNotice, {
        title: loop.title,
        number: round.number,
        rate: creator.percent(responseRate(answered, round.audience) / 100),
        answered,
        audience: round.audience,
      }),
      link: LOOP_LINKS.results(loop.id),
      workspaceId: loop.workspaceId,
    },
    tx,
  );
  return { ...round, status: 'closed', closedAt, answered };
}

/** Closes the round (by its job or 'Close Round Now'), taking the loop's lock first as every round change does. */
export async function closeRound(deps: Deps, options: { roundId: string; now?: Date }) {
  return deps.db.transaction(async (tx) => {
    const found = await q.findRound(tx, options.roundId);
    if (!found) return null;
    const loop = await q.lockLoop(tx, found.loopId);
    const round = await q.lockRound(tx, options.roundId);
    if (!loop || !round) return null;
    return closeLockedRound(deps, tx, { loop, round, now: options.now });
  });
}

/**
 * The one-click answers of the first question, when it is a scale or eNPS question, in the reader's words: a
 * catalogue question and its scale's ends translated, a question the admin wrote in its translation into the
 * reader's language, else as written (`questionWording`).
 */
function quickChoices(
  appUrl: string,
  token: string,
  first: q.QuestionRow | undefined,
  t: Translator,
): MailChoices | undefined {
  if (!first || first.kind === 'text') return undefined;
  const words = questionWording(first, t.locale);
  const [min, max, ends] =
    first.kind === 'scale'
      ? [SCALE_MIN, SCALE_MAX, { low: words.lowLabel ?? '', high: words.highLabel ?? '' }]
      : [ENPS_MIN, ENPS_MAX, { low: t.t(ENPS_LABELS.low), high: t.t(ENPS_LABELS.high) }];
  const links = [];
  for (let value = min; value <= max; value += 1)
    links.push({ label: String(value), url: `${appUrl}${LOOP_LINKS.quickAnswer(token, value)}` });
  // Without a translation into the reader's language: the loop's, said so (as the answer page does).
  const shownIn = words.shownIn
    ? {
        language: words.shownIn,
        note: t.t('mail.loopRound.shownIn', { language: t.languageName(words.shownIn) }),
      }
    : undefined;
  return { prompt: words.text, ends, links, shownIn };
}

/** The loop's title and description in the reader's language when they are the catalogue's (a template's). */
const loopWords = (t: Translator, loop: Pick<q.LoopRow, 'title' | 'description'>) => ({
  title: localizeContent(t.locale, loop.title, 'title'),
  description: loop.description ? localizeContent(t.locale, loop.description, 'description') : '',
});

/** When the round closes, in the loop's zone, in the reader's words. */
const closesLine = (t: Translator, closesAt: Date, timeZone: string) =>
  t.t('mail.loopRound.closes', { moment: t.say(localMoment(closesAt, timeZone)) });

const anonymityLine = (t: Translator, anonymous: boolean) =>
  t.t(anonymous ? 'mail.loopRound.anonymous' : 'mail.loopRound.named');

/**
 * The round's e-mail in one language, the same for every member reading it but for their token (`PERSONAL`, filled
 * in as each is sent): their personal link, and one-click answers to the first question.
 */
function roundMail(
  appUrl: string,
  t: Translator,
  input: {
    loop: Pick<q.LoopRow, 'title' | 'description' | 'anonymous' | 'timeZone'>;
    round: Pick<q.RoundRow, 'number' | 'closesAt'>;
    first: q.QuestionRow | undefined;
    branding: Branding | null;
  },
) {
  const { loop, round } = input;
  const { title, description } = loopWords(t, loop);
  return renderMail({
    subject: t.t('mail.loopRound.subject', { title, number: round.number }),
    heading: title,
    paragraphs: [
      t.t('mail.loopRound.body'),
      ...(description ? [description] : []),
      anonymityLine(t, loop.anonymous),
      closesLine(t, round.closesAt, loop.timeZone),
    ],
    choices: quickChoices(appUrl, PERSONAL, input.first, t),
    action: { label: t.t('mail.loopRound.action'), url: `${appUrl}${LOOP_LINKS.answer(PERSONAL)}` },
    footer: t.t('mail.loopRound.footer'),
    branding: input.branding,
    translator: t,
  });
}

const appUrlOf = (deps: Deps) => deps.config.appUrl.replace(/\/$/, '');

/**
 * Tells the round's members it opened, a batch per statement so a large audience never holds the database for
 * long: the next members of the round's audience become recipients with the hash of their token (each batch its own
 * slice, also across processes), and the same statement writes their e-mails (each one's token for the round's
 * e-mail, stored once) and their bell notices. A personal link works from the moment its e-mail is queued. SMTP being
 * down changes nothing here: the outbox retries.
 */
export async function inviteRecipients(deps: Deps, roundId: string) {
  const round = await q.findRound(deps.db, roundId);
  if (!round) return;
  const loop = await q.findLoop(deps.db, round.loopId);
  if (!loop) return;
  const [first] = await q.questionsById(deps.db, round.questionIds.slice(0, 1));
  const branding = await mailBrandingOfWorkspace(deps, loop.workspaceId);
  // Each member in their own language (mail/language.ts), said by the query; one body per language the audience
  // reads, each completed with its member's token when it is sent.
  const organization = await workspaceLanguageOf(deps.db, loop.workspaceId);
  const language = q.memberLanguageSql(organization);
  const fallback = recipientLanguage({ organization });
  const locales = new Set<Locale>([fallback]);
  for (const chosen of await q.audienceLanguages(deps.db, roundId, language))
    if (isLanguage(chosen)) locales.add(chosen);
  const bodies = new Map<Locale, string>();
  const subjects = new Map<Locale, string>();
  const notices = new Map<Locale, string>();
  for (const locale of locales) {
    const t = translatorFor(locale);
    const mail = roundMail(appUrlOf(deps), t, { loop, round, first, branding });
    bodies.set(locale, await deps.mailer.storeBody(loop.workspaceId, mail));
    subjects.set(locale, mail.subject);
    notices.set(
      locale,
      t.t('mail.loopRound.notice', { title: loopWords(t, loop).title, number: round.number }),
    );
  }
  const secret = deps.config.authSecret;
  const limit = inviteBatch(deps);
  for (;;) {
    const { sliced } = await q.inviteNext(deps.db, {
      roundId,
      limit,
      token: (memberId) => answerTokenSql(secret, round.id, memberId),
      tokenHash: secretHashSql,
      language,
      then: (invitees) => [
        {
          name: 'mailed',
          query: deps.mailer.queueFrom(
            sql`select 'loop-round' as kind, i.email as "to",
                       ${byLanguageSql(sql`i.language`, subjects, fallback)} as subject, i.token as personal,
                       ${byLanguageSql(sql`i.language`, bodies, fallback)} as body_id
                from ${invitees} i`,
            sql`m.body_id`,
          ),
        },
        ...everyoneBell(
          sql`select user_id, language from ${invitees}`,
          {
            type: 'loop-round',
            message: byLanguageSql(sql`u.language`, notices, fallback),
            link: LOOP_LINKS.round(round.id),
            workspaceId: loop.workspaceId,
          },
          'belled',
        ),
      ],
    });
    if (!sliced) break;
    deps.mailer.queued();
    await nextTurn();
  }
  await q.dropAudienceList(deps.db, roundId);
}

/**
 * Reminds the round's members who have not answered, each by their Survey Reminders settings: an e-mail with their
 * personal link and the one-click unsubscribe of survey reminders, and a bell notice.
 *
 * The caller has decided, under the loop's and the round's locks, that a reminder goes out now and recorded it
 * (`reminded_at`, so it goes out once); this then reads who has not answered and tells them in batches of
 * `inviteBatch`, each its own transaction, so a large audience never holds the database for long. Answers how many
 * were reminded (by either way).
 */
export async function remindRound(deps: Deps, options: { loop: q.LoopRow; round: q.RoundRow }) {
  const { loop, round } = options;
  const appUrl = appUrlOf(deps);
  // Each person's Survey Reminders settings decide, as for every notice (channelsFor): the bell by notifyBell, the
  // e-mail here. Each in their own language (mail/language.ts), read with them.
  const organization = await workspaceLanguageOf(deps.db, loop.workspaceId);
  const people = await q.unansweredRecipients(deps.db, round.id, q.memberLanguageSql(organization));
  const localeOf = (person: (typeof people)[number]) =>
    recipientLanguage({ language: person.language, organization });
  const channels = (person: (typeof people)[number]) =>
    channelsFor('survey-reminder', resolvePreferences(person.preferences));
  let reached = 0;
  const size = inviteBatch(deps);
  // The organisation's branding, read once for every reminder of the round.
  const branding = people.length > 0 ? await mailBrandingOfWorkspace(deps, loop.workspaceId) : null;
  for (let start = 0; start < people.length; start += size) {
    const batch = people.slice(start, start + size);
    const mails = batch
      .filter((p) => channels(p).email)
      .map((person): OutgoingMail => {
        const t = translatorFor(localeOf(person));
        const { title } = loopWords(t, loop);
        const token = answerToken(deps.config.authSecret, round.id, person.member_id);
        const unsubscribe = unsubscribeUrl(deps.config, person.user_id);
        return {
          kind: 'loop-reminder',
          to: person.email,
          ...renderMail({
            subject: t.t('mail.loopReminder.subject', { title }),
            heading: t.t('mail.loopReminder.heading', { title, number: round.number }),
            paragraphs: [
              t.t('mail.loopReminder.body', { name: person.name }),
              anonymityLine(t, round.anonymous),
              closesLine(t, round.closesAt, loop.timeZone),
            ],
            action: { label: t.t('mail.loopRound.action'), url: `${appUrl}${LOOP_LINKS.answer(token)}` },
            footer: t.t('mail.reminders.unsubscribe', { url: unsubscribe }),
            branding,
            translator: t,
          }),
        };
      });
    // The bell notice in each one's language: one statement per language of the batch.
    const byLocale = new Map<Locale, string[]>();
    for (const person of batch) {
      const locale = localeOf(person);
      byLocale.set(locale, [...(byLocale.get(locale) ?? []), person.user_id]);
    }
    const belled = await deps.db.transaction(async (tx) => {
      await deps.mailer.enqueueMany(mails, tx);
      const told: string[] = [];
      for (const [locale, userIds] of byLocale) {
        const t = translatorFor(locale);
        told.push(
          ...(await notifyBell(
            deps,
            {
              users: sql`select id as user_id from "user" where id in ${q.inList(userIds)}`,
              type: 'survey-reminder',
              message: t.t('mail.loopReminder.notice', { title: loopWords(t, loop).title }),
              link: LOOP_LINKS.round(round.id),
              workspaceId: loop.workspaceId,
            },
            tx,
          )),
        );
      }
      return told;
    });
    const told = new Set([...belled, ...batch.filter((p) => channels(p).email).map((p) => p.user_id)]);
    reached += told.size;
    await nextTurn();
  }
  return reached;
}

const loopPayload = z.object({ loopId: z.uuid(), at: z.string() });
const roundPayload = z.object({ roundId: z.uuid() });

/** The loops' scheduled work, by job kind (main.ts registers them). */
export function loopJobHandlers(deps: Deps): Record<string, JobHandler> {
  return {
    [LOOP_JOBS.open]: async (raw) => {
      const { loopId, at } = loopPayload.parse(raw);
      await startRound(deps, { loopId, expectedAt: instant(at) });
    },
    [LOOP_JOBS.close]: async (raw) => {
      await closeRound(deps, roundPayload.parse(raw));
    },
    [LOOP_JOBS.invite]: async (raw) => inviteRecipients(deps, roundPayload.parse(raw).roundId),
    [LOOP_JOBS.remind]: async (raw) => {
      const { roundId } = roundPayload.parse(raw);
      const due = await deps.db.transaction(async (tx) => {
        const found = await q.findRound(tx, roundId);
        const loop = found && (await q.lockLoop(tx, found.loopId));
        const round = loop && (await q.lockRound(tx, roundId));
        // The reminder setting, the loop's status and the round are read when it is due, not when it was planned.
        if (!loop || !round || round.status !== 'open' || loop.status !== 'active' || !loop.reminder)
          return null;
        await q.updateRound(tx, roundId, { remindedAt: new Date() });
        return { loop, round };
      });
      if (due) await remindRound(deps, due);
    },
  };
}
