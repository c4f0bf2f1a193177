import type { AuditChanges } from '@pulsecheck/shared/audit/log';
import { changedFields, recordAudit, type AuditBy } from '../../audit/record';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { type Db, first, queryRows } from '../../db/client';
import { ssoProvider, verification } from '../../db/schema/auth';
import { organizationMemberSql } from '../../auth/access';
import { ssoProviderRows } from '../../auth/sso';
import { user } from '../../db/schema/auth';
import {
  organizations,
  organizationSso,
  samlAssertions,
  ssoDomains,
  userPreferences,
  workspaceMembers,
  workspaces,
} from '../../db/schema/organizations';

/** The origins of every configured issuer: the SSO instance fetches from these only (auth/sso.ts). */
export async function issuerOrigins(db: Db): Promise<string[]> {
  try {
    // SAML providers' issuers are entity ids (often not URLs) and are never fetched from: OpenID Connect only.
    const rows = await db
      .select({ issuer: ssoProvider.issuer })
      .from(ssoProvider)
      .where(isNotNull(ssoProvider.oidcConfig));
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

/**
 * Whether the organisation's SSO created this account or its owner linked it ('Link single sign-on'): the plugin's
 * account row of the organisation's provider (auth/sso-auth.ts writes one in these two cases only).
 */
export async function ssoBound(db: Db, userId: string, organizationId: string) {
  const [row] = await queryRows<{ bound: boolean }>(
    db,
    sql`select exists (select 1 from account a join organization_sso o on o.provider_id = a.provider_id
                       where a.user_id = ${userId} and o.organization_id = ${organizationId}) as bound`,
  );
  return Boolean(row?.bound);
}

/** The organisation whose SSO covers an e-mail domain (verified by DNS: features/sso/domains.ts), with its switches. */
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
      .where(and(eq(ssoDomains.domain, domain), eq(ssoDomains.status, 'verified'))),
  );
}

/**
 * Whether the account with this e-mail (if any) is one the organisation's 'Require SSO' applies to: none (a new
 * address at its domain), a member of the organisation, or an account its SSO created or linked.
 */
export async function ssoRequirementApplies(db: Db, email: string, organizationId: string) {
  const [row] = await queryRows<{ applies: boolean }>(
    db,
    sql`select ${organizationMemberSql(sql`u.id`, organizationId)}
          or exists (select 1 from account a join organization_sso o on o.provider_id = a.provider_id
                     where a.user_id = u.id and o.organization_id = ${organizationId})
          as applies
        from "user" u where u.email = ${email}`,
  );
  return row ? row.applies : true;
}

/** Whether the person is a member of the organisation (organizationMemberSql). */
export async function isMember(db: Db, userId: string, organizationId: string) {
  const [row] = await queryRows<{ member: boolean }>(
    db,
    sql`select ${organizationMemberSql(userId, organizationId)} as member`,
  );
  return Boolean(row?.member);
}

export async function ssoOfOrganization(db: Db, organizationId: string) {
  return first(db.select().from(organizationSso).where(eq(organizationSso.organizationId, organizationId)));
}

/** The organisation's domains with their proof of ownership, by name. */
export async function domainRows(db: Db, organizationId: string) {
  return db
    .select()
    .from(ssoDomains)
    .where(eq(ssoDomains.organizationId, organizationId))
    .orderBy(ssoDomains.domain);
}

/** The domains the organisation's SSO signs in: those verified by DNS. */
export async function verifiedDomainsOf(db: Db, organizationId: string): Promise<string[]> {
  const rows = await db
    .select({ domain: ssoDomains.domain })
    .from(ssoDomains)
    .where(and(eq(ssoDomains.organizationId, organizationId), eq(ssoDomains.status, 'verified')))
    .orderBy(ssoDomains.domain);
  return rows.map((row) => row.domain);
}

/** Domains among `domains` that another organisation has verified already. */
export async function domainsTakenElsewhere(db: Db, organizationId: string, domains: string[]) {
  if (domains.length === 0) return [];
  const rows = await queryRows<{ domain: string }>(
    db,
    sql`select domain from sso_domains
        where domain = any(${sql.param(domains)}::text[]) and organization_id <> ${organizationId}
          and status = 'verified'`,
  );
  return rows.map((row) => row.domain);
}

/**
 * Saves the organisation's one single sign-on provider, OpenID Connect or SAML (the other's settings are cleared:
 * one of the two per organisation), and its domains, in one transaction. A `changed` identity provider must be
 * tested and switched on again.
 */
