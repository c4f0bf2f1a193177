import { randomBytes, randomUUID } from 'node:crypto';
import {
  DELETION_MESSAGES,
  FORMER_MEMBER,
  RECENT_SIGN_IN_MINUTES,
} from '@pulsecheck/shared/account/deletion';
import { LIVE_EVENT, topics } from '@pulsecheck/shared/realtime/topics';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../db/client';
import { session, user } from '../../db/schema/auth';
import {
  healthCheckVotes,
  participants,
  actionItems,
  actionItemMentions,
} from '../../db/schema/health-checks';
import { avatars, jobs, notifications } from '../../db/schema/messaging';
import { organizations, userPreferences, workspaceMembers } from '../../db/schema/organizations';
import { rowCounts } from '../../ops/tables';
import { launchLoop, loopWithClosedRound } from '../../test/loops';
import { addMember, createAdmin, invite, me, signIn, signedInUser, validSignup } from '../../test/accounts';
import { useTestContext } from '../../test/harness';
import { readEventStream } from '../../test/events';
import {
  addComment,
  addRatings,
  createCheck,
  participantRows,
  rateAll,
  addParticipants,
} from '../../test/health-checks';
import { followLink, latestMail, linkIn } from '../../test/mail';
import { json, type Jar, english } from '../../test/requests';
import { sessionCookie } from '../../test/server-process';
import { codeAt, enrolTwoFactor } from '../../test/security';

const ctx = useTestContext();

const PASSWORD = 'correct-horse-battery';
const byPassword = (password: string) => ({ confirm: { method: 'password', password } });
const deleteAccount = (jar: Jar, body: unknown = byPassword(PASSWORD)) =>
  ctx.call(jar, 'POST', '/api/account/delete', body);

/** `person` as a participant of the check (named or anonymous), with every component rated and a comment. */
async function answered(
  check: Awaited<ReturnType<typeof createCheck>>,
  person: { userId: string },
  comment: { content: string; anonymous: boolean },
) {
  const [row] = await ctx.deps.db
    .insert(participants)
    .values(participantRows(check.healthCheckId, [person.userId], 'completed'))
    .returning({ id: participants.id });
  const participantId = row!.id;
  const ratings = await addRatings(
    ctx,
    check.healthCheckId,
    check.componentIds.map((componentId) => ({
      participantId,
      componentId,
      rating: 'fire-warning' as const,
    })),
  );
  await addComment(ctx, {
    participantId,
    ratingId: ratings.get(`${participantId}:${check.componentIds[0]}`)!,
    ...comment,
  });
  return participantId;
}

type Results = {
  components: { id: string; fireWarning: number; comments?: { content: string; author?: string | null }[] }[];
};

