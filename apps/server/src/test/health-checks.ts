import { randomUUID } from 'node:crypto';
import { STATUS_OF_PHASE, type Phase } from '@pulsecheck/shared/health-checks/rules';
import {
  DEFAULT_SETTINGS,
  type HealthCheckSettings,
  type LaunchInput,
} from '@pulsecheck/shared/health-checks/schemas';
import { PARTICIPATION_RATINGS, type ParticipationRating } from '@pulsecheck/shared/participation/rules';
import { asc, eq } from 'drizzle-orm';
import { GLOBAL_TEMPLATE_ID } from '../db/catalogue';
import { user } from '../db/schema/auth';
import {
  comments,
  healthCheckComponents,
  healthCheckRatings,
  healthChecks,
  participants,
  templates,
} from '../db/schema/health-checks';
import { workspaceMembers } from '../db/schema/organizations';
import type { TestContext } from './harness';
import type { Jar } from './requests';
import { unique, uniqueEmail } from './unique';

/**
 * Health checks for tests: launched through the API, or straight in the database in any phase, with
 * participants, ratings and comments.
 */

type ParticipantStatus = 'pending' | 'in_progress' | 'completed';

/** The ids of the global catalogue's components, in order. */
export async function catalogueComponentIds(ctx: TestContext) {
  const rows = await ctx.deps.db
    .select({ id: healthCheckComponents.id, orderIndex: healthCheckComponents.orderIndex })
    .from(healthCheckComponents)
    .where(eq(healthCheckComponents.templateId, GLOBAL_TEMPLATE_ID));
  return rows.sort((a, b) => a.orderIndex - b.orderIndex).map((r) => r.id);
}

/** A valid launch request: the catalogue's first five components, default settings, a new launch key. */
export async function launchBody(
  ctx: TestContext,
  workspaceId: string,
  overrides: Partial<LaunchInput> = {},
): Promise<LaunchInput> {
  return {
    workspaceId,
    templateId: GLOBAL_TEMPLATE_ID,
    title: 'Q3 Team Health Check',
    description: "A collaborative assessment of our organization's health",
    settings: { ...DEFAULT_SETTINGS },
    enabledComponentIds: (await catalogueComponentIds(ctx)).slice(0, 5),
    teamEmails: [],
    launchKey: randomUUID(),
    ...overrides,
  };
}

