import { createHash, randomBytes } from 'node:crypto';
import {
  API_TOKEN_LAST_USE_PRECISION_SECONDS,
  API_TOKEN_MESSAGES,
  API_TOKEN_PREFIX,
  API_TOKEN_RATE_LIMIT,
  looksLikeApiToken,
  type ApiScope,
  type ApiTokenKind,
} from '@pulsecheck/shared/api-tokens/rules';
import { sql } from 'drizzle-orm';
import type { Context, MiddlewareHandler } from 'hono';
import { queryRows, type Db } from '../db/client';
import { AppError } from '../lib/app-error';
import { addHits } from '../lib/rate-limit';
import type { AppEnv } from '../lib/router';
import { twoFactorDueSql } from './access';
import type { SessionUser } from './session';

/**
 * API tokens as credentials (issue 35, decision 0020): making one, and turning an `Authorization: Bearer pc_…`
 * header into the caller every route already understands. The token's caller then goes through the same loaders
 * (auth/access.ts) and the same policy (auth/policy.ts) as a browser session; the route's scope is checked first.
 * Webhooks (issue 35, item 3) will reuse the secret's making and hashing.
 */

/** A new token: `pc_` and 256 random bits in base64url. Shown once; only its hash is kept. */
export function newTokenSecret(): string {
  return `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** The stored form of a token: hex SHA-256 (a token is random enough that a slow hash would add nothing). */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** The token an `Authorization: Bearer …` header carries, or null when the request carries none. */
export function bearerOf(c: Pick<Context, 'req'>): string | null {
  const header = c.req.header('authorization');
  if (!header) return null;
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  return match ? match[1]! : null;
}

/** The token behind a request, as the routes see it once it is found valid. */
export type TokenCaller = {
  id: string;
  /** Its name, as the audit log names who acted. */
  name: string;
  kind: ApiTokenKind;
  scopes: ApiScope[];
  /** The organisation an organisation token acts for. */
  organizationId: string | null;
};

type TokenRow = {
  id: string;
  kind: ApiTokenKind;
  name: string;
  scopes: ApiScope[];
  organization_id: string | null;
  last_used_at: string | Date | null;
  user_id: string | null;
  email: string | null;
  user_name: string | null;
  email_verified: boolean | null;
  two_factor_due: boolean | null;
  /** The token's row in `rate_limit`: hits counted by every process, and when their window started (ms). */
  rate_count: number | null;
  rate_started: string | null;
};

/**
 * The live token of this secret with the person it acts for, in one indexed read; null when it is unknown,
 * revoked (deleted) or expired. Nothing is cached: revocation and expiry count from the next request.
 */
async function findToken(db: Db, secret: string): Promise<TokenRow | null> {
  const [row] = await queryRows<TokenRow>(
    db,
    sql`select t.id, t.kind, t.name, t.scopes, t.organization_id, t.last_used_at, u.id as user_id, u.email,
               u.name as user_name, u.email_verified,
               case when u.id is null then false
                    else ${twoFactorDueSql(sql`u.id`, sql`u.two_factor_enabled`)} end as two_factor_due,
               rl.count as rate_count, rl.last_request as rate_started
        from api_tokens t left join "user" u on u.id = t.user_id
          left join rate_limit rl on rl.key = ${RATE_KEY_PREFIX} || t.id
        where t.token_hash = ${hashToken(secret)} and (t.expires_at is null or t.expires_at > now())`,
  );
  return row ?? null;
}

/**
 * The caller as every route sees a signed-in person. A personal token is its person (so it can never do more than
 * they can, and their organisation's two-factor rule applies as to their session). An organisation token is a
 * principal of its own, the token's id: it is in no workspace, and `organizationRoleSql` makes it an organisation
 * admin of its organisation only, so the policy grants it exactly what an organisation admin who is in none of the
 * workspaces may do.
 */
function callerOf(row: TokenRow): SessionUser {
  if (row.kind === 'personal')
    return {
      id: row.user_id!,
      email: row.email!,
      name: row.user_name!,
      emailVerified: Boolean(row.email_verified),
      twoFactorDue: Boolean(row.two_factor_due),
    };
  return { id: row.id, email: '', name: row.name, emailVerified: true, twoFactorDue: false };
}

const invalidToken = (c: Context<AppEnv>) => {
  c.header('WWW-Authenticate', 'Bearer error="invalid_token"');
  return new AppError('invalid_token', API_TOKEN_MESSAGES.invalid);
};

const RATE_KEY_PREFIX = 'pc:api-token:';
/** How long a process keeps a token's hits before it adds them to the shared count. */
export const RATE_FLUSH_MS = 1000;

/** Per database: each token's hits this process has answered and not yet added to `rate_limit`. */
const unwritten = new WeakMap<Db, Map<string, number>>();

/** Adds this process's unwritten hits to the shared counts, one statement for every token. */
export async function flushTokenHits(db: Db) {
  const hits = unwritten.get(db);
  if (!hits || hits.size === 0) return;
  unwritten.set(db, new Map());
  const windowSeconds = API_TOKEN_RATE_LIMIT.windowSeconds;
  // A database that fails now forgets these hits: the limit errs on the caller's side, never refuses wrongly.
  await addHits(
    db,
    [...hits].map(([id, n]) => ({ key: `${RATE_KEY_PREFIX}${id}`, n, windowSeconds })),
  ).catch(() => undefined);
}

function noteHit(db: Db, tokenId: string) {
  let hits = unwritten.get(db);
  if (!hits) unwritten.set(db, (hits = new Map<string, number>()));
  if (hits.size === 0) setTimeout(() => void flushTokenHits(db), RATE_FLUSH_MS).unref();
  const n = (hits.get(tokenId) ?? 0) + 1;
  hits.set(tokenId, n);
  return n;
}

/**
 * Counts the request against the token's budget and answers the IETF draft's `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset` headers; past the budget, 429 with `Retry-After`. The count is the
 * token's row in `rate_limit` (PostgreSQL, shared by every server process, read with the token in the same
 * statement) plus this process's hits not yet written there: each process adds its hits at most a second later,
 * in one statement for all tokens, so a request costs no write. Between processes the count lags by that second.
 */
function limitRate(c: Context<AppEnv>, row: TokenRow) {
  const { db, config } = c.get('deps');
  const max = Math.max(1, Math.round(API_TOKEN_RATE_LIMIT.max * config.rateLimitMultiplier));
  const windowMs = API_TOKEN_RATE_LIMIT.windowSeconds * 1000;
  const now = Date.now();
  const started = row.rate_started === null ? null : Number(row.rate_started);
  const inWindow = started !== null && started >= now - windowMs;
  const count = (inWindow ? Number(row.rate_count) : 0) + noteHit(db, row.id);
  const reset = inWindow ? Math.max(1, Math.ceil((started + windowMs - now) / 1000)) : windowMs / 1000;
  c.header('RateLimit-Limit', String(max));
  c.header('RateLimit-Remaining', String(Math.max(0, max - count)));
  c.header('RateLimit-Reset', String(reset));
  if (count > max) {
    c.header('Retry-After', String(reset));
    throw new AppError('rate_limited', API_TOKEN_MESSAGES.tooManyRequests);
  }
}

/** Records the token's use when the last record is older than the precision: at most one write a minute. */
async function noteUse(db: Db, row: TokenRow) {
  const last = row.last_used_at ? new Date(row.last_used_at).getTime() : 0;
  if (Date.now() - last < API_TOKEN_LAST_USE_PRECISION_SECONDS * 1000) return;
  await db.execute(
    sql`update api_tokens set last_used_at = now()
        where id = ${row.id}
          and (last_used_at is null
               or last_used_at < now() - make_interval(secs => ${API_TOKEN_LAST_USE_PRECISION_SECONDS}))`,
  );
}

/**
 * The route's door for API tokens, placed before validation by `routes()` (lib/openapi.ts) from the scope the
 * route declares. Without `Authorization: Bearer …` the request goes on as before (a browser session, or none).
 * With a bearer token, the cookie never counts: a route that declares no scope refuses (403 `session_required`); otherwise
 * the token must be live (401 `invalid_token`), within its rate limit (429) and hold the scope (403
 * `insufficient_scope`), and becomes the request's caller.
 */
export function tokenGate(scope: ApiScope | undefined): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const secret = bearerOf(c);
    // Another scheme (a proxy's Basic sign-in in front of the app) is no API token: the session counts as before.
    if (secret === null) return next();
    if (!scope) throw new AppError('session_required', API_TOKEN_MESSAGES.sessionOnly);
    if (!looksLikeApiToken(secret)) throw invalidToken(c);
    const { db } = c.get('deps');
    const row = await findToken(db, secret);
    if (!row) throw invalidToken(c);
    limitRate(c, row);
    if (!row.scopes.includes(scope)) {
      c.header('WWW-Authenticate', `Bearer error="insufficient_scope", scope="${scope}"`);
      throw new AppError('insufficient_scope', API_TOKEN_MESSAGES.missingScope, undefined, { scope });
    }
    await noteUse(db, row);
    c.set('user', callerOf(row));
    c.set('apiToken', {
      id: row.id,
      name: row.name,
      kind: row.kind,
      scopes: row.scopes,
      organizationId: row.organization_id,
    });
    await next();
  };
}
