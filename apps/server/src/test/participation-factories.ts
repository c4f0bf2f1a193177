import { and, asc, eq } from 'drizzle-orm';
import { GLOBAL_TEMPLATE_ID } from '../db/catalogue';
import {
  healthCheckComponents,
  healthChecks,
  templates,
  type HealthCheckSettings,
} from '../db/schema/health-checks';
import { CookieJar, followLink, latestMail, linkIn, uniqueEmail } from './factories';
import type { TestContext } from './harness';

export const DEFAULT_SETTINGS: HealthCheckSettings = {
  minResponses: 3,
  allowAnonymous: true,
  enableComments: true,
  votesPerPerson: 5,
  showResultsAfterVoting: true,
};

/**
 * A launched health check straight in the database, as launch leaves it: a workspace copy of the global
 * template with its first `componentCount` components (new ids, same keys), in phase `collect`.
 */
export async function createHealthCheck(
  ctx: TestContext,
  options: {
    workspaceId: string;
    createdBy: string;
    componentCount?: number;
    phase?: 'collect' | 'vote' | 'summarize' | 'plan';
    settings?: Partial<HealthCheckSettings>;
    title?: string;
  },
) {
  const db = ctx.deps.db;
  const source = await db
    .select()
    .from(healthCheckComponents)
    .where(
      and(eq(healthCheckComponents.templateId, GLOBAL_TEMPLATE_ID), eq(healthCheckComponents.enabled, true)),
    )
    .orderBy(asc(healthCheckComponents.orderIndex))
    .limit(options.componentCount ?? 5);
  const [template] = await db
    .insert(templates)
    .values({
      title: options.title ?? 'Team Health Check',
      type: 'health-check',
      workspaceId: options.workspaceId,
      isGlobal: false,
      createdBy: options.createdBy,
    })
    .returning({ id: templates.id });
  if (!template) throw new Error('template insert returned nothing');
  const components = await db
    .insert(healthCheckComponents)
    .values(
      source.map((c, index) => ({
        templateId: template.id,
        key: c.key,
        title: c.title,
        description: c.description,
        category: c.category,
        orderIndex: index,
        enabled: true,
        examples: c.examples,
      })),
    )
    .returning({ id: healthCheckComponents.id, orderIndex: healthCheckComponents.orderIndex });
  components.sort((a, b) => a.orderIndex - b.orderIndex);
  const phase = options.phase ?? 'collect';
  const status = phase === 'collect' ? 'phase_1' : phase === 'vote' ? 'phase_2' : 'completed';
  const [check] = await db
    .insert(healthChecks)
    .values({
      title: options.title ?? 'Q4 Team Health Check',
      description: 'A collaborative assessment of our organization\u2019s health',
      settings: { ...DEFAULT_SETTINGS, ...options.settings },
      phase,
      status,
      workspaceId: options.workspaceId,
      templateId: template.id,
      createdBy: options.createdBy,
      completedAt: status === 'completed' ? new Date() : null,
    })
    .returning({ id: healthChecks.id });
  if (!check) throw new Error('health check insert returned nothing');
  return { id: check.id, templateId: template.id, componentIds: components.map((c) => c.id) };
}

export async function setPhase(
  ctx: TestContext,
  healthCheckId: string,
  phase: 'collect' | 'vote' | 'summarize',
) {
  const status = phase === 'collect' ? 'phase_1' : phase === 'vote' ? 'phase_2' : 'completed';
  await ctx.deps.db.update(healthChecks).set({ phase, status }).where(eq(healthChecks.id, healthCheckId));
}

/**
 * A verified, signed-in account made through the participant sign-up of `healthCheckId` (so its pending
 * join points there), not yet registered as a participant.
 */
export async function createVerifiedUser(ctx: TestContext, healthCheckId: string, name = 'Pat Participant') {
  const email = uniqueEmail('participant');
  const response = await ctx.request('POST', '/api/signup/participant', {
    body: { fullName: name, email, password: 'correct-horse-battery', healthCheckId },
  });
  if (response.status !== 201) throw new Error(`sign-up failed: ${response.status} ${await response.text()}`);
  const mail = await latestMail(ctx, email, 'Verify');
  const { jar } = await followLink(ctx, linkIn(mail.text), new CookieJar());
  const me = (await (await ctx.request('GET', '/api/me', { headers: jar.header() })).json()) as {
    user: { id: string };
  };
  return { email, jar, userId: me.user.id };
}

/** A verified user registered as a participant of the check through the join endpoint. */
export async function createParticipant(ctx: TestContext, healthCheckId: string, name?: string) {
  const user = await createVerifiedUser(ctx, healthCheckId, name);
  const join = await ctx.request('POST', `/api/health-checks/${healthCheckId}/join`, {
    headers: user.jar.header(),
  });
  if (join.status !== 200) throw new Error(`join failed: ${join.status} ${await join.text()}`);
  const { participantId } = (await join.json()) as { participantId: string };
  return { ...user, participantId };
}

/** Answers rating every component, cycling through the four ratings. */
export function allRated(componentIds: string[], comments: Record<string, string> = {}) {
  const ratings = ['healthy', 'needs-improvement', 'fire-warning', 'dont-know'] as const;
  return {
    votes: Object.fromEntries(componentIds.map((id, i) => [id, ratings[i % ratings.length]])),
    comments,
    last_component_index: componentIds.length - 1,
  };
}
