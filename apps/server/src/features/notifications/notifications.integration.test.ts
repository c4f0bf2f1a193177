import type { NotificationPreferences } from '@pulsecheck/shared/account/schemas';
import type { Phase } from '@pulsecheck/shared/health-checks/rules';
import type { NotificationsResponse } from '@pulsecheck/shared/notifications/schemas';
import type { ResultsResponse } from '@pulsecheck/shared/results/schemas';
import { and, asc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadTestSettings } from '../../config';
import { openPostgres, queryRows } from '../../db/client';
import { jobs, mailOutbox, notifications } from '../../db/schema/messaging';
import { addMember, createAdmin, joinedParticipant } from '../../test/accounts';
import {
  contextOn,
  copyPostgresTemplate,
  openTestDatabase,
  useTestContext,
  type TestContext,
} from '../../test/harness';
import { addParticipants, allRated, createCheck, type CheckOwner } from '../../test/health-checks';
import { mailsTo, runNotificationJobs } from '../../test/mail';
import { json, type Jar } from '../../test/requests';
import { MILESTONE_RECORD } from './service';

const ctx = useTestContext();

type Person = { jar: Jar; userId: string; email: string };

const bell = (c: TestContext, userId: string, healthCheckId: string) =>
  c.deps.db
    .select({ type: notifications.type, message: notifications.message, link: notifications.link })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.healthCheckId, healthCheckId)))
    .orderBy(asc(notifications.createdAt));

async function moveTo(c: TestContext, admin: Person, healthCheckId: string, to: Phase) {
  const response = await c.call(admin.jar, 'POST', `/api/health-checks/${healthCheckId}/phase`, { to });
  expect(response.status, await response.clone().text()).toBe(200);
}

async function submit(
  c: TestContext,
  person: Person,
  check: { healthCheckId: string; componentIds: string[] },
) {
  const response = await c.call(
    person.jar,
    'POST',
    `/api/health-checks/${check.healthCheckId}/submit`,
    allRated(check.componentIds),
  );
  expect(response.status, await response.clone().text()).toBe(200);
}

/** Changes the person's e-mail settings through the settings API, as the settings screen does. */
async function setEmail(person: Person, change: Partial<NotificationPreferences['emailNotifications']>) {
  const { preferences } = await json<{ preferences: NotificationPreferences }>(
    await ctx.call(person.jar, 'GET', '/api/account/notification-preferences'),
  );
  const saved = await ctx.call(person.jar, 'PUT', '/api/account/notification-preferences', {
    ...preferences,
    emailNotifications: { ...preferences.emailNotifications, ...change },
  });
  expect(saved.status).toBe(200);
}

/** The e-mails of `person` about the check's title, subjects only, after every delivery job has run. */
async function mailSubjects(person: Person, title: string) {
  await runNotificationJobs(ctx);
  return (await mailsTo(ctx, person.email)).map((m) => m.subject).filter((s) => s.includes(title));
}

/** A check with `minResponses` and three people who joined through the link: two complete, one does not. */
async function checkWithTeam(
  admin: Person & CheckOwner,
  title: string,
  settings: { minResponses?: number; showResultsAfterVoting?: boolean } = {},
) {
  const check = await createCheck(ctx, admin, {
    componentCount: 2,
    title,
    settings: { minResponses: 2, ...settings },
  });
  const [done1, done2, pending] = [
    await joinedParticipant(ctx, check.healthCheckId, 'Dana Done'),
    await joinedParticipant(ctx, check.healthCheckId, 'Dora Done'),
    await joinedParticipant(ctx, check.healthCheckId, 'Pia Pending'),
  ];
  await submit(ctx, done1, check);
  await submit(ctx, done2, check);
  return { check, done1, done2, pending };
}

