import { DEFAULT_NOTIFICATION_PREFERENCES } from '@pulsecheck/shared/account/schemas';
import type { LoopDetail } from '@pulsecheck/shared/loops/contract';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  actionItemMentions,
  actionItems,
  healthCheckVotes,
  participants,
} from '../../db/schema/health-checks';
import { notifications } from '../../db/schema/messaging';
import { createAdmin, invite, signedInUser } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import {
  addComment,
  addParticipant,
  addRatings,
  createCheck,
  participantRows,
  type CheckFixture,
} from '../../test/health-checks';
import { json } from '../../test/requests';
import { addPeople, answerByLink, answerToken, launchLoop } from '../../test/loops';
import type { PersonalData } from './export-queries';

const ctx = useTestContext();

type Export = Omit<PersonalData, 'storedNotificationPreferences' | 'activeWorkspace'> & {
  format: string;
  note: string;
  preferences: { activeWorkspace: string | null; notifications: Record<string, Record<string, unknown>> };
};

/** `userId` joins `check` with `status`, leaving a draft that rates and comments on component `index`. */
async function joinWithDraft(
  check: CheckFixture,
  userId: string,
  draft: { status: 'in_progress' | 'completed'; index: number; rating: string; comment: string },
) {
  const componentId = check.componentIds[draft.index]!;
  const responses = {
    votes: { [componentId]: draft.rating },
    comments: { [componentId]: draft.comment },
    last_component_index: draft.index,
  };
  const [row] = await ctx.deps.db
    .insert(participants)
    .values(
      participantRows(check.healthCheckId, [userId], draft.status).map((values) => ({
        ...values,
        responses,
      })),
    )
    .returning({ id: participants.id });
  return row;
}

