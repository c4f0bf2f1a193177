import { sql } from 'drizzle-orm';
import type { Context } from 'hono';
import { AUTH_MESSAGES } from '@pulsecheck/shared/auth/schemas';
import { queryRows } from '../db/client';
import { AppError } from './app-error';
import { clientIp } from './client-ip';
import type { AppEnv } from './router';

export type Limit = { name: string; max: number; windowSeconds: number };

export const LIMITS = {
  signup: { name: 'signup', max: 5, windowSeconds: 600 },
  login: { name: 'login', max: 10, windowSeconds: 300 },
  forgotPassword: { name: 'forgot', max: 5, windowSeconds: 900 },
  resendVerification: { name: 'resend', max: 3, windowSeconds: 600 },
} satisfies Record<string, Limit>;

/**
 * Counts one attempt against a fixed window in PostgreSQL (shared by every server process) and refuses
 * with 429 past the limit. `extraKey` narrows the bucket (for example to an e-mail address).
 */
export async function enforceLimit(c: Context<AppEnv>, limit: Limit, extraKey = ''): Promise<void> {
  const { db, config } = c.get('deps');
  const key = `pc:${limit.name}:${clientIp(c)}${extraKey ? `:${extraKey}` : ''}`;
  const now = Date.now();
  const windowMs = limit.windowSeconds * 1000;
  const [row] = await queryRows<{ count: number; last_request: string }>(
    db,
    sql`insert into rate_limit (id, key, count, last_request) values (${key}, ${key}, 1, ${now})
        on conflict (key) do update set
          count = case when rate_limit.last_request < ${now - windowMs} then 1 else rate_limit.count + 1 end,
          last_request = case when rate_limit.last_request < ${now - windowMs} then ${now} else rate_limit.last_request end
        returning count, last_request`,
  );
  if (row && row.count > limit.max * config.rateLimitMultiplier) {
    const retryAfter = Math.max(1, Math.ceil((Number(row.last_request) + windowMs - now) / 1000));
    c.header('Retry-After', String(retryAfter));
    throw new AppError('rate_limited', AUTH_MESSAGES.tooManyAttempts);
  }
}
