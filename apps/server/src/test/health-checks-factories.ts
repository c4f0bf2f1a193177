import { randomUUID } from 'node:crypto';
import { DEFAULT_SETTINGS, type LaunchInput } from '@pulsecheck/shared/health-checks/schemas';
import { eq } from 'drizzle-orm';
import { user } from '../db/schema/auth';
import { healthCheckComponents } from '../db/schema/health-checks';
import { GLOBAL_TEMPLATE_ID } from '../db/catalogue';
import { participants } from '../db/schema/health-checks';
import { workspaceMembers } from '../db/schema/organizations';
import type { CookieJar } from './factories';
import { uniqueEmail } from './factories';
import type { TestContext } from './harness';

/** The ids of the global catalogue's components, in order. */
export async function catalogueComponentIds(ctx: TestContext) {
  const rows = await ctx.deps.db
    .select({ id: healthCheckComponents.id, orderIndex: healthCheckComponents.orderIndex })
    .from(healthCheckComponents)
    .where(eq(healthCheckComponents.templateId, GLOBAL_TEMPLATE_ID));
  return rows.sort((a, b) => a.orderIndex - b.orderIndex).map((r) => r.id);
}

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
  jar: CookieJar,
  workspaceId: string,
  overrides: Partial<LaunchInput> = {},
) {
  const response = await ctx.request('POST', '/api/health-checks', {
    body: await launchBody(ctx, workspaceId, overrides),
    headers: jar.header(),
  });
  if (response.status !== 201) throw new Error(`launch failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as { id: string; joinUrl: string; failedEmails: string[] };
}

/** A user row of its own (no password): enough to be a participant or a member in these tests. */
export async function createPlainUser(ctx: TestContext, name = 'Pat Participant') {
  const id = randomUUID();
  const email = uniqueEmail('plain');
  await ctx.deps.db.insert(user).values({ id, name, email, emailVerified: true });
  return { id, email, name };
}

/** A participant of the check (and participant member of its workspace), in the given state. */
export async function addParticipant(
  ctx: TestContext,
  options: {
    healthCheckId: string;
    workspaceId: string;
    status?: 'pending' | 'in_progress' | 'completed';
    progress?: number;
    name?: string;
  },
) {
  const person = await createPlainUser(ctx, options.name);
  await ctx.deps.db
    .insert(workspaceMembers)
    .values({ workspaceId: options.workspaceId, userId: person.id, access: 'participant', status: 'active' });
  const status = options.status ?? 'pending';
  const [row] = await ctx.deps.db
    .insert(participants)
    .values({
      healthCheckId: options.healthCheckId,
      userId: person.id,
      status,
      progress: options.progress ?? (status === 'completed' ? 100 : 0),
      lastActivity: status === 'pending' ? null : new Date(),
      completedAt: status === 'completed' ? new Date() : null,
    })
    .returning({ id: participants.id });
  return { ...person, participantId: row?.id ?? '' };
}
