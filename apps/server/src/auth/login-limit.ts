import { recipientLanguage } from '../mail/language';
import { AUTH_MESSAGES } from '@pulsecheck/shared/auth/messages';
import type { Context } from 'hono';
import { eq } from 'drizzle-orm';
import { first } from '../db/client';
import { user } from '../db/schema/auth';
import { AppError } from '../lib/app-error';
import { countHit, LIMITS, loginAccountKey, releaseHit } from '../lib/rate-limit';
import type { AppDeps, AppEnv } from '../lib/router';
import { accountLockedMail } from '../mail/templates';

/**
 * A refusal that counts as a failed sign-in in `limitFailedLogins` whatever its status: a wrong password or code
 * given to confirm something that cannot be undone (auth/confirm-identity.ts answers it as a 400 on the field).
 */
export class FailedAttempt extends AppError {}

/**
 * The per-account sign-in limit (ASVS V6.3.1), which no rotation of client addresses avoids: at most
 * LIMITS.loginAccount.max failed sign-ins per account (the normalised e-mail, whether or not it has an account,
 * so the answer never tells which addresses exist) in a fixed window of 15 minutes, counted in PostgreSQL for
 * every process. The failure that reaches the limit pauses sign-in for the rest of the window, even with the
 * right password, and e-mails the owner once; nothing locks for good: the window ends by itself and a password
 * reset clears it (auth/auth.ts). The second step of a sign-in, the Security tab's code checks and the proof
 * asked before deleting an account or an organisation count here too.
 *
 * Every attempt takes its place in the count before the password is checked, so concurrent attempts cannot
 * slip past the limit; an attempt that does not fail on the password gives its place back.
 */
export async function limitFailedLogins<T>(
  c: Context<AppEnv>,
  email: string,
  attempt: () => Promise<T>,
  options: { pausedMessage?: string } = {},
): Promise<T> {
  const deps = c.get('deps');
  const { max: perWindow, windowSeconds } = LIMITS.loginAccount;
  const max = perWindow * deps.config.rateLimitMultiplier;
  const key = loginAccountKey(email);
  const hit = await countHit(deps.db, key, windowSeconds);
  const paused = () => {
    c.header('Retry-After', String(hit.retryAfterSeconds));
    return new AppError('rate_limited', options.pausedMessage ?? AUTH_MESSAGES.accountLocked);
  };
  if (hit.count > max) throw paused();
  let result: T;
  try {
    result = await attempt();
  } catch (error) {
    if (!(
      error instanceof AppError &&
      (error.code === 'unauthenticated' || error instanceof FailedAttempt)
    )) {
      await releaseHit(deps.db, key);
      throw error;
    }
    if (hit.count < max) throw error;
    await tellOwner(deps, email, max, Math.ceil(windowSeconds / 60));
    throw paused();
  }
  await releaseHit(deps.db, key);
  return result;
}

async function tellOwner(deps: AppDeps, email: string, failures: number, minutes: number) {
  const owner = await first(
    deps.db
      .select({ email: user.email, name: user.name, language: user.language })
      .from(user)
      .where(eq(user.email, email.trim().toLowerCase())),
  );
  if (!owner) return;
  await deps.mailer.enqueue({
    kind: 'account-locked',
    to: owner.email,
    ...accountLockedMail({
      name: owner.name,
      failures,
      minutes,
      url: `${deps.config.appUrl}/login`,
      // Whoever failed to sign in may not be the owner: the owner's choice, not the request's language.
      locale: recipientLanguage({ language: owner.language }),
    }),
  });
  deps.logger.warn({ failures }, 'sign-in paused for an account after too many failed attempts');
}
