import type { Context } from 'hono';
import { AUTH_MESSAGES } from '@pulsecheck/shared/auth/schemas';
import { AppError } from '../lib/app-error';
import type { AppEnv } from '../lib/router';

export type SessionUser = { id: string; email: string; name: string; emailVerified: boolean };

/** The signed-in user of this request, or null. Looked up once per request. */
export async function currentUser(c: Context<AppEnv>): Promise<SessionUser | null> {
  const cached = c.get('user');
  if (cached !== undefined) return cached;
  const result = await c.get('deps').auth.api.getSession({ headers: c.req.raw.headers });
  const user = result
    ? {
        id: result.user.id,
        email: result.user.email,
        name: result.user.name,
        emailVerified: result.user.emailVerified,
      }
    : null;
  c.set('user', user);
  return user;
}

/** The signed-in user, or a 401 'No authenticated session'. */
export async function requireUser(c: Context<AppEnv>): Promise<SessionUser> {
  const user = await currentUser(c);
  if (!user) throw new AppError('unauthenticated', AUTH_MESSAGES.noSession);
  return user;
}