export async function storeProvider(
  db: Db,
  authSecret: string,
  options: {
    organizationId: string;
    providerId: string;
    userId: string;
    issuer: string;
    oidcConfig: string | null;
    samlConfig: string | null;
    domains: string[];
    changed: boolean;
    newToken: () => string;
    /** Who saved it, and the organisation's name: the audit log's entry, in the same transaction. */
    by: AuditBy;
    organizationName: string;
    /** More of what changed, for the entry (SAML: the IdP-initiated switch). */
    changes?: AuditChanges;
  },
) {
  const { organizationId, providerId } = options;
  const table = ssoProviderRows(authSecret);
  await db.transaction(async (tx: Db) => {
    const before = (
      await tx
        .select({ domain: ssoDomains.domain })
        .from(ssoDomains)
        .where(eq(ssoDomains.organizationId, organizationId))
    )
      .map((row) => row.domain)
      .sort();
    const row = {
      issuer: options.issuer,
      oidcConfig: options.oidcConfig,
      samlConfig: options.samlConfig,
      userId: options.userId,
      organizationId,
      domain: options.domains.join(','),
    };
    await tx
      .insert(table)
      .values({ id: providerId, providerId, ...row })
      .onConflictDoUpdate({ target: table.providerId, set: row });
    const reset = options.changed ? { testedAt: null, enabled: false, required: false } : {};
    await tx
      .insert(organizationSso)
      .values({ organizationId, providerId })
      .onConflictDoUpdate({
        target: organizationSso.organizationId,
        set: { ...reset, updatedAt: new Date() },
      });
    await replaceDomains(tx, organizationId, options.domains, options.newToken);
    await recordAudit(tx, organizationId, options.by, {
      action: 'sso.configured',
      targetType: 'organization',
      targetId: organizationId,
      targetLabel: options.organizationName,
      changes: {
        protocol: options.samlConfig ? 'SAML' : 'OpenID Connect',
        identityProvider: options.issuer,
        // A new provider, client or certificate: sign-in through it is off until tested again.
        providerChanged: options.changed,
        ...changedFields({ domains: before }, { domains: [...options.domains].sort() }),
        ...options.changes,
      },
    });
  });
}

/** Replaces the organisation's domains: those kept keep their token and state, new ones start pending. */
export async function replaceDomains(
  tx: Db,
  organizationId: string,
  domains: string[],
  newToken: () => string,
) {
  await tx
    .delete(ssoDomains)
    .where(
      and(
        eq(ssoDomains.organizationId, organizationId),
        sql`not (${ssoDomains.domain} = any(${sql.param(domains)}::text[]))`,
      ),
    );
  await tx
    .insert(ssoDomains)
    .values(domains.map((domain) => ({ domain, organizationId, token: newToken() })))
    .onConflictDoNothing();
}

/** Records a check of a domain's TXT record: found (verified) or not (failed). */
export async function markDomain(
  db: Db,
  options: { organizationId: string; domain: string; found: boolean },
) {
  const now = new Date();
  return db
    .update(ssoDomains)
    .set(
      options.found
        ? { status: 'verified', checkedAt: now, verifiedAt: now }
        : { status: 'failed', checkedAt: now },
    )
    .where(and(eq(ssoDomains.organizationId, options.organizationId), eq(ssoDomains.domain, options.domain)))
    .returning({ domain: ssoDomains.domain });
}

/** Every verified domain, with its organisation's owner to tell when its record is gone (the daily re-check). */
export async function verifiedDomains(db: Db) {
  return db
    .select({
      domain: ssoDomains.domain,
      organizationId: ssoDomains.organizationId,
      token: ssoDomains.token,
      organizationName: organizations.name,
      ownerEmail: user.email,
      ownerName: user.name,
      ownerLanguage: user.language,
      organizationLanguage: organizations.defaultLanguage,
    })
    .from(ssoDomains)
    .innerJoin(organizations, eq(organizations.id, ssoDomains.organizationId))
    .leftJoin(user, eq(user.id, organizations.createdBy))
    .where(eq(ssoDomains.status, 'verified'));
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

/** The flow of a `state` (or SAML request id), read without taking it (node-saml's InResponseTo check). */
export async function peekFlow(db: Db, state: string): Promise<string | null> {
  const row = await first(
    db
      .select({ value: verification.value })
      .from(verification)
      .where(
        and(eq(verification.identifier, `${FLOW_PREFIX}${state}`), sql`${verification.expiresAt} > now()`),
      ),
  );
  return row?.value ?? null;
}

/**
 * Records a SAML assertion as used; false when it was already (a replay), in this process or another one sharing
 * the database. Rows of assertions that can no longer be valid are deleted on the way.
 */
export async function rememberAssertion(
  db: Db,
  options: { issuer: string; assertionId: string; expiresAt: Date },
): Promise<boolean> {
  await db.delete(samlAssertions).where(sql`${samlAssertions.expiresAt} < now()`);
  const inserted = await db
    .insert(samlAssertions)
    .values(options)
    .onConflictDoNothing()
    .returning({ id: samlAssertions.assertionId });
  return inserted.length > 0;
}
