import { DEFAULT_NOTIFICATION_PREFERENCES } from '@pulsecheck/shared/account/schemas';
import type { LoopDetail, RemindResponse } from '@pulsecheck/shared/loops/contract';
import { LOOP_MESSAGES } from '@pulsecheck/shared/loops/rules';
import { and, eq, inArray, like, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { user } from '../../db/schema/auth';
import { loopRounds, loops } from '../../db/schema/loops';
import { jobs, mailOutbox, notifications } from '../../db/schema/messaging';
import { runDueJobs } from '../../jobs/queue';
import { createLogger } from '../../logger';
import { processOutbox } from '../../mail/outbox';
import { useAdmin } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import {
  addPeople,
  editable,
  answerByLink,
  answerToken,
  launchLoop,
  loopBody,
  makeDue,
  roundMail,
  runLoopJobs,
} from '../../test/loops';
import { english, json } from '../../test/requests';
import { LOOP_JOBS, loopJobHandlers, startRound } from './rounds';

const ctx = useTestContext();
const admin = useAdmin(ctx, { companyName: 'Rounds Co' });
const logger = createLogger('silent');

const detail = async (loopId: string) =>
  (await json<{ loop: LoopDetail }>(await ctx.call(admin.jar, 'GET', `/api/loops/${loopId}`))).loop;
const roundsOf = (loopId: string) =>
  ctx.deps.db.select().from(loopRounds).where(eq(loopRounds.loopId, loopId)).orderBy(loopRounds.number);
/** A Monday at least a week ahead (the first round by date). */
const nextMonday = () => {
  const day = new Date(Date.now() + 8 * 86_400_000);
  day.setUTCDate(day.getUTCDate() + ((8 - day.getUTCDay()) % 7));
  return day.toISOString().slice(0, 10);
};

describe('rounds opened by the job table', () => {
  it('a first round by date waits for its slot, then opens exactly once with two workers at once', async () => {
    await addPeople(ctx, admin.workspaceId, 3);
    const start = nextMonday();
    const launched = await launchLoop(ctx, admin.jar, admin.workspaceId, { start, time: '09:30' });
    expect(launched.startedNow).toBe(false);
    expect(launched.firstRoundAt).toBe(new Date(`${start}T08:30:00Z`).toISOString());
    expect(await roundsOf(launched.id)).toEqual([]);

    await runLoopJobs(ctx);
    expect(await roundsOf(launched.id)).toEqual([]);

    // Its time comes: two workers (two job runs, and a duplicate opening for the same instant) race for it.
    await ctx.deps.db
      .update(jobs)
      .set({ runAt: sql`now() - interval '1 second'` })
      .where(and(eq(jobs.kind, LOOP_JOBS.open), like(jobs.uniqueKey, `loop-round:${launched.id}:%`)));
    const handlers = loopJobHandlers(ctx.deps);
    const expectedAt = new Date(launched.firstRoundAt);
    await Promise.all([
      runDueJobs({ db: ctx.deps.db, logger, handlers }),
      runDueJobs({ db: ctx.deps.db, logger, handlers }),
      startRound(ctx.deps, { loopId: launched.id, expectedAt }),
      startRound(ctx.deps, { loopId: launched.id, expectedAt }),
    ]);
    const rounds = await roundsOf(launched.id);
    expect(rounds.map((r) => r.number)).toEqual([1]);
    const loop = await detail(launched.id);
    // The next opening is the Monday a week after the slot.
    expect(loop.nextRoundAt).toBe(
      new Date(new Date(launched.firstRoundAt).getTime() + 7 * 86_400_000).toISOString(),
    );
  });

  it('closes a round at its time, and a schedule change makes the old opening job a no-op', async () => {
    await addPeople(ctx, admin.workspaceId, 3);
    const launched = await launchLoop(ctx, admin.jar, admin.workspaceId);
    const loop = await detail(launched.id);
    const edited = await ctx.call(admin.jar, 'PUT', `/api/loops/${launched.id}`, {
      ...editable(loop),
      weekday: 'friday',
    });
    expect(edited.status).toBe(200);
    const after = (await json<{ loop: LoopDetail }>(edited)).loop;
    expect(after.schedule).toBe('Every Friday at 09:00 (Europe/Berlin)');
    expect(after.nextRoundAt).not.toBe(loop.nextRoundAt);

    const dueNow = (uniqueKey: string) =>
      ctx.deps.db
        .update(jobs)
        .set({ runAt: sql`now() - interval '1 second'` })
        .where(eq(jobs.uniqueKey, uniqueKey));
    await dueNow(`loop-round:${launched.id}:${loop.nextRoundAt}`);
    await makeDue(ctx, LOOP_JOBS.close);
    await runLoopJobs(ctx);
    // The stale Monday job opened nothing; the round closed at its time.
    expect((await roundsOf(launched.id)).map((r) => [r.number, r.status])).toEqual([[1, 'closed']]);
    // The Friday job opens round 2 (late, once).
    await dueNow(`loop-round:${launched.id}:${after.nextRoundAt}`);
    await runLoopJobs(ctx);
    expect((await roundsOf(launched.id)).map((r) => [r.number, r.status])).toEqual([
      [1, 'closed'],
      [2, 'open'],
    ]);
  });
});

describe('reminders', () => {
  it('reach only those who have not answered, by their survey-reminder settings, with a one-click unsubscribe', async () => {
    const [answered, wantsAll, noEmail] = await addPeople(ctx, admin.workspaceId, 3);
    await ctx.deps.db
      .update(user)
      .set({
        notificationPreferences: {
          ...DEFAULT_NOTIFICATION_PREFERENCES,
          emailNotifications: {
            ...DEFAULT_NOTIFICATION_PREFERENCES.emailNotifications,
            surveyReminders: false,
          },
        },
      })
      .where(eq(user.id, noEmail!.userId));
    const launched = await launchLoop(ctx, admin.jar, admin.workspaceId, { title: 'Reminded pulse' });
    expect((await answerByLink(ctx, await answerToken(ctx, answered!.email))).status).toBe(201);

    await makeDue(ctx, LOOP_JOBS.remind);
    await runLoopJobs(ctx);
    const reminder = await roundMail(ctx, wantsAll!.email, 'Reminder');
    expect(reminder.subject).toBe('Reminder: Reminded pulse closes soon');
    expect(reminder.text).toMatch(/\/loop-answer\/[\w-]+/);
    expect(reminder.text).toMatch(/\/unsubscribe\?token=/);
    await expect(roundMail(ctx, noEmail!.email, 'Reminder')).rejects.toThrow();
    await expect(roundMail(ctx, answered!.email, 'Reminder')).rejects.toThrow();

    // 'Send Reminder' right after: too soon.
    const round = (await detail(launched.id)).currentRound!;
    const again = await ctx.call(admin.jar, 'POST', `/api/loops/${launched.id}/rounds/${round.id}/remind`);
    expect(again.status).toBe(409);
    expect((await json(again)).error.message).toBe(english(LOOP_MESSAGES.reminderTooSoon));

    // Unsubscribing from the e-mail switches survey reminders off for good.
    const token = /unsubscribe\?token=([\w.-]+)/.exec(reminder.text)![1];
    const unsubscribed = await ctx.request('POST', '/api/account/unsubscribe', { body: { token } });
    expect(unsubscribed.status).toBe(200);
    await ctx.deps.db.update(loopRounds).set({ remindedAt: null }).where(eq(loopRounds.id, round.id));
    const manual = await ctx.call(admin.jar, 'POST', `/api/loops/${launched.id}/rounds/${round.id}/remind`);
    expect(manual.status).toBe(200);
    const reminded = await json<RemindResponse>(manual);
    // The admin (who has not answered) is still reminded; the unsubscribed person gets no e-mail.
    expect(reminded.reminded).toBeGreaterThanOrEqual(1);
    expect(
      (await ctx.deps.db.select().from(mailOutbox).where(eq(mailOutbox.to, wantsAll!.email))).filter((m) =>
        m.subject.startsWith('Reminder'),
      ),
    ).toHaveLength(1);
  });

  it('refuses a reminder for a closed round', async () => {
    await addPeople(ctx, admin.workspaceId, 3);
    const launched = await launchLoop(ctx, admin.jar, admin.workspaceId);
    const round = (await detail(launched.id)).currentRound!;
    await ctx.call(admin.jar, 'POST', `/api/loops/${launched.id}/rounds/${round.id}/close`);
    const response = await ctx.call(admin.jar, 'POST', `/api/loops/${launched.id}/rounds/${round.id}/remind`);
    expect(response.status).toBe(409);
    expect((await json(response)).error.code).toBe('round_closed');
  });
});

describe('faults', () => {
  it('opens the round when the SMTP server is down; its e-mails stay in the outbox and are retried', async () => {
    const [person] = await addPeople(ctx, admin.workspaceId, 3);
    const launched = await launchLoop(ctx, admin.jar, admin.workspaceId);
    expect((await detail(launched.id)).currentRound?.status).toBe('open');
    const down = () => Promise.reject(new Error('ECONNREFUSED'));
    while ((await processOutbox({ db: ctx.deps.db, logger, send: down })) > 0);
    const mail = await roundMail(ctx, person!.email);
    expect(mail).toMatchObject({ status: 'pending', attempts: 1, lastError: 'ECONNREFUSED' });
    await ctx.deps.db.update(mailOutbox).set({ nextAttemptAt: new Date() }).where(eq(mailOutbox.id, mail.id));
    const sent: string[] = [];
    while ((await processOutbox({ db: ctx.deps.db, logger, send: async (m) => void sent.push(m.to) })) > 0);
    expect(sent).toContain(person!.email);
  });

  it('refuses a bad loop with a clear message and saves nothing', async () => {
    const before = await ctx.deps.db.select({ id: loops.id }).from(loops);
    const question = { kind: 'scale', text: 'Q', lowLabel: 'Low', highLabel: 'High' };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ questions: [] }, 'questions', english(LOOP_MESSAGES.questionsMin)],
      [
        { questions: Array.from({ length: 11 }, () => question) },
        'questions',
        english(LOOP_MESSAGES.questionsMax),
      ],
      [
        { questions: [{ ...question, text: '  ' }] },
        'questions.0.text',
        english(LOOP_MESSAGES.questionRequired),
      ],
      [
        { questions: [{ ...question, text: 'x'.repeat(201) }] },
        'questions.0.text',
        english(LOOP_MESSAGES.questionTooLong),
      ],
      [{ cadence: 'daily' }, 'cadence', english(LOOP_MESSAGES.cadence)],
      [{ roundDays: 8 }, 'roundDays', english(LOOP_MESSAGES.roundDays)],
      [{ anonymous: true, minResponses: 2 }, 'minResponses', english(LOOP_MESSAGES.minResponsesAnonymous)],
      // The clocks go forward in Berlin on Sunday 28 March 2027 at 02:00.
      [
        { start: '2027-03-28', weekday: 'sunday', time: '02:30' },
        'start',
        '02:30 does not exist on Sunday 28 March 2027 in Europe/Berlin: the clocks go forward that night. Choose another time or first round date',
      ],
      [{ start: '2020-01-06' }, 'start', english(LOOP_MESSAGES.firstRoundPast)],
      [{ minResponses: 50 }, 'audience', ''],
      [
        {
          audience: {
            kind: 'members',
            memberIds: [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()],
          },
        },
        'audience.memberIds',
        english(LOOP_MESSAGES.audienceMember),
      ],
    ];
    for (const [overrides, field, message] of cases) {
      const response = await ctx.call(admin.jar, 'POST', '/api/loops', {
        ...loopBody(admin.workspaceId),
        ...overrides,
      });
      expect(response.status, field).toBe(400);
      const { error } = await json(response);
      if (field === 'audience')
        expect(error.fields?.audience, field).toMatch(
          /^The audience has \d+ members, fewer than the 50 responses/,
        );
      else expect(error.fields?.[field], field).toBe(message);
    }
    expect(await ctx.deps.db.select({ id: loops.id }).from(loops)).toEqual(before);
  });
});

