import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { account, rateLimit, session, user, verification } from '../db/schema/auth';
import { clearHits, loginAccountKey } from '../lib/rate-limit';
import type { Mailer } from '../mail/mailer';
import { resetPasswordMail, verificationMail } from '../mail/templates';
import { settleSignupOnVerification, signupTokenOf } from './signup-credentials';

export const SESSION_DAYS = 30;
export const VERIFICATION_EXPIRES_SECONDS = 60 * 60 * 24;
/** How often a session's expiry slides forward. */
export const SESSION_UPDATE_AGE_SECONDS = 60 * 60 * 24;

/**
 * better-auth: e-mail and password, verification, reset, sessions and its rate limiter in the database.
 * Our own routes (features/auth) call it; only the e-mailed link targets are exposed over HTTP.
 */
export function createAuth(options: { config: Config; db: Db; mailer: Mailer }) {
  const { config, db, mailer } = options;
  const secure = config.appUrl.startsWith('https://');
  const scale = config.rateLimitMultiplier;
  return betterAuth({
    appName: 'Pulsecheck',
    baseURL: config.appUrl,
    basePath: '/api/auth',
    secret: config.authSecret,
    trustedOrigins: [config.appUrl],
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user, session, account, verification, rateLimit },
    }),
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      // A new password ends the pause of the per-account sign-in limit (features/auth/login-limit.ts).
      onPasswordReset: async ({ user: u }) => {
        await clearHits(db, loginAccountKey(u.email));
      },
      sendResetPassword: async ({ user: u, url }) => {
        await mailer.enqueue({ kind: 'reset-password', to: u.email, ...resetPasswordMail(u.name, url) });
      },
    },
    emailVerification: {
      // Sign-up (features/auth) sends its own link, which carries the sign-up's token; this one is for resends.
      sendOnSignUp: false,
      sendOnSignIn: false,
      autoSignInAfterVerification: true,
      expiresIn: VERIFICATION_EXPIRES_SECONDS,
      sendVerificationEmail: async ({ user: u, url }) => {
        await mailer.enqueue({ kind: 'verify-email', to: u.email, ...verificationMail(u.name, url) });
      },
      // Whoever follows the link controls the mailbox: the sign-up it names gets the account (signup-credentials.ts).
      beforeEmailVerification: async (u, request) => {
        await settleSignupOnVerification(db, u.id, signupTokenOf(request));
      },
    },
    session: {
      expiresIn: 60 * 60 * 24 * SESSION_DAYS,
      updateAge: SESSION_UPDATE_AGE_SECONDS,
    },
    rateLimit: {
      enabled: true,
      storage: 'database',
      modelName: 'rateLimit',
      window: 60,
      max: 100 * scale,
    },
    advanced: {
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure },
      ipAddress: { ipAddressHeaders: ['x-forwarded-for'] },
    },
    telemetry: { enabled: false },
  });
}

export type Auth = ReturnType<typeof createAuth>;
