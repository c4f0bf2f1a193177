import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { GLOBAL_TEMPLATE_ID } from '../db/catalogue';
import { user } from '../db/schema/auth';
import {
  comments,
  healthCheckComponents,
  healthCheckRatings,
  healthChecks,
  participants,
  templates,
  type HealthCheckSettings,
} from '../db/schema/health-checks';
import { workspaceMembers } from '../db/schema/organizations';
import { CookieJar, unique, uniqueEmail } from './factories';
import type { TestContext } from './harness';

/**
 * Database-level set-up for the results, voting and action-item tests, independent of the launch and
 * participation screens: a copy of the catalogue, a check in any phase, participants, ratings and comments.
 */

export type Phase = 'collect' | 'vote' | 'summarize' | 'plan';
export type RatingValue = 'healthy' | 'needs-improvement' | 'fire-warning' | 'dont-know';

export const DEFAULT_TEST_SETTINGS: HealthCheckSettings = {
  minResponses: 3,
  allowAnonymous: true,
  enableComments: true,
  votesPerPerson: 5,
  showResultsAfterVoting: true,
};

const STATUS_OF: Record<Phase, string> = {
  collect: 'phase_1',
  vote: 'phase_2',
  summarize: 'completed',
  plan: 'completed',
};

export type CheckFixture = {
  healthCheckId: string;
  templateId: string;
  workspaceId: string;
  components: { id: string; key: string; title: string; orderIndex: number }[];
};

/** A workspace template copied from the global catalogue (first `componentCount`, or the given keys) and a check. */
export async function createCheck(
  ctx: TestContext,
  options: {
    workspaceId: string;
    createdBy: string;
    phase?: Phase;
    settings?: Partial<HealthCheckSettings>;
    componentCount?: number;
    keys?: string[];
    title?: string;
    completedAt?: Date;
    createdAt?: Date;
  },
): Promise<CheckFixture> {
  const { db } = ctx.deps;
  const phase = options.phase ?? 'collect';
  return db.transaction(async (tx) => {
    const catalogue = await tx
      .select()
      .from(healthCheckComponents)
      .where(eq(healthCheckComponents.templateId, GLOBAL_TEMPLATE_ID))
      .orderBy(asc(healthCheckComponents.orderIndex));
    const chosen = options.keys
      ? catalogue.filter((c) => options.keys!.includes(c.key))
      : catalogue.slice(0, options.componentCount ?? 5);
    const [template] = await tx
      .insert(templates)
      .values({
        title: options.title ?? 'Team Health Check',
        type: 'health-check',
        workspaceId: options.workspaceId,
        isGlobal: false,
        createdBy: options.createdBy,
      })
      .returning({ id: templates.id });
    const components = await tx
      .insert(healthCheckComponents)
      .values(
        chosen.map((c, index) => ({
          templateId: template!.id,
          key: c.key,
          title: c.title,
          description: c.description,
          category: c.category,
          orderIndex: index,
          examples: c.examples,
        })),
      )
      .returning({
        id: healthCheckComponents.id,
        key: healthCheckComponents.key,
        title: healthCheckComponents.title,
        orderIndex: healthCheckComponents.orderIndex,
      });
    const done = phase === 'summarize' || phase === 'plan';
    const [check] = await tx
      .insert(healthChecks)
      .values({
        title: options.title ?? `Check ${unique('hc')}`,
        description: 'A collaborative assessment',
        settings: { ...DEFAULT_TEST_SETTINGS, ...options.settings },
        phase,
        status: STATUS_OF[phase],
        workspaceId: options.workspaceId,
        templateId: template!.id,
        createdBy: options.createdBy,
        createdAt: options.createdAt ?? new Date(),
        completedAt: done ? (options.completedAt ?? new Date()) : null,
      })
      .returning({ id: healthChecks.id });
    return {
      healthCheckId: check!.id,
      templateId: template!.id,
      workspaceId: options.workspaceId,
      components: components.sort((a, b) => a.orderIndex - b.orderIndex),
    };
  });
}

export type ParticipantFixture = { userId: string; participantId: string; name: string; email: string };

/** `count` users who joined the check by link: a `participant` membership and a participant row. */
export async function addParticipants(
  ctx: TestContext,
  check: Pick<CheckFixture, 'healthCheckId' | 'workspaceId'>,
  count: number,
  options: { status?: 'pending' | 'in_progress' | 'completed'; names?: string[] } = {},
): Promise<ParticipantFixture[]> {
  if (count === 0) return [];
  const status = options.status ?? 'completed';
  const people = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    name: options.names?.[i] ?? `Person ${unique('p')}`,
    email: uniqueEmail('participant'),
  }));
  const { db } = ctx.deps;
  return db.transaction(async (tx) => {
    await tx.insert(user).values(people.map((p) => ({ ...p, emailVerified: true })));
    await tx
      .insert(workspaceMembers)
      .values(
        people.map((p) => ({
          workspaceId: check.workspaceId,
          userId: p.id,
          access: 'participant',
          status: 'active',
        })),
      )
      .onConflictDoNothing();
    const rows = await tx
      .insert(participants)
      .values(
        people.map((p) => ({
          healthCheckId: check.healthCheckId,
          userId: p.id,
          status,
          completedAt: status === 'completed' ? new Date() : null,
        })),
      )
      .returning({ id: participants.id, userId: participants.userId });
    return people.map((p) => ({
      userId: p.id,
      name: p.name,
      email: p.email,
      participantId: rows.find((r) => r.userId === p.id)!.id,
    }));
  });
}

