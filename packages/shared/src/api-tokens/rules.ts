import { z } from 'zod';
import { requiredText } from '../api/fields';
import type { Translator } from '../i18n/translate';

/**
 * API tokens (issue 35): what a token may reach and for how long, written once for the server (the routes declare
 * the scope they need, lib/openapi.ts), the OpenAPI document and the 'API tokens' screen. Webhooks will reuse the
 * scopes' words for the events they send.
 */

/** Every scope a token can hold, in the order the screen lists them. */
export const API_SCOPES = [
  'health-checks:read',
  'health-checks:write',
  'results:read',
  'action-items:read',
  'action-items:write',
  'loops:read',
  'loops:write',
  'insights:read',
  'members:read',
] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/** What each scope lets a token do, as the screen and the API documentation say it (catalogue keys). */
export const API_SCOPE_LABELS: Record<ApiScope, string> = {
  'health-checks:read': 'apiTokens.scope.healthChecksRead',
  'health-checks:write': 'apiTokens.scope.healthChecksWrite',
  'results:read': 'apiTokens.scope.resultsRead',
  'action-items:read': 'apiTokens.scope.actionItemsRead',
  'action-items:write': 'apiTokens.scope.actionItemsWrite',
  'loops:read': 'apiTokens.scope.loopsRead',
  'loops:write': 'apiTokens.scope.loopsWrite',
  'insights:read': 'apiTokens.scope.insightsRead',
  'members:read': 'apiTokens.scope.membersRead',
};

/** The expiries a token can be given, in days; null: it never expires. */
export const API_TOKEN_EXPIRIES = [30, 90, 365, null] as const;
export type ApiTokenExpiry = (typeof API_TOKEN_EXPIRIES)[number];
/** An expiry as the screen offers it ('30 days', 'No expiry'), in the language of `t`. */
export const expiryLabel = (days: ApiTokenExpiry, t: Translator['t']) =>
  days === null ? t('apiTokens.noExpiry') : t('apiTokens.expiryDays', { days });

/** Every token starts so: secret scanners and people recognise it, and the server tells it from other bearers. */
export const API_TOKEN_PREFIX = 'pc_';
/** The characters after the prefix: 32 random bytes in base64url (256 bits). */
export const API_TOKEN_SECRET_LENGTH = 43;
export const API_TOKEN_NAME_MAX = 100;

/** Who a token acts for: the person who made it, or the organisation (with organisation-admin rights). */
export const API_TOKEN_KINDS = ['personal', 'organization'] as const;
export type ApiTokenKind = (typeof API_TOKEN_KINDS)[number];

/**
 * Requests per token per minute before 429 (RATE_LIMIT_MULTIPLIER multiplies it, as every limit). Counted in
 * PostgreSQL, so several server processes share one budget per token.
 */
export const API_TOKEN_RATE_LIMIT = { max: 600, windowSeconds: 60 } as const;

/** The last-use time is written at most this often per token, so a busy token does not cost a write per request. */
export const API_TOKEN_LAST_USE_PRECISION_SECONDS = 60;

/**
 * Catalogue keys (area `apiTokens`, decision 0027); `missingScope` takes {scope}, and `nameTooLong` says
 * API_TOKEN_NAME_MAX in its words (a zod message carries no values).
 */
export const API_TOKEN_MESSAGES = {
  tab: 'apiTokens.tab',
  nameRequired: 'apiTokens.nameRequired',
  nameTooLong: 'apiTokens.nameTooLong',
  scopesRequired: 'apiTokens.scopesRequired',
  created: 'apiTokens.tokenCreated',
  revoked: 'apiTokens.revoked',
  loadFailed: 'apiTokens.loadFailed',
  createFailed: 'apiTokens.createFailed',
  revokeFailed: 'apiTokens.revokeFailed',
  none: 'apiTokens.none',
  noneForOrganization: 'apiTokens.noneForOrganization',
  organizationOnly: 'apiTokens.organizationOnly',
  /** A bearer token that is unknown, malformed, revoked or expired. */
  invalid: 'apiTokens.invalid',
  /** A token on a route no scope covers: signing in, account, security, tokens, answering, live events. */
  sessionOnly: 'apiTokens.sessionOnly',
  missingScope: 'apiTokens.missingScope',
  tooManyRequests: 'apiTokens.tooManyRequests',
} as const;

export const createApiTokenSchema = z.object({
  name: requiredText(API_TOKEN_MESSAGES.nameRequired, API_TOKEN_NAME_MAX, API_TOKEN_MESSAGES.nameTooLong),
  scopes: z
    .array(z.enum(API_SCOPES))
    .min(1, API_TOKEN_MESSAGES.scopesRequired)
    .transform((scopes) => API_SCOPES.filter((scope) => scopes.includes(scope))),
  /** Days until it expires (30, 90 or 365), or null for none. */
  expiresInDays: z.union([z.literal(30), z.literal(90), z.literal(365), z.null()]),
});
export type CreateApiToken = z.input<typeof createApiTokenSchema>;

export const apiTokenSchema = z.object({
  id: z.string(),
  name: z.string(),
  kind: z.enum(API_TOKEN_KINDS),
  scopes: z.array(z.enum(API_SCOPES)),
  /** The first characters, so a person can tell their tokens apart (`pc_AbCd…`); never enough to use. */
  start: z.string(),
  createdAt: z.string(),
  /** Who made an organisation token (null once they have left). */
  createdBy: z.string().nullable(),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
});
export type ApiToken = z.infer<typeof apiTokenSchema>;

export const apiTokenListSchema = z.object({ tokens: z.array(apiTokenSchema) });
/** The answer to creating a token: the only time its secret is shown. */
export const createdApiTokenSchema = z.object({ token: apiTokenSchema, secret: z.string() });
export type CreatedApiToken = z.infer<typeof createdApiTokenSchema>;

/** Whether a bearer value has the shape of one of our tokens (the server looks up nothing else). */
export const looksLikeApiToken = (value: string) =>
  value.startsWith(API_TOKEN_PREFIX) &&
  value.length === API_TOKEN_PREFIX.length + API_TOKEN_SECRET_LENGTH &&
  /^[A-Za-z0-9_-]+$/.test(value.slice(API_TOKEN_PREFIX.length));