describe('settings that protect respondents', () => {
  it('only get stricter once a round has answers; before that they may change', async () => {
    const people = await addPeople(ctx, admin.workspaceId, 3);
    const launched = await launchLoop(ctx, admin.jar, admin.workspaceId, { minResponses: 4 });
    const loop = await detail(launched.id);
    const lowered = await ctx.call(admin.jar, 'PUT', `/api/loops/${launched.id}`, {
      ...editable(loop),
      minResponses: 3,
    });
    expect(lowered.status).toBe(200);

    expect((await answerByLink(ctx, await answerToken(ctx, people[0]!.email))).status).toBe(201);
    const again = await detail(launched.id);
    const looser = await ctx.call(admin.jar, 'PUT', `/api/loops/${launched.id}`, {
      ...editable(again),
      anonymous: false,
    });
    expect(looser.status).toBe(409);
    const { error } = await json(looser);
    expect(error.message).toBe(english(LOOP_MESSAGES.settingsOnlyStricter));
    expect(error.fields).toEqual({ anonymous: english(LOOP_MESSAGES.anonymityStaysOn) });
    const stricter = await ctx.call(admin.jar, 'PUT', `/api/loops/${launched.id}`, {
      ...editable(again),
      minResponses: 5,
    });
    expect(stricter.status).toBe(200);
    const lower = await ctx.call(admin.jar, 'PUT', `/api/loops/${launched.id}`, {
      ...editable(again),
      minResponses: 4,
    });
    expect((await json(lower)).error.fields).toEqual({
      minResponses: english(LOOP_MESSAGES.minResponsesOnlyRises, { count: 5 }),
    });
    // The open round keeps the settings it opened with.
    expect((await detail(launched.id)).currentRound?.minResponses).toBe(4);
  });
});