describe('phase changes reach participants on the bell and by e-mail', () => {
  it('tells each participant in-app and by e-mail what the change means for them', async () => {
    const admin = await createAdmin(ctx);
    const title = 'Bell and mail check';
    const { check, done1, pending } = await checkWithTeam(admin, title);
    const id = check.healthCheckId;

    await moveTo(ctx, admin, id, 'vote');

    // In-app, read the way the bell reads it.
    const list = await json<NotificationsResponse>(await ctx.call(done1.jar, 'GET', '/api/notifications'));
    expect(list.unread).toBeGreaterThanOrEqual(1);
    expect(list.items.filter((n) => n.healthCheckId === id)).toMatchObject([
      {
        type: 'results-ready',
        message: `Voting has started for "${title}", and its results are ready`,
        link: `/health-check/${id}/vote`,
        read: false,
      },
    ]);
    expect(await bell(ctx, pending.userId, id)).toEqual([
      {
        type: 'phase-change',
        message: `Rating has closed for "${title}": the team is voting`,
        link: '/dashboard',
      },
    ]);

    // By e-mail, through the outbox, with a link to the screen and an unsubscribe link that works.
    expect(await mailSubjects(done1, title)).toEqual([
      `Voting has started for "${title}", and its results are ready`,
    ]);
    expect(await mailSubjects(pending, title)).toEqual([
      `Rating has closed for "${title}": the team is voting`,
    ]);
    const [mail] = await mailsTo(ctx, done1.email);
    expect(mail!.text).toContain(`http://localhost:3000/health-check/${id}/vote`);
    const token = /unsubscribe\?token=([A-Za-z0-9_.-]+)/.exec(mail!.text)?.[1];
    expect(token).toBeTruthy();
    expect(mail!.html).toContain(`<a href="http://localhost:3000/unsubscribe?token=${token}"`);
    const unsubscribed = await ctx.request('POST', '/api/account/unsubscribe', { body: { token } });
    expect(unsubscribed.status).toBe(200);
    expect(await json(unsubscribed)).toEqual({ ok: true, unsubscribed: ['phaseChanges', 'resultsReady'] });
    const { preferences } = await json<{ preferences: NotificationPreferences }>(
      await ctx.call(done1.jar, 'GET', '/api/account/notification-preferences'),
    );
    expect(preferences.emailNotifications).toMatchObject({
      phaseChanges: false,
      resultsReady: false,
      surveyReminders: true,
    });

    // Completing the check: done1 switched both e-mails off and still hears on the bell; the final results
    // are announced only to those the release rule shows them to.
    await moveTo(ctx, admin, id, 'summarize');
    expect((await bell(ctx, done1.userId, id)).map((n) => n.message)).toEqual([
      `Voting has started for "${title}", and its results are ready`,
      `"${title}" is complete: the final results are ready`,
    ]);
    expect(await mailSubjects(done1, title)).toHaveLength(1);
    expect(await mailSubjects(pending, title)).toEqual([
      `"${title}" is complete`,
      `Rating has closed for "${title}": the team is voting`,
    ]);
  });

  it('sends no e-mail for a setting that is off, and only the parts whose setting is on', async () => {
    const admin = await createAdmin(ctx);
    const title = 'Preference check';
    const { check, done1, done2, pending } = await checkWithTeam(admin, title);
    await setEmail(done1, { phaseChanges: false, resultsReady: false });
    await setEmail(done2, { phaseChanges: false });
    await setEmail(pending, { phaseChanges: false });

    await moveTo(ctx, admin, check.healthCheckId, 'vote');

    // Everyone still has the notice on the bell.
    for (const person of [done1, done2, pending]) {
      expect(await bell(ctx, person.userId, check.healthCheckId)).toHaveLength(1);
    }
    expect(await mailSubjects(done1, title)).toEqual([]);
    expect(await mailSubjects(pending, title)).toEqual([]);
    // Results-ready on, phase changes off: the e-mail tells the results only.
    expect(await mailSubjects(done2, title)).toEqual([`The results of "${title}" are ready`]);
    const [mail] = await mailsTo(ctx, done2.email);
    expect(mail!.text).not.toContain('Voting has started');
    expect(mail!.text).toContain('emails when results are ready for you');
  });

  it('announces results only to those the release rule shows them to', async () => {
    const admin = await createAdmin(ctx);
    const member = await addMember(ctx, admin);
    const title = 'Withheld results';
    const { check, done1, pending } = await checkWithTeam(admin, title, { showResultsAfterVoting: false });
    const id = check.healthCheckId;

    await moveTo(ctx, admin, id, 'vote');

    const stateOf = async (person: Person) => {
      const response = await ctx.call(person.jar, 'GET', `/api/health-checks/${id}/results`);
      return response.status === 200
        ? (await json<ResultsResponse>(response)).release.state
        : response.status;
    };
    // The member sees the figures (threshold met, collection ended): results are ready for them.
    expect(await stateOf(member)).toBe('released');
    expect((await bell(ctx, member.userId, id)).map((n) => n.type)).toEqual(['results-ready']);
    // The check does not show results to participants: no results-ready, and no word of results.
    expect(await stateOf(done1)).not.toBe('released');
    expect(await bell(ctx, done1.userId, id)).toEqual([
      {
        type: 'phase-change',
        message: `Voting has started for "${title}"`,
        link: `/health-check/${id}/vote`,
      },
    ]);
    expect(await stateOf(pending)).not.toBe('released');
    expect((await bell(ctx, pending.userId, id)).map((n) => n.type)).toEqual(['phase-change']);

    await moveTo(ctx, admin, id, 'summarize');
    expect((await bell(ctx, done1.userId, id)).map((n) => n.message)).toContain(
      `"${title}" is complete. Your facilitator will share the results`,
    );
    for (const person of [done1, pending]) {
      const subjects = await mailSubjects(person, title);
      expect(subjects.length).toBeGreaterThan(0);
      expect(subjects.join(' ')).not.toMatch(/results are ready/);
    }
    expect((await mailSubjects(member, title)).sort()).toEqual([
      `"${title}" is complete: the final results are ready`,
      `Voting has started for "${title}", and its results are ready`,
    ]);
  });
});