/** Stores ratings in one insert; returns the rating ids by `participantId:componentId`. */
export async function addRatings(
  ctx: TestContext,
  healthCheckId: string,
  ratings: { participantId: string; componentId: string; rating: RatingValue }[],
): Promise<Map<string, string>> {
  if (ratings.length === 0) return new Map();
  const rows = await ctx.deps.db
    .insert(healthCheckRatings)
    .values(ratings.map((r) => ({ ...r, healthCheckId })))
    .returning({
      id: healthCheckRatings.id,
      participantId: healthCheckRatings.participantId,
      componentId: healthCheckRatings.componentId,
    });
  return new Map(rows.map((r) => [`${r.participantId}:${r.componentId}`, r.id]));
}

/** Every participant rates every component with `pick(participantIndex, componentIndex)`. */
export async function rateAll(
  ctx: TestContext,
  check: CheckFixture,
  people: ParticipantFixture[],
  pick: (personIndex: number, componentIndex: number) => RatingValue,
) {
  return addRatings(
    ctx,
    check.healthCheckId,
    people.flatMap((p, i) =>
      check.components.map((c, j) => ({
        participantId: p.participantId,
        componentId: c.id,
        rating: pick(i, j),
      })),
    ),
  );
}

export async function addComment(
  ctx: TestContext,
  options: { participantId: string; ratingId: string; content: string; anonymous?: boolean },
) {
  const [rating] = await ctx.deps.db
    .select({ healthCheckId: healthCheckRatings.healthCheckId, componentId: healthCheckRatings.componentId })
    .from(healthCheckRatings)
    .where(eq(healthCheckRatings.id, options.ratingId));
  if (!rating) throw new Error(`no rating ${options.ratingId}`);
  await ctx.deps.db.insert(comments).values({
    participantId: options.participantId,
    targetId: options.ratingId,
    content: options.content,
    anonymous: options.anonymous ?? true,
    ...rating,
  });
}

/** A user with a password who can sign in, optionally a member of a workspace; returns a signed-in cookie jar. */
export async function signedInUser(
  ctx: TestContext,
  options: { workspaceId?: string; access?: 'admin' | 'member' | 'participant'; name?: string } = {},
) {
  const email = uniqueEmail('member');
  const password = 'correct-horse-battery';
  const name = options.name ?? `Member ${unique('m')}`;
  await ctx.deps.auth.api.signUpEmail({ body: { name, email, password } });
  const [row] = await ctx.deps.db
    .update(user)
    .set({ emailVerified: true })
    .where(eq(user.email, email))
    .returning({ id: user.id });
  const userId = row!.id;
  if (options.workspaceId) {
    await ctx.deps.db.insert(workspaceMembers).values({
      workspaceId: options.workspaceId,
      userId,
      access: options.access ?? 'member',
      status: 'active',
    });
  }
  const jar = new CookieJar();
  const login = jar.store(await ctx.request('POST', '/api/login', { body: { email, password } }));
  if (login.status !== 200) throw new Error(`login failed: ${login.status} ${await login.text()}`);
  return { userId, email, name, jar };
}

/** A signed-in participant of the check (membership with access 'participant' and a participant row). */
export async function signedInParticipant(
  ctx: TestContext,
  check: Pick<CheckFixture, 'healthCheckId' | 'workspaceId'>,
  status: 'pending' | 'in_progress' | 'completed' = 'completed',
) {
  const person = await signedInUser(ctx, { workspaceId: check.workspaceId, access: 'participant' });
  const [row] = await ctx.deps.db
    .insert(participants)
    .values({
      healthCheckId: check.healthCheckId,
      userId: person.userId,
      status,
      completedAt: status === 'completed' ? new Date() : null,
    })
    .returning({ id: participants.id });
  return { ...person, participantId: row!.id };
}

export async function setParticipantStatus(
  ctx: TestContext,
  participantId: string,
  status: 'pending' | 'in_progress' | 'completed',
) {
  await ctx.deps.db
    .update(participants)
    .set({ status, completedAt: status === 'completed' ? new Date() : null })
    .where(and(eq(participants.id, participantId)));
}

export async function setPhase(ctx: TestContext, healthCheckId: string, phase: Phase) {
  const done = phase === 'summarize' || phase === 'plan';
  await ctx.deps.db
    .update(healthChecks)
    .set({
      phase,
      status: STATUS_OF[phase],
      phaseStartedAt: new Date(),
      ...(done ? { completedAt: new Date() } : {}),
    })
    .where(eq(healthChecks.id, healthCheckId));
}
