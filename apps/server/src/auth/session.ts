import { createHmac, timingSafeEqual } from 'node:crypto';
import { AUTH_MESSAGES } from '@pulsecheck/shared/auth/messages';
import { SECURITY_MESSAGES } from '@pulsecheck/shared/auth/security-messages';
import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { Config } from '../config';
import { queryRows } from '../db/client';
import { AppError } from '../lib/app-error';
import type { AppEnv } from '../lib/router';
import { twoFactorDueSql } from './access';
import { SESSION_DAYS, SESSION_UPDATE_AGE_SECONDS } from './options';

export type SessionUser = {
  id: string;
  email: string;
  name: string;
  emailVerified: boolean;
  /** Their organisation requires two-factor sign-in and they have none yet (auth/access.ts). */
  twoFactorDue: boolean;
};

/**
 * Cookie values whose signature was checked, to their value, per secret: under the autosave load the HMAC was a
 * twentieth of the server's CPU (bench/README.md, session 10). Only a value that passed the check gets in, and a
 * signature stays right for as long as the secret does (whether the session still counts is read every time);
 * at most VERIFIED_MAX per secret, the oldest dropped first.
 */
const verified = new Map<string, Map<string, string>>();
const VERIFIED_MAX = 10_000;

export function verifiedValue(secret: string, cookie: string): string | null {
  let known = verified.get(secret);
  const hit = known?.get(cookie);
  if (hit !== undefined) return hit;
  const dot = cookie.lastIndexOf('.');
  if (dot < 1) return null;
  const value = cookie.slice(0, dot);
  const given = Buffer.from(cookie.slice(dot + 1), 'base64');
  const expected = createHmac('sha256', secret).update(value).digest();
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  if (!known) verified.set(secret, (known = new Map<string, string>()));
  if (known.size >= VERIFIED_MAX) known.delete(known.keys().next().value as string);
  known.set(cookie, value);
  return value;
}

/**
 * The value of one of better-auth's signed cookies (`value.base64(HMAC-SHA256(secret, value))`, `__Secure-` on
 * https), or null when the cookie is absent or its signature is wrong.
 */
export function signedCookie(c: Context<AppEnv>, name: string): string | null {
  const { config } = c.get('deps');
  const secure = config.appUrl.startsWith('https://');
  const cookie = getCookie(c, `${secure ? '__Secure-' : ''}better-auth.${name}`);
  return cookie ? verifiedValue(config.authSecret, cookie) : null;
}

/** The session token of better-auth's signed session cookie, or null. */
export const signedSessionToken = (c: Context<AppEnv>) => signedCookie(c, 'session_token');

/** The session token that better-auth's answer (its Set-Cookie headers) gives the browser, or null. */
export function sessionTokenIn(config: Pick<Config, 'authSecret'>, cookies: string[]): string | null {
  for (const cookie of cookies) {
    const value = /^(?:__Secure-)?better-auth\.session_token=([^;]+)/.exec(cookie)?.[1];
    if (value) return verifiedValue(config.authSecret, decodeURIComponent(value));
  }
  return null;
}

type SessionRow = {
  id: string;
  email: string;
  name: string;
  email_verified: boolean;
  two_factor_due: boolean;
  expires_at: string | Date;
};

/**
 * The signed-in user of this request, or null; looked up once per request. The signed cookie is checked here
 * and the session read in one indexed join. better-auth is asked only when the session is due for its daily
 * sliding refresh (it then extends the expiry and re-sets the cookie).
 */
export async function currentUser(c: Context<AppEnv>): Promise<SessionUser | null> {
  const cached = c.get('user');
  if (cached !== undefined) return cached;
  const token = signedSessionToken(c);
  let user: SessionUser | null = null;
  if (token) {
    const { db, auth } = c.get('deps');
    const [row] = await queryRows<SessionRow>(
      db,
      sql`select u.id, u.email, u.name, u.email_verified, s.expires_at,
            ${twoFactorDueSql(sql`u.id`, sql`u.two_factor_enabled`)} as two_factor_due
          from session s join "user" u on u.id = s.user_id
          where s.token = ${token} and s.expires_at > now()`,
    );
    if (row) {
      user = {
        id: row.id,
        email: row.email,
        name: row.name,
        emailVerified: row.email_verified,
        twoFactorDue: row.two_factor_due,
      };
      const expiresAt = new Date(row.expires_at).getTime();
      const dueForRefresh =
        expiresAt - SESSION_DAYS * 86_400_000 + SESSION_UPDATE_AGE_SECONDS * 1000 <= Date.now();
      const rememberMe =
        !getCookie(c, 'better-auth.dont_remember') && !getCookie(c, '__Secure-better-auth.dont_remember');
      if (dueForRefresh && rememberMe) {
        const { headers } = await auth.api.getSession({ headers: c.req.raw.headers, returnHeaders: true });
        for (const cookie of headers.getSetCookie()) c.header('Set-Cookie', cookie, { append: true });
      }
    }
  }
  c.set('user', user);
  return user;
}

/** What a person who must enrol in two-factor sign-in may still call: who they are, and their own account. */
const WHILE_ENROLLING = ['/api/me', '/api/account/'];

/**
 * The signed-in user, or a 401 'No authenticated session'. While their organisation's two-factor requirement is
 * unmet, everything but their own account answers 403 `two_factor_required` (the Security tab enrols them).
 */
export async function requireUser(c: Context<AppEnv>): Promise<SessionUser> {
  const user = await currentUser(c);
  if (!user) throw new AppError('unauthenticated', AUTH_MESSAGES.noSession);
  if (user.twoFactorDue && !WHILE_ENROLLING.some((prefix) => c.req.path.startsWith(prefix)))
    throw new AppError('two_factor_required', SECURITY_MESSAGES.enrolmentRequired);
  return user;
}

/** Passes better-auth's Set-Cookie headers (session, sign-out) on to the answer. */
export function setCookies(c: Context<AppEnv>, cookies: string[]) {
  for (const cookie of cookies) c.header('Set-Cookie', cookie, { append: true });
}