describe('phase-change e-mails and the daily e-mail budget', () => {
  it('reach everyone who wants them even when the budget is used up, and do not use it', async () => {
    const admin = await createAdmin(ctx);
    const check = await createCheck(ctx, admin, { componentCount: 1, settings: { minResponses: 1 } });
    const team = await addParticipants(ctx, check, 30);
    // The admin and the organisation have sent every invitation e-mail today's budgets allow.
    await ctx.deps.db.execute(sql`insert into mail_quota (scope, subject_id, day, sent)
      select 'user', ${admin.userId}::text, (now() at time zone 'utc')::date, 500
      union all
      select 'organization', organization_id::text, (now() at time zone 'utc')::date, 1000
        from workspaces where id = ${admin.workspaceId}`);

    await moveTo(ctx, admin, check.healthCheckId, 'vote');
    await runNotificationJobs(ctx);

    const sent = await queryRows<{ to: string }>(
      ctx.deps.db,
      sql`select "to" from mail_outbox where kind = 'results-ready'`,
    );
    const emails = new Set(team.map((p) => p.email.toLowerCase()));
    expect(sent.filter((m) => emails.has(m.to))).toHaveLength(30);
    const charged = await queryRows<{ scope: string; sent: number }>(
      ctx.deps.db,
      sql`select scope, sent from mail_quota
          where scope = 'user' and subject_id = ${admin.userId}
             or scope = 'organization'
                and subject_id = (select organization_id::text from workspaces where id = ${admin.workspaceId})
          order by scope`,
    );
    expect(charged).toEqual([
      { scope: 'organization', sent: 1000 },
      { scope: 'user', sent: 500 },
    ]);
  });
});

/** The milestone notices of the check, in the order they came. */
const milestoneNotices = async (c: TestContext, healthCheckId: string) =>
  (
    await queryRows<{ type: string; message: string }>(
      c.deps.db,
      sql`select type, message from notifications
          where health_check_id = ${healthCheckId} and type in ('completion-milestone', 'all-completed')
          order by created_at, id`,
    )
  ).map((n) => n.message);

