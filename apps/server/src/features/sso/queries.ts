import { and, eq, sql } from 'drizzle-orm';
import { type Db, first, queryRows } from '../../db/client';
import { ssoProvider, verification } from '../../db/schema/auth';
import {
  organizationSso,
  ssoDomains,
  userPreferences,
  workspaceMembers,
  workspaces,
} from '../../db/schema/organizations';

/** The origins of every configured issuer: the SSO instance fetches from these only (auth/sso.ts). */
export async function issuerOrigins(db: Db): Promise<string[]> {
  try {
    const rows = await db.select({ issuer: ssoProvider.issuer }).from(ssoProvider);
    return rows.map((row) => new URL(row.issuer).origin);
  } catch {
    return [];
  }
}

/**
 * A person signed in through their organisation's provider joins its default workspace as a member, once; an
 * existing membership (an admin's, say) stays as it is.
 */
export async function joinOrganization(db: Db, options: { organizationId: string; userId: string }) {
  const workspace = await first(
    db
      .select({ id: workspaces.id })
      .from(workspaces)
      .where(and(eq(workspaces.organizationId, options.organizationId), eq(workspaces.isDefault, true))),
  );
  if (!workspace) return;
  await db
    .insert(workspaceMembers)
    .values({ workspaceId: workspace.id, userId: options.userId, access: 'member', status: 'active' })
    .onConflictDoNothing();
  await db
    .insert(userPreferences)
    .values({ userId: options.userId, activeWorkspaceId: workspace.id })
    .onConflictDoNothing();
}

/** The organisation whose SSO covers an e-mail domain, with its switches. */
export async function ssoForDomain(db: Db, domain: string) {
  return first(
    db
      .select({
        organizationId: organizationSso.organizationId,
        providerId: organizationSso.providerId,
        enabled: organizationSso.enabled,
        required: organizationSso.required,
      })
      .from(ssoDomains)
      .innerJoin(organizationSso, eq(organizationSso.organizationId, ssoDomains.organizationId))
      .where(eq(ssoDomains.domain, domain)),
  );
}

export async function ssoOfOrganization(db: Db, organizationId: string) {
  return first(db.select().from(organizationSso).where(eq(organizationSso.organizationId, organizationId)));
}

export async function domainsOf(db: Db, organizationId: string): Promise<string[]> {
  const rows = await db
    .select({ domain: ssoDomains.domain })
    .from(ssoDomains)
    .where(eq(ssoDomains.organizationId, organizationId))
    .orderBy(ssoDomains.domain);
  return rows.map((row) => row.domain);
}

/** Domains among `domains` that another organisation covers already. */
export async function domainsTakenElsewhere(db: Db, organizationId: string, domains: string[]) {
  if (domains.length === 0) return [];
  const rows = await queryRows<{ domain: string }>(
    db,
    sql`select domain from sso_domains
        where domain = any(${sql.param(domains)}::text[]) and organization_id <> ${organizationId}`,
  );
  return rows.map((row) => row.domain);
}

const FLOW_PREFIX = 'sso-flow:';
const FLOW_MINUTES = 10;

/** Keeps what a started sign-in must match at its callback, under its `state`, for 10 minutes. */
export async function saveFlow(db: Db, state: string, value: object) {
  await db.insert(verification).values({
    id: crypto.randomUUID(),
    identifier: `${FLOW_PREFIX}${state}`,
    value: JSON.stringify(value),
    expiresAt: new Date(Date.now() + FLOW_MINUTES * 60_000),
  });
}

/** The flow of a `state`, taken once: a second callback with the same state finds nothing. */
export async function takeFlow(db: Db, state: string): Promise<unknown> {
  const [row] = await db
    .delete(verification)
    .where(and(eq(verification.identifier, `${FLOW_PREFIX}${state}`), sql`${verification.expiresAt} > now()`))
    .returning({ value: verification.value });
  return row ? (JSON.parse(row.value) as unknown) : null;
}