/** Launches a check through the API as the signed-in `jar`; returns its id and join URL. */
export async function launch(
  ctx: TestContext,
  jar: Jar,
  workspaceId: string,
  overrides: Partial<LaunchInput> = {},
) {
  const response = await ctx.call(
    jar,
    'POST',
    '/api/health-checks',
    await launchBody(ctx, workspaceId, overrides),
  );
  if (response.status !== 201) throw new Error(`launch failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string; joinUrl: string; failedEmails: string[] };
}

export type CheckFixture = {
  healthCheckId: string;
  templateId: string;
  workspaceId: string;
  components: { id: string; key: string; title: string; orderIndex: number }[];
  /** The components' ids, in order. */
  componentIds: string[];
};

/** Who creates a check, and in which workspace: an admin or member as the account factories return them. */
export type CheckOwner = { workspaceId: string; userId: string };

/**
 * A check of `owner` straight in the database, as launch leaves it but in any phase: a snapshot of the global
 * template with its first `componentCount` components (or those with the given keys; new ids, same keys).
 */
export async function createCheck(
  ctx: TestContext,
  owner: CheckOwner,
  options: {
    phase?: Phase;
    settings?: Partial<HealthCheckSettings>;
    componentCount?: number;
    keys?: string[];
    title?: string;
    completedAt?: Date;
    createdAt?: Date;
  } = {},
): Promise<CheckFixture> {
  const phase = options.phase ?? 'collect';
  const status = STATUS_OF_PHASE[phase];
  return ctx.deps.db.transaction(async (tx) => {
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
        workspaceId: owner.workspaceId,
        isGlobal: false,
        isSnapshot: true,
        createdBy: owner.userId,
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
    const [check] = await tx
      .insert(healthChecks)
      .values({
        title: options.title ?? `Check ${unique('hc')}`,
        description: 'A collaborative assessment',
        settings: { ...DEFAULT_SETTINGS, ...options.settings },
        phase,
        status,
        workspaceId: owner.workspaceId,
        templateId: template!.id,
        createdBy: owner.userId,
        createdAt: options.createdAt ?? new Date(),
        completedAt: status === 'completed' ? (options.completedAt ?? new Date()) : null,
      })
      .returning({ id: healthChecks.id });
    const ordered = components.sort((a, b) => a.orderIndex - b.orderIndex);
    return {
      healthCheckId: check!.id,
      templateId: template!.id,
      workspaceId: owner.workspaceId,
      components: ordered,
      componentIds: ordered.map((c) => c.id),
    };
  });
}

/** Moves a check to `phase` directly, with the status, phase start and completion the phase change sets. */
export async function setPhase(ctx: TestContext, healthCheckId: string, phase: Phase) {
  const status = STATUS_OF_PHASE[phase];
  await ctx.deps.db
    .update(healthChecks)
    .set({
      phase,
      status,
      phaseStartedAt: new Date(),
      ...(status === 'completed' ? { completedAt: new Date() } : {}),
    })
    .where(eq(healthChecks.id, healthCheckId));
}

type CheckRef = Pick<CheckFixture, 'healthCheckId' | 'workspaceId'>;
export type ParticipantFixture = { userId: string; participantId: string; name: string; email: string };

/** The participant rows of `userIds` in `status`, with the progress and activity that status implies. */
export const participantRows = (
  healthCheckId: string,
  userIds: string[],
  status: ParticipantStatus,
  progress?: number,
) =>
  userIds.map((userId) => ({
    healthCheckId,
    userId,
    status,
    progress: progress ?? (status === 'completed' ? 100 : 0),
    lastActivity: status === 'pending' ? null : new Date(),
    completedAt: status === 'completed' ? new Date() : null,
  }));

/**
 * `count` users (no password) who joined the check by link: a `participant` membership and a participant row,
 * `completed` unless told otherwise.
 */
export async function addParticipants(
  ctx: TestContext,
  check: CheckRef,
  count: number,
  options: { status?: ParticipantStatus; progress?: number; names?: string[] } = {},
): Promise<ParticipantFixture[]> {
  if (count === 0) return [];
  const people = Array.from({ length: count }, (_, i) => ({
    id: randomUUID(),
    name: options.names?.[i] ?? `Person ${unique('p')}`,
    email: uniqueEmail('participant'),
  }));
  return ctx.deps.db.transaction(async (tx) => {
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
        participantRows(
          check.healthCheckId,
          people.map((p) => p.id),
          options.status ?? 'completed',
          options.progress,
        ),
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

/** One participant, as `addParticipants` makes them. */
export async function addParticipant(
  ctx: TestContext,
  check: CheckRef,
  options: { status?: ParticipantStatus; progress?: number; name?: string } = {},
): Promise<ParticipantFixture> {
  const [person] = await addParticipants(ctx, check, 1, {
    ...options,
    names: options.name ? [options.name] : undefined,
  });
  return person!;
}

export async function setParticipantStatus(
  ctx: TestContext,
  participantId: string,
  status: ParticipantStatus,
) {
  await ctx.deps.db
    .update(participants)
    .set({ status, completedAt: status === 'completed' ? new Date() : null })
    .where(eq(participants.id, participantId));
}

/** Stores ratings in one insert; returns the rating ids by `participantId:componentId`. */
export async function addRatings(
  ctx: TestContext,
  healthCheckId: string,
  ratings: { participantId: string; componentId: string; rating: ParticipationRating }[],
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
  pick: (personIndex: number, componentIndex: number) => ParticipationRating,
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

/** A comment on the rating `ratingId`, anonymous unless told otherwise. */
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

/** Participation answers (autosave or submit) rating every component, cycling through the four ratings. */
export function allRated(componentIds: string[], comments: Record<string, string> = {}) {
  return {
    votes: Object.fromEntries(
      componentIds.map((id, i) => [id, PARTICIPATION_RATINGS[i % PARTICIPATION_RATINGS.length]]),
    ),
    comments,
    last_component_index: componentIds.length - 1,
  };
}
