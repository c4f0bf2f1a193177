import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { AUTH_MESSAGES } from '@pulsecheck/shared/auth/messages';
import { queryRows, type Db } from '../db/client';
import { AppError } from './app-error';
import { clientIp } from './client-ip';
import type { AppEnv } from './router';

export type Limit = { name: string; max: number; windowSeconds: number };

export const LIMITS = {
  signup: { name: 'signup', max: 5, windowSeconds: 600 },
  login: { name: 'login', max: 10, windowSeconds: 300 },
  forgotPassword: { name: 'forgot', max: 5, windowSeconds: 900 },
  resendVerification: { name: 'resend', max: 3, windowSeconds: 600 },
  /**
   * Per signed-in account: saving SSO settings (each save fetches the issuer's discovery document) and 'Verify
   * domain' (a DNS lookup).
   */
  ssoSettings: { name: 'sso-settings', max: 10, windowSeconds: 600 },
  ssoVerifyDomain: { name: 'sso-verify', max: 20, windowSeconds: 600 },
  /** Per organisation: 'Verify' of the audit log (it reads and hashes every entry). */
  auditVerify: { name: 'audit-verify', max: 10, windowSeconds: 600 },
  /** Failed sign-ins per account, whatever address they come from (auth/login-limit.ts). */
  loginAccount: { name: 'login-account', max: 10, windowSeconds: 900 },
} satisfies Record<string, Limit>;

export type Hit = { count: number; retryAfterSeconds: number };

/**
 * Counts one hit on `key` in a fixed window in PostgreSQL (shared by every server process, atomic under
 * concurrent requests) and answers the count in the current window and the seconds until that window ends.
 *
 * The count is an update under the row's lock; a key seen for the first time gets its row first. That insert
 * ignores a conflict on any unique index: `on conflict (key) do update` would still fail when concurrent first
 * hits collide on the primary key too (better-auth's rows in this table have ids of their own, ours use the key).
 */
export async function countHit(db: Db, key: string, windowSeconds: number): Promise<Hit> {
  const now = Date.now();
  const windowMs = windowSeconds * 1000;
  const bump = () =>
    queryRows<{ count: number; last_request: string }>(
      db,
      sql`update rate_limit set
            count = case when last_request < ${now - windowMs} then 1 else count + 1 end,
            last_request = case when last_request < ${now - windowMs} then ${now} else last_request end
          where key = ${key}
          returning count, last_request`,
    );
  let [row] = await bump();
  if (!row) {
    await db.execute(
      sql`insert into rate_limit (id, key, count, last_request) values (${key}, ${key}, 0, ${now}) on conflict do nothing`,
    );
    [row] = await bump();
  }
  const started = row ? Number(row.last_request) : now;
  return {
    count: row ? Number(row.count) : 1,
    retryAfterSeconds: Math.max(1, Math.ceil((started + windowMs - now) / 1000)),
  };
}

/**
 * Adds `n` hits to each key in one statement (keys seen for the first time get their row first), with the window
 * rule of `countHit`; answers each key's count in its current window. The API tokens' limiter writes its hits
 * behind the requests with it (auth/api-tokens.ts).
 */
export async function addHits(
  db: Db,
  hits: { key: string; n: number; windowSeconds: number }[],
): Promise<Map<string, number>> {
  const now = Date.now();
  const bump = (batch: typeof hits) =>
    queryRows<{ key: string; count: number }>(
      db,
      sql`update rate_limit r set
            count = case when r.last_request < ${now} - h.window_ms then h.n else r.count + h.n end,
            last_request = case when r.last_request < ${now} - h.window_ms then ${now} else r.last_request end
          from (values ${sql.join(
            batch.map((hit) => sql`(${hit.key}, ${hit.n}::int, ${hit.windowSeconds * 1000}::bigint)`),
            sql`, `,
          )}) as h(key, n, window_ms)
          where r.key = h.key
          returning r.key, r.count`,
    );
  if (hits.length === 0) return new Map();
  const rows = await bump(hits);
  const missing = hits.filter((hit) => !rows.some((row) => row.key === hit.key));
  if (missing.length > 0) {
    await db.execute(
      sql`insert into rate_limit (id, key, count, last_request)
          values ${sql.join(
            missing.map((hit) => sql`(${hit.key}, ${hit.key}, 0, ${now})`),
            sql`, `,
          )}
          on conflict do nothing`,
    );
    rows.push(...(await bump(missing)));
  }
  return new Map(rows.map((row) => [row.key, Number(row.count)]));
}

/** Takes back one hit on `key` (an attempt that turned out not to count). */
export async function releaseHit(db: Db, key: string): Promise<void> {
  await db.execute(sql`update rate_limit set count = greatest(count - 1, 0) where key = ${key}`);
}

/** Forgets every hit on `key`. */
export async function clearHits(db: Db, key: string): Promise<void> {
  await db.execute(sql`delete from rate_limit where key = ${key}`);
}

/** The key of the per-account sign-in limit: the normalised e-mail, whether or not it has an account. */
export const loginAccountKey = (email: string) =>
  `pc:${LIMITS.loginAccount.name}:${email.trim().toLowerCase()}`;

/**
 * Counts one attempt against a fixed window in PostgreSQL (shared by every server process) and refuses
 * with 429 past the limit. `extraKey` narrows the bucket (for example to an e-mail address).
 */
export async function enforceLimit(c: Context<AppEnv>, limit: Limit, extraKey = ''): Promise<void> {
  await enforceLimitOn(c, limit, `${clientIp(c)}${extraKey ? `:${extraKey}` : ''}`);
}

/** `enforceLimit` on a bucket of the caller's choosing, e.g. a signed-in account whatever address it uses. */
export async function enforceLimitOn(c: Context<AppEnv>, limit: Limit, bucket: string): Promise<void> {
  const { db, config } = c.get('deps');
  const hit = await countHit(db, `pc:${limit.name}:${bucket}`, limit.windowSeconds);
  if (hit.count > limit.max * config.rateLimitMultiplier) {
    c.header('Retry-After', String(hit.retryAfterSeconds));
    throw new AppError('rate_limited', AUTH_MESSAGES.tooManyAttempts);
  }
}