describe('completion milestones fire once each, for every team size', () => {
  async function teamOf(size: number, minResponses: number) {
    const admin = await createAdmin(ctx);
    const title = `Team of ${size}`;
    const check = await createCheck(ctx, admin, { componentCount: 1, title, settings: { minResponses } });
    const people = [];
    for (let i = 0; i < size; i++) people.push(await joinedParticipant(ctx, check.healthCheckId));
    return { admin, title, check, people };
  }

  /** Submits one by one; after each, the milestone notices so far. */
  async function completeOneByOne(team: Awaited<ReturnType<typeof teamOf>>) {
    const after: number[] = [];
    for (const person of team.people) {
      await submit(ctx, person, team.check);
      after.push((await milestoneNotices(ctx, team.check.healthCheckId)).length);
    }
    return after;
  }

  it('one participant below the minimum responses: nothing says everyone has completed (PRODUCT-DECISIONS 1)', async () => {
    const team = await teamOf(1, 3);
    expect(await completeOneByOne(team)).toEqual([1]);
    expect(await milestoneNotices(ctx, team.check.healthCheckId)).toEqual([
      `At least half of the participants have completed "${team.title}" (1 of 1)`,
    ]);
    await runNotificationJobs(ctx);
    const subjects = (await mailsTo(ctx, team.admin.email)).map((m) => m.subject);
    expect(subjects.filter((subject) => subject.startsWith('All participants have completed'))).toEqual([]);
  });

  it('one participant at the minimum: everyone has completed, in the bell and by e-mail', async () => {
    const team = await teamOf(1, 1);
    expect(await completeOneByOne(team)).toEqual([1]);
    expect(await milestoneNotices(ctx, team.check.healthCheckId)).toEqual([
      `All participants have completed "${team.title}" (1 of 1)`,
    ]);
    // The creator is e-mailed (all-completed follows the new-responses e-mail setting).
    await runNotificationJobs(ctx);
    expect((await mailsTo(ctx, team.admin.email)).map((m) => m.subject)).toContain(
      `All participants have completed "${team.title}" (1 of 1)`,
    );
  });

  it('two participants: half at the first, everyone at the second', async () => {
    const team = await teamOf(2, 2);
    expect(await completeOneByOne(team)).toEqual([1, 2]);
    expect(await milestoneNotices(ctx, team.check.healthCheckId)).toEqual([
      `At least half of the participants have completed "${team.title}" (1 of 2)`,
      `All participants have completed "${team.title}" (2 of 2)`,
    ]);
  });

  it('three participants: nothing at one, half at two, everyone at three', async () => {
    const team = await teamOf(3, 3);
    expect(await completeOneByOne(team)).toEqual([0, 1, 2]);
  });

  it('a larger team: enough to vote, half and everyone, each once, and not again when more join', async () => {
    const team = await teamOf(6, 2);
    expect(await completeOneByOne(team)).toEqual([0, 1, 2, 2, 2, 3]);
    expect(await milestoneNotices(ctx, team.check.healthCheckId)).toEqual([
      `"${team.title}" has enough completed responses to start voting (2 of 6)`,
      `At least half of the participants have completed "${team.title}" (3 of 6)`,
      `All participants have completed "${team.title}" (6 of 6)`,
    ]);
    // One more joins and completes: every milestone was announced already.
    const late = await joinedParticipant(ctx, team.check.healthCheckId);
    await submit(ctx, late, team.check);
    expect(await milestoneNotices(ctx, team.check.healthCheckId)).toHaveLength(3);
  });
});

/**
 * Two app processes on one database: two pools on PostgreSQL (real concurrency between connections), two
 * apps on the one embedded database otherwise.
 */
async function twoProcesses() {
  if (loadTestSettings().kind === 'pglite') {
    const database = await openTestDatabase();
    const one = await contextOn(database, { close: async () => {} });
    const two = await contextOn(database, { close: () => database.drop() });
    return { one, two, close: async () => (await one.close(), await two.close()) };
  }
  const copy = await copyPostgresTemplate('two');
  const one = await contextOn(openPostgres(copy.url, { max: 5 }));
  const two = await contextOn(openPostgres(copy.url, { max: 5 }));
  return { one, two, close: async () => (await one.close(), await two.close(), await copy.drop()) };
}

describe('milestones under concurrent completions', () => {
  it('announces each milestone once when the whole team submits at once through two processes', async () => {
    const { one, two, close } = await twoProcesses();
    try {
      const admin = await createAdmin(one);
      const check = await createCheck(one, admin, {
        componentCount: 1,
        title: 'Everyone at once',
        settings: { minResponses: 3 },
      });
      const people = [];
      for (let i = 0; i < 8; i++) people.push(await joinedParticipant(one, check.healthCheckId));

      await Promise.all(people.map((person, i) => submit(i % 2 === 0 ? one : two, person, check)));

      // Concurrent transactions: each notice carries its own counts, their creation times do not order them.
      expect((await milestoneNotices(one, check.healthCheckId)).sort()).toEqual([
        '"Everyone at once" has enough completed responses to start voting (3 of 8)',
        'All participants have completed "Everyone at once" (8 of 8)',
        'At least half of the participants have completed "Everyone at once" (4 of 8)',
      ]);
      const records = await one.deps.db
        .select({ key: jobs.uniqueKey })
        .from(jobs)
        .where(eq(jobs.kind, MILESTONE_RECORD));
      expect(
        records
          .map((r) => r.key)
          .filter((k) => k?.includes(check.healthCheckId))
          .sort(),
      ).toEqual(['all', 'enough:3', 'half'].map((k) => `${MILESTONE_RECORD}:${check.healthCheckId}:${k}`));
      // Nothing was e-mailed twice either.
      await runNotificationJobs(one);
      const mails = await one.deps.db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.to, admin.email.toLowerCase()));
      expect(mails.filter((m) => m.subject.startsWith('All participants'))).toHaveLength(1);
    } finally {
      await close();
    }
  });
});
