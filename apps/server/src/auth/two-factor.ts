import { createOTP } from '@better-auth/utils/otp';
import { SECURITY_MESSAGES } from '@pulsecheck/shared/auth/security-messages';
import { symmetricDecrypt } from 'better-auth/crypto';
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { first } from '../db/client';
import { twoFactor, user, verification } from '../db/schema/auth';
import { AppError } from '../lib/app-error';
import type { AppDeps } from '../lib/router';

/** The code's period (RFC 6238), as better-auth's two-factor plugin uses it. */
const PERIOD_SECONDS = 30;
/** One step of clock skew either way, as the plugin accepts. */
const SKEW_STEPS = 1;

type Deps = Pick<AppDeps, 'db' | 'auth'>;

/**
 * The time step (floor(unix time / 30)) among now ± one whose code is `code` for the user's authenticator key,
 * or null when none is. The plugin verifies codes itself; this tells which step a code belongs to, so that it
 * can be used only once.
 */
async function stepOf(deps: Deps, userId: string, code: string): Promise<number | null> {
  const row = await first(
    deps.db.select({ secret: twoFactor.secret }).from(twoFactor).where(eq(twoFactor.userId, userId)),
  );
  if (!row) return null;
  const context = await deps.auth.$context;
  const otp = createOTP(await symmetricDecrypt({ key: context.secretConfig, data: row.secret }));
  const now = Math.floor(Date.now() / 1000 / PERIOD_SECONDS);
  for (let step = now - SKEW_STEPS; step <= now + SKEW_STEPS; step += 1) {
    if ((await otp.hotp(step)) === code) return step;
  }
  return null;
}

/**
 * RFC 6238 §5.2: a code is accepted once. Claims the code's time step for the user (atomically: only a step later
 * than the last one accepted), so a code replayed within its window, or an older one after a newer was used, is
 * refused. 'wrong': the code matches no step now (the plugin then counts the failure); 'replayed': its step was
 * already used; 'fresh': claimed.
 */
async function claimCode(deps: Deps, userId: string, code: string) {
  const step = await stepOf(deps, userId, code);
  if (step === null) return 'wrong' as const;
  const claimed = await deps.db
    .update(twoFactor)
    .set({ lastTotpStep: step })
    .where(
      and(eq(twoFactor.userId, userId), or(isNull(twoFactor.lastTotpStep), lt(twoFactor.lastTotpStep, step))),
    )
    .returning({ id: twoFactor.id });
  return claimed.length > 0 ? ('fresh' as const) : ('replayed' as const);
}

/** Whether `code` is the user's current authenticator code, not used before (it is then used up). */
export async function authenticatorCodeValid(deps: Deps, userId: string, code: string): Promise<boolean> {
  return (await claimCode(deps, userId, code)) === 'fresh';
}

/**
 * Refuses a code used before (`claimCode`) as a failure of the account (the caller counts it); a code that
 * matches no step goes on to the plugin, which refuses it and counts it in its own lock-out.
 */
export async function refuseReplayedCode(deps: Deps, userId: string, code: string) {
  if ((await claimCode(deps, userId, code)) === 'replayed')
    throw new AppError('unauthenticated', SECURITY_MESSAGES.codeReplayed, {
      code: SECURITY_MESSAGES.codeReplayed,
    });
}

/**
 * Who is half-way through signing in: the password was right and the plugin's signed `two_factor` cookie names
 * its challenge (a verification row holding the user's id). Null when there is none or it expired.
 */
export async function pendingSignIn(deps: Pick<AppDeps, 'db'>, challenge: string | null) {
  if (!challenge) return null;
  return (
    (await first(
      deps.db
        .select({ id: user.id, email: user.email })
        .from(verification)
        .innerJoin(user, eq(user.id, verification.value))
        .where(eq(verification.identifier, challenge)),
    )) ?? null
  );
}