describe('Download my data', () => {
  it("exports the person's own data, attributed answers only, and nothing of anyone else", async () => {
    const admin = await createAdmin(ctx, { fullName: 'Harriet Handover' });
    const otherAdmin = await createAdmin(ctx);
    // The person: a member of the first admin's workspace, then invited to and joining the second one.
    const person = await signedInUser(ctx, {
      workspaceId: admin.workspaceId,
      access: 'member',
      name: 'Eve Exporter',
    });
    const invited = await invite(
      ctx,
      { jar: otherAdmin.jar, workspaceId: otherAdmin.workspaceId },
      { email: person.email, role: 'Designer', department: 'Platform' },
    );
    const accepted = await ctx.call(person.jar, 'POST', `/api/invitations/${invited.token}/accept`);
    expect(accepted.status).toBe(200);

    // An attributed check (allowAnonymous off) where the person and someone else rated and commented.
    const open = await createCheck(ctx, admin, {
      title: 'Attributed retro',
      phase: 'plan',
      settings: { allowAnonymous: false },
      componentCount: 3,
    });
    const mine = await joinWithDraft(open, person.userId, {
      status: 'in_progress',
      index: 2,
      rating: 'needs-improvement',
      comment: 'My draft on an attributed check',
    });
    const other = await addParticipant(ctx, open, { name: 'Olive Otherperson' });
    const [first, second] = open.components;
    const ratings = await addRatings(ctx, open.healthCheckId, [
      { participantId: mine!.id, componentId: first!.id, rating: 'healthy' },
      { participantId: mine!.id, componentId: second!.id, rating: 'fire-warning' },
      { participantId: other.participantId, componentId: first!.id, rating: 'dont-know' },
    ]);
    await addComment(ctx, {
      participantId: mine!.id,
      ratingId: ratings.get(`${mine!.id}:${first!.id}`)!,
      content: 'My attributed comment about delivery',
      anonymous: false,
    });
    await addComment(ctx, {
      participantId: mine!.id,
      ratingId: ratings.get(`${mine!.id}:${second!.id}`)!,
      content: 'A comment I wrote anonymously',
      anonymous: true,
    });
    await addComment(ctx, {
      participantId: other.participantId,
      ratingId: ratings.get(`${other.participantId}:${first!.id}`)!,
      content: 'Olive says something private',
      anonymous: false,
    });

    // An anonymous check of the second workspace: answered, commented, and a draft left behind.
    const secret = await createCheck(ctx, otherAdmin, {
      title: 'Anonymous pulse',
      phase: 'plan',
      settings: { allowAnonymous: true },
      componentCount: 2,
    });
    const hidden = await joinWithDraft(secret, person.userId, {
      status: 'completed',
      index: 0,
      rating: 'fire-warning',
      comment: 'Draft of my anonymous answer',
    });
    const hiddenRatings = await addRatings(ctx, secret.healthCheckId, [
      { participantId: hidden!.id, componentId: secret.componentIds[0]!, rating: 'fire-warning' },
    ]);
    await addComment(ctx, {
      participantId: hidden!.id,
      ratingId: [...hiddenRatings.values()][0]!,
      content: 'My anonymous complaint about the manager',
    });

    await ctx.deps.db.insert(healthCheckVotes).values([
      { healthCheckId: open.healthCheckId, participantId: mine!.id, componentId: first!.id, count: 3 },
      {
        healthCheckId: secret.healthCheckId,
        participantId: hidden!.id,
        componentId: secret.componentIds[1]!,
        count: 2,
      },
    ]);

    // Action items: one the person owns, one they are mentioned in, one that is none of theirs.
    const [, mentioned] = await ctx.deps.db
      .insert(actionItems)
      .values([
        {
          healthCheckId: open.healthCheckId,
          componentId: first!.id,
          description: 'Fix the flaky build',
          ownerId: person.userId,
          createdBy: admin.userId,
          dueDate: '2026-12-24',
        },
        { healthCheckId: open.healthCheckId, description: 'Review onboarding', ownerId: other.userId },
        { healthCheckId: open.healthCheckId, description: 'Not yours at all', ownerId: other.userId },
      ])
      .returning({ id: actionItems.id });
    await ctx.deps.db
      .insert(actionItemMentions)
      .values({ actionItemId: mentioned!.id, userId: person.userId });
    await ctx.deps.db.insert(notifications).values([
      { userId: person.userId, type: 'phase-change', message: 'Attributed retro moved to voting' },
      { userId: other.userId, type: 'phase-change', message: 'A notification for Olive only' },
    ]);

    // Loops of the first workspace, sent to the person and one other: a named one and an anonymous one. The
    // person has the new-round bell notice on (Survey Reminders in-app).
    const preferences = {
      ...DEFAULT_NOTIFICATION_PREFERENCES,
      emailNotifications: { ...DEFAULT_NOTIFICATION_PREFERENCES.emailNotifications, weeklyDigest: false },
      pushNotifications: { ...DEFAULT_NOTIFICATION_PREFERENCES.pushNotifications, surveyReminders: true },
    };
    expect(
      (await ctx.call(person.jar, 'PUT', '/api/account/notification-preferences', preferences)).status,
    ).toBe(200);
    // The admin assigns the person an action item: the bell's text names the admin (issue 30, item 9).
    const assigned = await ctx.call(
      admin.jar,
      'POST',
      `/api/health-checks/${open.healthCheckId}/action-items`,
      {
        description: 'Book the retro room',
        ownerId: person.userId,
      },
    );
    expect(assigned.status).toBe(201);
    const bell = await ctx.deps.db
      .select({ type: notifications.type, message: notifications.message })
      .from(notifications)
      .where(eq(notifications.userId, person.userId));
    expect(bell).toContainEqual({
      type: 'assignment',
      message: expect.stringContaining('Harriet Handover assigned you an action item') as string,
    });
    const [colleague] = await addPeople(ctx, admin.workspaceId, 1);
    const loopRound = async (title: string, anonymous: boolean, mine: string, theirs: string) => {
      const loop = await launchLoop(ctx, admin.jar, admin.workspaceId, { title, anonymous, minResponses: 3 });
      for (const [email, text, enps] of [
        [person.email, mine, 10],
        [colleague!.email, theirs, 2],
      ] as const)
        expect(
          (await answerByLink(ctx, await answerToken(ctx, email), { scale: 5, enps, text })).status,
        ).toBe(201);
      const { loop: detail } = await json<{ loop: LoopDetail }>(
        await ctx.call(admin.jar, 'GET', `/api/loops/${loop.id}`),
      );
      const closed = await ctx.call(
        admin.jar,
        'POST',
        `/api/loops/${loop.id}/rounds/${detail.currentRound!.id}/close`,
      );
      expect(closed.status).toBe(200);
    };
    await loopRound('Named pulse', false, 'My named loop answer', 'The colleague named loop answer');
    await loopRound('Secret pulse', true, 'My anonymous loop answer', 'The colleague secret loop answer');

    const response = await ctx.call(person.jar, 'GET', '/api/account/export');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const today = new Date().toISOString().slice(0, 10);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="pulsecheck-data-${today}.json"`,
    );
    const text = await response.text();
    const data = JSON.parse(text) as Export;

    expect(data.format).toBe('pulsecheck-personal-data/1');
    expect(data.profile).toMatchObject({
      fullName: 'Eve Exporter',
      email: person.email,
      emailVerified: true,
    });
    expect(data.signInMethods.map((m) => m.provider)).toEqual(['credential']);
    expect(data.sessions.length).toBeGreaterThan(0);
    expect(data.memberships).toHaveLength(2);
    expect(data.memberships).toContainEqual(
      expect.objectContaining({
        access: 'member',
        role: 'Designer',
        department: 'Platform',
        status: 'active',
      }),
    );
    expect(data.invitations).toHaveLength(1);
    expect(data.invitations[0]!.acceptedAt).not.toBeNull();

    const attributedCheck = data.healthChecks.find((h) => h.title === 'Attributed retro')!;
    expect(attributedCheck).toMatchObject({
      anonymous: false,
      participantStatus: 'in_progress',
      dots: [{ component: first!.title, dots: 3 }],
      unsubmittedAnswers: [
        {
          component: open.components[2]!.title,
          rating: 'needs-improvement',
          comment: 'My draft on an attributed check',
        },
      ],
    });
    expect(attributedCheck.ratings!.map((r) => [r.component, r.rating])).toEqual(
      expect.arrayContaining([
        [first!.title, 'healthy'],
        [second!.title, 'fire-warning'],
      ]),
    );
    expect(attributedCheck.ratings).toHaveLength(2);
    expect(attributedCheck.comments).toEqual([
      expect.objectContaining({ component: first!.title, comment: 'My attributed comment about delivery' }),
    ]);
    const anonymousCheck = data.healthChecks.find((h) => h.title === 'Anonymous pulse')!;
    expect(anonymousCheck).toMatchObject({
      anonymous: true,
      participantStatus: 'completed',
      ratings: null,
      comments: null,
      dots: null,
      unsubmittedAnswers: null,
    });

    expect(data.actionItems.map((a) => [a.description, a.youOwnIt, a.youAreMentioned])).toEqual(
      expect.arrayContaining([
        ['Fix the flaky build', true, false],
        ['Review onboarding', false, true],
        ['Book the retro room', true, false],
      ]),
    );
    expect(data.actionItems).toHaveLength(3);
    expect(data.actionItems.find((a) => a.description === 'Fix the flaky build')).toMatchObject({
      dueDate: '2026-12-24',
      healthCheck: 'Attributed retro',
      component: first!.title,
      youCreatedIt: false,
    });
    // Notifications by type and date only: their texts name other people.
    expect(data.notifications.map((n) => n.type)).toEqual([
      'phase-change',
      'assignment',
      'loop-round',
      'loop-round',
    ]);
    for (const notification of data.notifications) {
      expect(Object.keys(notification).sort()).toEqual(['createdAt', 'readAt', 'type']);
      expect(notification.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    }

    // Loop rounds sent to them: their own named answers; of the anonymous round only that they answered.
    expect(data.loopRounds).toHaveLength(2);
    const named = data.loopRounds.find((r) => r.loop === 'Named pulse')!;
    expect(named).toMatchObject({ anonymous: false, round: 1, roundStatus: 'closed', youAnswered: true });
    expect(named.answers!.map((a) => [a.kind, a.score, a.text])).toEqual([
      ['scale', 5, null],
      ['enps', 10, null],
      ['text', null, 'My named loop answer'],
    ]);
    const secretRound = data.loopRounds.find((r) => r.loop === 'Secret pulse')!;
    expect(secretRound).toMatchObject({ anonymous: true, youAnswered: true, answers: null });
    expect(data.preferences.notifications).toEqual(preferences);
    expect(data.memberships.map((m) => m.workspace)).toContain(data.preferences.activeWorkspace);

    // Nothing anonymous and nothing of anyone else, anywhere in the file.
    for (const absent of [
      'A comment I wrote anonymously',
      'My anonymous complaint about the manager',
      'Draft of my anonymous answer',
      'Olive',
      'Harriet',
      'Handover',
      other.email,
      other.userId,
      admin.email,
      admin.userId,
      otherAdmin.email,
      'Not yours at all',
      'password',
      'My anonymous loop answer',
      'The colleague named loop answer',
      'The colleague secret loop answer',
      colleague!.email,
      colleague!.userId,
    ])
      expect(text).not.toContain(absent);
  });

  it('needs a session', async () => {
    const response = await ctx.request('GET', '/api/account/export');
    expect(response.status).toBe(401);
    expect((await json(response)).error.code).toBe('unauthenticated');
  });
});
