/**
 * The one home of the rule "which language do we write to this person in" (issue 34), for every e-mail, notice,
 * Slack message and export the server makes:
 * 1. the recipient's own choice (`user.language`), when they made one;
 * 2. else, when the e-mail answers a request of the very person it goes to (sign-up, password reset, resend of
 *    the verification), that request's language (its `Accept-Language`: the web sends its own language);
 * 3. else their organisation's `default_language` (people without an account, or without a choice);
 * 4. else English.
 * `recipientLanguageSql` is the same rule inside a query that lists many recipients (no query per person).
 */
import { DEFAULT_LANGUAGE, isLanguage, type Locale } from '@pulsecheck/shared/i18n/languages';
import { and, asc, eq, type SQL, sql } from 'drizzle-orm';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { user } from '../db/schema/auth';
import { healthChecks } from '../db/schema/health-checks';
import { organizations, workspaceMembers, workspaces } from '../db/schema/organizations';
import { requestLocale, translatorFor } from '../lib/i18n';
import { pageLocale } from '../lib/static-files';

export function recipientLanguage(recipient: {
  /** The person's `user.language` (null or absent: no choice yet, or no account). */
  language?: string | null | undefined;
  /** The language of the request of this very person that the e-mail answers. */
  request?: Locale | null | undefined;
  /** Their organisation's `default_language`. */
  organization?: string | null | undefined;
}): Locale {
  if (isLanguage(recipient.language)) return recipient.language;
  if (recipient.request) return recipient.request;
  if (isLanguage(recipient.organization)) return recipient.organization;
  return DEFAULT_LANGUAGE;
}

/** The same rule in SQL, for a query that lists recipients: `coalesce(user.language, default_language, 'en')`. */
export const recipientLanguageSql = (userLanguage: SQL, organizationLanguage: SQL = sql`null`) =>
  sql`coalesce(${userLanguage}, ${organizationLanguage}, ${DEFAULT_LANGUAGE})`;

/**
 * One value per language inside a query: `case <language> when 'de' then … else <fallback> end`, `language` an SQL
 * expression of a recipient's language (`recipientLanguageSql`), `values` what each language reads (say, a
 * subject in that language); a language without a value reads `fallback`'s. Each value is one parameter.
 */
export function byLanguageSql(language: SQL, values: ReadonlyMap<Locale, string>, fallback: Locale): SQL {
  const otherwise = values.get(fallback) ?? [...values.values()][0] ?? '';
  const branches = [...values].filter(([locale]) => locale !== fallback);
  if (branches.length === 0) return sql`${otherwise}::text`;
  return sql`(case ${language} ${sql.join(
    branches.map(([locale, value]) => sql`when ${locale} then ${value}::text`),
    sql` `,
  )} else ${otherwise}::text end)`;
}

/** A request's language, from its headers (pseudo-locales outside production only). */
export const languageOfRequest = (
  headers: Headers | { get(name: string): string | null | undefined } | undefined | null,
  config: Pick<Config, 'env'>,
): Locale => requestLocale(headers?.get('accept-language'), config.env !== 'production');

/** The translator of a recipient (see `recipientLanguage`). */
export const translatorOfRecipient = (recipient: Parameters<typeof recipientLanguage>[0]) =>
  translatorFor(recipientLanguage(recipient));

/** A person's stored choice (`user.language`), for the one e-mail of a request about them. */
export async function storedLanguageOf(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ language: user.language }).from(user).where(eq(user.id, userId));
  return row?.language ?? null;
}

/**
 * The language of a file a signed-in person downloads (the audit log's CSV header): their stored choice, else the
 * language the app's pages are written in for this browser (its language cookie, else its Accept-Language; a
 * download is a plain link, so the app's own Accept-Language does not come with it).
 */
export async function downloaderLanguage(
  db: Db,
  userId: string,
  browser: { cookie: string | undefined; acceptLanguage: string | undefined },
  config: Pick<Config, 'env'>,
): Promise<Locale> {
  return recipientLanguage({
    language: await storedLanguageOf(db, userId),
    request: pageLocale(browser.cookie, browser.acceptLanguage, config.env !== 'production'),
  });
}

/** The `default_language` of the organisation a workspace belongs to (null for an unknown workspace). */
export async function workspaceLanguageOf(db: Db, workspaceId: string): Promise<string | null> {
  const [row] = await db
    .select({ language: organizations.defaultLanguage })
    .from(workspaces)
    .innerJoin(organizations, eq(organizations.id, workspaces.organizationId))
    .where(eq(workspaces.id, workspaceId));
  return row?.language ?? null;
}

/**
 * The `default_language` of the organisation of a person's workspaces (their first active membership's), for what
 * is sent to them about all their workspaces at once (the digests); null without one.
 */
export async function memberOrganizationLanguageOf(db: Db, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ language: organizations.defaultLanguage })
    .from(workspaceMembers)
    .innerJoin(workspaces, eq(workspaces.id, workspaceMembers.workspaceId))
    .innerJoin(organizations, eq(organizations.id, workspaces.organizationId))
    .where(and(eq(workspaceMembers.userId, userId), eq(workspaceMembers.status, 'active')))
    .orderBy(asc(workspaceMembers.createdAt))
    .limit(1);
  return row?.language ?? null;
}

/** The `default_language` of the organisation a health check belongs to (null for an unknown check). */
export async function checkLanguageOf(db: Db, healthCheckId: string): Promise<string | null> {
  const [row] = await db
    .select({ language: organizations.defaultLanguage })
    .from(healthChecks)
    .innerJoin(workspaces, eq(workspaces.id, healthChecks.workspaceId))
    .innerJoin(organizations, eq(organizations.id, workspaces.organizationId))
    .where(eq(healthChecks.id, healthCheckId));
  return row?.language ?? null;
}

/**
 * The language of a person about a workspace (a notice, a Slack post): their own choice, else the default of the
 * workspace's organisation, else English. Without a person, the organisation's default.
 */
export async function languageInWorkspace(
  db: Db,
  options: { userId?: string | null; workspaceId: string },
): Promise<Locale> {
  return recipientLanguage({
    language: options.userId ? await storedLanguageOf(db, options.userId) : null,
    organization: await workspaceLanguageOf(db, options.workspaceId),
  });
}