describe('the bell', () => {
  /** Survey Reminders in-app on or off (the spec's default is off). */
  const surveyRemindersInApp = (userIds: string[], on: boolean) =>
    ctx.deps.db
      .update(user)
      .set({
        notificationPreferences: {
          ...DEFAULT_NOTIFICATION_PREFERENCES,
          pushNotifications: { ...DEFAULT_NOTIFICATION_PREFERENCES.pushNotifications, surveyReminders: on },
        },
      })
      .where(inArray(user.id, userIds));

  it('tells every member of the audience who wants it that a round opened, in one notice each', async () => {
    const people = await addPeople(ctx, admin.workspaceId, 5);
    await surveyRemindersInApp(
      people.map((p) => p.userId),
      true,
    );
    const launched = await launchLoop(ctx, admin.jar, admin.workspaceId, { title: 'Bell pulse' });
    const rows = await ctx.deps.db
      .select()
      .from(notifications)
      .where(like(notifications.message, '"Bell pulse"%'));
    expect(rows.map((r) => r.userId).sort()).toEqual(
      expect.arrayContaining(people.map((p) => p.userId).sort()),
    );
    expect(new Set(rows.map((r) => r.userId)).size).toBe(rows.length);
    void launched;
  });

  it("tells everyone of a new round in the bell (it is the invitation), and honours each person's Survey Reminders in-app setting for the reminder; the e-mails still go", async () => {
    const [wants, quiet, byDefault] = await addPeople(ctx, admin.workspaceId, 3);
    await surveyRemindersInApp([wants!.userId], true);
    await surveyRemindersInApp([quiet!.userId], false);
    await launchLoop(ctx, admin.jar, admin.workspaceId, { title: 'Quiet pulse' });
    const notices = async (type: string) =>
      (
        await ctx.deps.db
          .select()
          .from(notifications)
          .where(and(like(notifications.message, '%"Quiet pulse"%'), eq(notifications.type, type)))
      ).map((row) => row.userId);
    const opened = await notices('loop-round');
    expect(opened).toEqual(expect.arrayContaining([wants!.userId, quiet!.userId, byDefault!.userId]));
    // The round's e-mail is the invitation with the personal link: it reaches both.
    expect((await roundMail(ctx, quiet!.email)).subject).toBe('Quiet pulse: round 1 is open');
    expect((await roundMail(ctx, wants!.email)).subject).toBe('Quiet pulse: round 1 is open');

    await makeDue(ctx, LOOP_JOBS.remind);
    await runLoopJobs(ctx);
    const reminded = await notices('survey-reminder');
    expect(reminded).toContain(wants!.userId);
    expect(reminded).not.toContain(quiet!.userId);
    // In-app Survey Reminders are off by default (spec): no reminder in the bell.
    expect(reminded).not.toContain(byDefault!.userId);
    // Their e-mail setting is still on: the reminder e-mail goes.
    expect((await roundMail(ctx, quiet!.email, 'Reminder')).subject).toBe(
      'Reminder: Quiet pulse closes soon',
    );
  });
});