describe('Delete my account', () => {
  it('needs the password; then the account is gone, its answers stay in the figures and its named comments say Former member', async () => {
    const admin = await createAdmin(ctx);
    const named = await createCheck(ctx, admin, {
      phase: 'summarize',
      settings: { allowAnonymous: false, minResponses: 1 },
    });
    const anonymous = await createCheck(ctx, admin, { phase: 'summarize', settings: { minResponses: 1 } });
    const person = await signedInUser(ctx, {
      workspaceId: admin.workspaceId,
      access: 'member',
      name: 'Leaving Lee',
    });
    const namedParticipant = await answered(named, person, { content: 'Named words', anonymous: false });
    await answered(anonymous, person, { content: 'Anonymous words', anonymous: true });
    await ctx.deps.db
      .update(participants)
      .set({ responses: { votes: {}, comments: { x: 'draft' }, last_component_index: 0 } })
      .where(eq(participants.id, namedParticipant));
    const before = await json<Results>(
      await ctx.call(admin.jar, 'GET', `/api/health-checks/${anonymous.healthCheckId}/results`),
    );

    const status = await json<{ confirmWith: string; ownedOrganizations: unknown[] }>(
      await ctx.call(person.jar, 'GET', '/api/account/deletion'),
    );
    expect(status).toEqual({ confirmWith: 'password', authenticatorCode: false, ownedOrganizations: [] });
    const missing = await deleteAccount(person.jar, byPassword(''));
    expect(missing.status).toBe(400);
    expect(await json(missing)).toMatchObject({
      error: { fields: { 'confirm.password': english(DELETION_MESSAGES.passwordRequired) } },
    });
    const wrong = await deleteAccount(person.jar, byPassword('not-my-password'));
    expect(wrong.status).toBe(400);
    expect(await json(wrong)).toMatchObject({
      error: { message: english(DELETION_MESSAGES.passwordIncorrect) },
    });
    expect((await ctx.call(person.jar, 'GET', '/api/me')).status).toBe(200);

    const deleted = await deleteAccount(person.jar);
    expect(deleted.status).toBe(200);
    expect((await ctx.call(person.jar, 'GET', '/api/me')).status).toBe(401);
    const login = await ctx.request('POST', '/api/login', {
      body: { email: person.email, password: PASSWORD },
    });
    expect(login.status).toBe(401);
    expect(await ctx.deps.db.select().from(user).where(eq(user.id, person.userId))).toEqual([]);
    expect(await ctx.deps.db.select().from(session).where(eq(session.userId, person.userId))).toEqual([]);
    expect(
      await ctx.deps.db.select().from(workspaceMembers).where(eq(workspaceMembers.userId, person.userId)),
    ).toEqual([]);
    // The participation stays, without the person and without the unsent draft.
    const [kept] = await ctx.deps.db.select().from(participants).where(eq(participants.id, namedParticipant));
    expect(kept).toMatchObject({ userId: null, responses: null, status: 'completed' });

    const after = await json<Results>(
      await ctx.call(admin.jar, 'GET', `/api/health-checks/${anonymous.healthCheckId}/results`),
    );
    expect(after.components.map((c) => c.fireWarning)).toEqual(before.components.map((c) => c.fireWarning));
    expect(after.components.map((c) => c.fireWarning).every((n) => n === 1)).toBe(true);
    const namedResults = await json<Results>(
      await ctx.call(admin.jar, 'GET', `/api/health-checks/${named.healthCheckId}/results`),
    );
    const comments = namedResults.components.flatMap((c) => c.comments ?? []);
    // The name in the request's language (English here), as results' 'Anonymous'.
    expect(comments).toContainEqual({ content: 'Named words', author: english(FORMER_MEMBER) });
    const list = await json<{ participants: { name: string }[] }>(
      await ctx.call(admin.jar, 'GET', `/api/health-checks/${named.healthCheckId}/participants`),
    );
    expect(list.participants.map((p) => p.name)).toContain(english(FORMER_MEMBER));
  });

  it('ends the live streams the person has open', async () => {
    const admin = await createAdmin(ctx);
    const person = await signedInUser(ctx, { workspaceId: admin.workspaceId, access: 'member' });
    const stream = readEventStream(
      await ctx.call(person.jar, 'GET', `/api/events?topic=${topics.workspace(admin.workspaceId)}`),
    );
    await stream.waitFor(LIVE_EVENT.ready);
    expect((await deleteAccount(person.jar)).status).toBe(200);
    await stream.waitFor(LIVE_EVENT.sessionEnded);
    expect((await stream.ended()).closedByServer).toBe(true);
  });

  it('asks an account without a password for a sign-in of the last minutes', async () => {
    const id = randomUUID();
    await ctx.deps.db
      .insert(user)
      .values({ id, name: 'Single Sign-On', email: `sso-${id}@example.com`, emailVerified: true });
    const jarWith = async (minutesAgo: number) => {
      const token = randomBytes(24).toString('base64url');
      await ctx.deps.db.insert(session).values({
        id: randomUUID(),
        token,
        userId: id,
        expiresAt: new Date(Date.now() + 3600_000),
        createdAt: new Date(Date.now() - minutesAgo * 60_000),
      });
      return { header: () => ({ cookie: sessionCookie(token, ctx.deps.config.authSecret) }) };
    };
    const old = await jarWith(10);
    expect(await json(await ctx.call(old, 'GET', '/api/account/deletion'))).toEqual({
      confirmWith: 'recent-sign-in',
      authenticatorCode: false,
      ownedOrganizations: [],
    });
    const noPassword = await deleteAccount(old, byPassword('anything'));
    expect(await json(noPassword)).toMatchObject({
      error: { message: english(DELETION_MESSAGES.noPassword) },
    });
    const stale = await deleteAccount(old, { confirm: { method: 'recent-sign-in' } });
    expect(stale.status).toBe(400);
    expect(await json(stale)).toMatchObject({
      error: { message: english(DELETION_MESSAGES.signInAgain, { minutes: RECENT_SIGN_IN_MINUTES }) },
    });
    const fresh = await jarWith(1);
    expect((await deleteAccount(fresh, { confirm: { method: 'recent-sign-in' } })).status).toBe(200);
    expect(await ctx.deps.db.select().from(user).where(eq(user.id, id))).toEqual([]);
    // With a password, a recent sign-in is not enough.
    const withPassword = await signedInUser(ctx);
    const refused = await deleteAccount(withPassword.jar, { confirm: { method: 'recent-sign-in' } });
    expect(refused.status).toBe(400);
  });

  it('accepts a fresh authenticator code instead of the password where two-factor sign-in is on', async () => {
    const person = await signedInUser(ctx);
    const byCode = (code: string) => ({ confirm: { method: 'authenticator', code } });
    const notOn = await deleteAccount(person.jar, byCode('123456'));
    expect(await json(notOn)).toMatchObject({
      error: { message: english(DELETION_MESSAGES.noAuthenticator) },
    });
    const { key } = await enrolTwoFactor(ctx, person.jar, PASSWORD);
    // The status tells the screen to offer the code.
    expect(await json(await ctx.call(person.jar, 'GET', '/api/account/deletion'))).toEqual({
      confirmWith: 'password',
      authenticatorCode: true,
      ownedOrganizations: [],
    });
    const wrong = await deleteAccount(person.jar, byCode(codeAt(key, 5)));
    expect(wrong.status).toBe(400);
    expect(await json(wrong)).toMatchObject({ error: { message: english(DELETION_MESSAGES.codeIncorrect) } });
    // The code that confirmed the enrolment is used up; the next one works.
    expect((await deleteAccount(person.jar, byCode(codeAt(key, 1)))).status).toBe(200);
    expect(await ctx.deps.db.select().from(user).where(eq(user.id, person.userId))).toEqual([]);
  });

  it('counts wrong passwords and codes against the account as failed sign-ins: the 10th pauses deleting, even with the right proof', async () => {
    const person = await signedInUser(ctx);
    const { key } = await enrolTwoFactor(ctx, person.jar, PASSWORD);
    const answers: number[] = [];
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const proof =
        attempt % 2
          ? byPassword(`wrong-${attempt}`)
          : { confirm: { method: 'authenticator', code: codeAt(key, 5) } };
      answers.push((await deleteAccount(person.jar, proof)).status);
    }
    expect(answers.slice(0, 9).every((status) => status === 400)).toBe(true);
    expect(answers[9]).toBe(429);
    const paused = await deleteAccount(person.jar);
    expect(paused.status).toBe(429);
    expect(await json(paused)).toMatchObject({
      error: { message: english(DELETION_MESSAGES.tooManyAttempts) },
    });
    expect(await ctx.deps.db.select().from(user).where(eq(user.id, person.userId))).toHaveLength(1);
    // A refusal that is not a guess (an organisation to hand over first) does not count.
    const owner = await createAdmin(ctx);
    for (let attempt = 1; attempt <= 10; attempt += 1)
      expect((await deleteAccount(owner.jar)).status).toBe(409);
    const [org] = await ctx.deps.db
      .select()
      .from(organizations)
      .where(eq(organizations.createdBy, owner.userId));
    const wrongName = await ctx.call(owner.jar, 'POST', `/api/organizations/${org!.id}/delete`, {
      name: 'not its name',
      ...byPassword(PASSWORD),
    });
    expect(wrongName.status).toBe(400);
    const deleted = await ctx.call(owner.jar, 'POST', `/api/organizations/${org!.id}/delete`, {
      name: org!.name,
      ...byPassword(PASSWORD),
    });
    expect(deleted.status).toBe(200);
  });

  it('refuses the owner of an organisation until it is handed to another of its admins', async () => {
    const owner = await createAdmin(ctx, { companyName: `Owned ${randomBytes(3).toString('hex')}` });
    const heir = await addMember(ctx, owner, { admin: true, fullName: 'Hana Heir' });
    const memberOnly = await addMember(ctx, owner, { fullName: 'Mo Member' });
    const otherOwner = await createAdmin(ctx);
    const refused = await deleteAccount(owner.jar);
    expect(refused.status).toBe(409);
    const [org] = await ctx.deps.db
      .select()
      .from(organizations)
      .where(eq(organizations.createdBy, owner.userId));
    expect(await json(refused)).toMatchObject({
      error: { message: english(DELETION_MESSAGES.ownsOrganizations, { organisations: org!.name }) },
    });
    const status = await json<{ ownedOrganizations: { id: string; admins: { userId: string }[] }[] }>(
      await ctx.call(owner.jar, 'GET', '/api/account/deletion'),
    );
    expect(status.ownedOrganizations).toEqual([
      {
        id: org!.id,
        name: org!.name,
        admins: [{ userId: heir.userId, name: 'Hana Heir', email: heir.email }],
      },
    ]);

    const transfer = (jar: Jar, newOwnerId: string, proof: object = byPassword(PASSWORD)) =>
      ctx.call(jar, 'POST', `/api/organizations/${org!.id}/transfer`, { newOwnerId, ...proof });
    expect((await transfer(memberOnly.jar, memberOnly.userId)).status).toBe(404);
    expect((await transfer(heir.jar, heir.userId)).status).toBe(404);
    // The proof deleting asks (issue 30, item 7): a stolen session hands nothing over.
    const noProof = await ctx.call(owner.jar, 'POST', `/api/organizations/${org!.id}/transfer`, {
      newOwnerId: heir.userId,
    });
    expect(noProof.status).toBe(400);
    const wrongPassword = await transfer(owner.jar, heir.userId, byPassword('not-the-password'));
    expect(wrongPassword.status).toBe(400);
    expect(await json(wrongPassword)).toMatchObject({
      error: { message: english(DELETION_MESSAGES.passwordIncorrect) },
    });
    const [unchanged] = await ctx.deps.db.select().from(organizations).where(eq(organizations.id, org!.id));
    expect(unchanged?.createdBy).toBe(owner.userId);
    const notAdmin = await transfer(owner.jar, memberOnly.userId);
    expect(notAdmin.status).toBe(400);
    expect(await json(notAdmin)).toMatchObject({ error: { message: english(DELETION_MESSAGES.notAnAdmin) } });
    // An admin who owns another organisation cannot take this one too.
    await ctx.deps.db.insert(workspaceMembers).values({
      workspaceId: owner.workspaceId,
      userId: otherOwner.userId,
      access: 'admin',
      status: 'active',
    });
    const ownsAnother = await transfer(owner.jar, otherOwner.userId);
    expect(ownsAnother.status).toBe(409);
    const handed = await transfer(owner.jar, heir.userId);
    expect(handed.status).toBe(200);
    expect(await json(handed)).toEqual({ name: 'Hana Heir' });

    expect((await deleteAccount(owner.jar)).status).toBe(200);
    const [still] = await ctx.deps.db.select().from(organizations).where(eq(organizations.id, org!.id));
    expect(still?.createdBy).toBe(heir.userId);
    expect((await ctx.call(heir.jar, 'GET', '/api/me')).status).toBe(200);
  });
});

describe('Delete organisation', () => {
  it('removes every row of it from every table, and only the accounts that belonged nowhere else', async () => {
    // Someone who belongs elsewhere too: an admin of another organisation.
    const elsewhere = await createAdmin(ctx);
    // The owner, signed up and verified but before the organisation exists: the state deletion returns them to.
    const signup = validSignup({ companyName: `Doomed ${randomBytes(3).toString('hex')}` });
    expect((await ctx.request('POST', '/api/signup', { body: signup })).status).toBe(201);
    const { jar: ownerJar } = await followLink(
      ctx,
      linkIn((await latestMail(ctx, signup.email, 'Verify')).text),
    );
    const baseline = await rowCounts(ctx.deps.db);

    expect((await ctx.call(ownerJar, 'POST', '/api/onboarding/setup')).status).toBe(200);
    const owner = { jar: ownerJar, ...(await me(ctx, ownerJar)).user };
    const workspace = { jar: ownerJar, workspaceId: owner.activeWorkspaceId };
    const onlyHere = await addMember(ctx, workspace, { fullName: 'Only Here' });
    await ctx.deps.db.insert(workspaceMembers).values({
      workspaceId: owner.activeWorkspaceId,
      userId: elsewhere.userId,
      access: 'member',
      status: 'active',
    });
    await invite(ctx, workspace);
    const photo = new FormData();
    photo.append(
      'photo',
      new File([Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')], 'p.gif', {
        type: 'image/gif',
      }),
    );
    expect(
      (
        await ctx.app.request('/api/account/avatar', {
          method: 'POST',
          body: photo,
          headers: onlyHere.jar.header(),
        })
      ).status,
    ).toBe(200);
    const check = await createCheck(
      ctx,
      { workspaceId: owner.activeWorkspaceId, userId: owner.id },
      { phase: 'vote' },
    );
    const people = await addParticipants(ctx, check, 2, { status: 'completed' });
    await rateAll(ctx, check, people, () => 'healthy');
    await answered(check, { userId: elsewhere.userId }, { content: 'From elsewhere', anonymous: true });
    await ctx.deps.db.insert(healthCheckVotes).values({
      healthCheckId: check.healthCheckId,
      participantId: people[0]!.participantId,
      componentId: check.componentIds[0]!,
      count: 2,
    });
    const [item] = await ctx.deps.db
      .insert(actionItems)
      .values({
        healthCheckId: check.healthCheckId,
        description: 'Fix it',
        ownerId: elsewhere.userId,
        createdBy: owner.id,
      })
      .returning({ id: actionItems.id });
    await ctx.deps.db.insert(actionItemMentions).values({ actionItemId: item!.id, userId: elsewhere.userId });
    await ctx.deps.db.insert(notifications).values({
      userId: elsewhere.userId,
      type: 'phase',
      message: 'Voting started',
      healthCheckId: check.healthCheckId,
    });
    await ctx.deps.db
      .insert(jobs)
      .values({ kind: 'follow-up', payload: { healthCheckId: check.healthCheckId } });
    await ctx.deps.db
      .insert(userPreferences)
      .values({ userId: elsewhere.userId, activeWorkspaceId: owner.activeWorkspaceId })
      .onConflictDoUpdate({
        target: userPreferences.userId,
        set: { activeWorkspaceId: owner.activeWorkspaceId },
      });
    // Loops: one with a closed round and its next opening planned; one open now for everyone, so the member who
    // belongs elsewhere has its bell notice and its reminder is planned.
    await loopWithClosedRound(ctx, workspace);
    await launchLoop(ctx, ownerJar, owner.activeWorkspaceId, { title: 'Doomed pulse' });
    expect(
      await queryRows(
        ctx.deps.db,
        sql`select 1 from notifications where user_id = ${elsewhere.userId} and type = 'loop-round'`,
      ),
    ).toHaveLength(1);
    const organizationId = (
      await queryRows<{ id: string }>(
        ctx.deps.db,
        sql`select id from organizations where created_by = ${owner.id}`,
      )
    )[0]!.id;

    const remove = (jar: Jar, name: string, password = signup.password) =>
      ctx.call(jar, 'POST', `/api/organizations/${organizationId}/delete`, { name, ...byPassword(password) });
    expect((await remove(elsewhere.jar, signup.companyName, elsewhere.password)).status).toBe(404);
    expect((await remove(onlyHere.jar, signup.companyName, onlyHere.password)).status).toBe(404);
    const wrongName = await remove(ownerJar, 'Something else');
    expect(wrongName.status).toBe(400);
    expect(await json(wrongName)).toMatchObject({
      error: { message: english(DELETION_MESSAGES.nameMismatch) },
    });
    expect((await remove(ownerJar, signup.companyName, 'wrong-password')).status).toBe(400);
    const removed = await remove(ownerJar, signup.companyName);
    expect(removed.status).toBe(200);

    // Every table, read from the catalogue, is back to its count before the organisation existed, except rows
    // that outlive it on purpose and name nothing of it.
    const after = await rowCounts(ctx.deps.db);
    const outliving: Record<string, string> = {
      'public.mail_outbox': 'the e-mails sent to people who keep their account (to the others: deleted)',
      'public.mail_quota': "the owner's own e-mail budget of the day (a counter, like rate limits)",
      'public.rate_limit': 'counters by client address',
      'public.session': 'sessions of the people who keep their account',
      'public.user_preferences': "people's own settings (the workspace they had chosen is forgotten)",
      'public.verification': 'pending e-mail links of people who keep their account',
    };
    const differences = Object.entries(after).filter(
      ([table, count]) => count !== baseline[table] && !(table in outliving),
    );
    expect(differences).toEqual([]);
    expect(Object.keys(after)).toEqual(expect.arrayContaining(Object.keys(baseline)));
    const [preference] = await queryRows<{ active: string | null }>(
      ctx.deps.db,
      sql`select active_workspace_id as active from user_preferences where user_id = ${elsewhere.userId}`,
    );
    expect(preference?.active ?? null).not.toBe(owner.activeWorkspaceId);

    // The owner and the member who belongs elsewhere keep their accounts; the one who belonged only here does not.
    expect((await ctx.call(elsewhere.jar, 'GET', '/api/me')).status).toBe(200);
    expect((await ctx.call(onlyHere.jar, 'GET', '/api/me')).status).toBe(401);
    expect(await ctx.deps.db.select().from(avatars).where(eq(avatars.userId, onlyHere.userId))).toEqual([]);
    const ownerNow = await ctx.call(ownerJar, 'GET', '/api/me');
    expect(ownerNow.status).toBe(200);
    expect((await signIn(ctx, signup.email, signup.password)).header().cookie).toBeTruthy();
  });
});
