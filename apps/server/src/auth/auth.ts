import { passkey as passkeyPlugin } from '@better-auth/passkey';
import { TRUST_DEVICE_DAYS, RECOVERY_CODE_COUNT } from '@pulsecheck/shared/auth/security-messages';
import { betterAuth } from 'better-auth';
import { APIError } from 'better-auth/api';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { tryGetCurrentAuthEndpointContext } from '@better-auth/core/context';
import { eq } from 'drizzle-orm';
import { twoFactor as twoFactorPlugin } from 'better-auth/plugins/two-factor';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { account, passkey, rateLimit, session, twoFactor, user, verification } from '../db/schema/auth';
import { clearHits, loginAccountKey } from '../lib/rate-limit';
import { lazily } from '../lib/lazy';
import type { Mailer } from '../mail/mailer';
import { languageOfRequest, recipientLanguage } from '../mail/language';
import { resetPasswordMail, verificationMail } from '../mail/templates';
import { gateCalls, gated } from './async-storage';
import { takePasskeyGrant } from './passkey-grant';
import { settleSignupOnVerification, signupTokenOf } from './signup-credentials';
import { sharedAuthOptions } from './options';
import type { SsoAuth } from './sso-auth';

export { SESSION_DAYS, SESSION_UPDATE_AGE_SECONDS } from './options';
export const VERIFICATION_EXPIRES_SECONDS = 60 * 60 * 24;
/** The codes of the passkey plugin's refusals that are ours (features/security/service.ts words them). */
export const PASSKEY_REFUSALS = {
  userVerification: 'USER_VERIFICATION_REQUIRED',
  noProof: 'PASSKEY_PROOF_REQUIRED',
} as const;

/**
 * better-auth: e-mail and password, verification, reset, sessions and its rate limiter in the database; the
 * two-factor plugin (authenticator app and recovery codes) and the passkey plugin (WebAuthn, relying party = the
 * host of APP_URL). Our own routes (features/auth, features/security) call it; only the e-mailed link targets
 * are exposed over HTTP. `sso` is the instance for organisation single sign-on (auth/sso-auth.ts, decision 0010).
 */
export function createAuth(options: { config: Config; db: Db; mailer: Mailer }) {
  const { config, db, mailer } = options;
  const scale = config.rateLimitMultiplier;
  const shared = sharedAuthOptions(config);
  /**
   * The language of an e-mail better-auth sends (reset, resend of the verification): always to the person who asked,
   * so their stored choice, else the language of their request (its headers, whether it came through the handler or
   * one of our routes' calls), else English.
   */
  const languageOfAsker = async (userId: string, request: Request | undefined) => {
    const [row] = await db.select({ language: user.language }).from(user).where(eq(user.id, userId));
    const headers = request?.headers ?? tryGetCurrentAuthEndpointContext()?.headers;
    return recipientLanguage({ language: row?.language, request: languageOfRequest(headers, config) });
  };
  const auth = betterAuth({
    ...shared,
    trustedOrigins: [config.appUrl],
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user, session, account, verification, rateLimit, twoFactor, passkey },
    }),
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      resetPasswordTokenExpiresIn: 60 * 60,
      revokeSessionsOnPasswordReset: true,
      // A new password ends the pause of the per-account sign-in limit (auth/login-limit.ts).
      onPasswordReset: async ({ user: u }) => {
        await clearHits(db, loginAccountKey(u.email));
      },
      sendResetPassword: async ({ user: u, url }, request) => {
        const language = await languageOfAsker(u.id, request);
        await mailer.enqueue({
          kind: 'reset-password',
          to: u.email,
          ...resetPasswordMail(u.name, url, language),
        });
      },
    },
    emailVerification: {
      // Sign-up (features/auth) sends its own link, which carries the sign-up's token; this one is for resends.
      sendOnSignUp: false,
      sendOnSignIn: false,
      autoSignInAfterVerification: true,
      expiresIn: VERIFICATION_EXPIRES_SECONDS,
      sendVerificationEmail: async ({ user: u, url }, request) => {
        const language = await languageOfAsker(u.id, request);
        await mailer.enqueue({
          kind: 'verify-email',
          to: u.email,
          ...verificationMail(u.name, url, language),
        });
      },
      // Whoever follows the link controls the mailbox: the sign-up it names gets the account (signup-credentials.ts).
      beforeEmailVerification: async (u, request) => {
        await settleSignupOnVerification(db, u.id, signupTokenOf(request));
      },
    },
    plugins: [
      twoFactorPlugin({
        issuer: 'Pulsecheck',
        trustDeviceMaxAge: TRUST_DEVICE_DAYS * 24 * 60 * 60,
        backupCodeOptions: { amount: RECOVERY_CODE_COUNT, length: 10 },
      }),
      passkeyPlugin({
        rpID: new URL(config.appUrl).hostname,
        rpName: 'Pulsecheck',
        origin: config.appUrl,
        // The device must check that it is its owner (PIN, fingerprint, face), not only that someone touched it.
        authenticatorSelection: { userVerification: 'required' },
        registration: {
          // The plugin verifies with `requireUserVerification: false` whatever the options asked, so it is
          // checked here, before anything is saved; and the registration must be the one a proof was given for.
          afterVerification: async ({ verification: { registrationInfo }, user: owner, clientData }) => {
            if (!registrationInfo?.userVerified)
              throw new APIError('BAD_REQUEST', { code: PASSKEY_REFUSALS.userVerification });
            if (!(await takePasskeyGrant(db, owner.id, clientData.response.clientDataJSON)))
              throw new APIError('FORBIDDEN', { code: PASSKEY_REFUSALS.noProof });
          },
        },
      }),
    ],
    rateLimit: {
      enabled: true,
      storage: 'database',
      modelName: 'rateLimit',
      window: 60,
      max: 100 * scale,
    },
  });
  return Object.assign(gatedAuth(auth), { sso: lazySsoAuth(options) });
}

/**
 * The single sign-on instance, made on its first use: @better-auth/sso brings SAML and XML libraries (about a third
 * of the server's code) that most servers never run, so they are not read at every start (bench/README, start-up).
 */
function lazySsoAuth(options: { config: Config; db: Db }): Pick<SsoAuth, 'handler'> {
  // A failed load is not kept (lib/lazy.ts): the next request tries again.
  const load = lazily(() =>
    import('./sso-auth').then(({ createSsoAuth }) => gatedAuth(createSsoAuth(options))),
  );
  return { handler: async (request) => (await load()).handler(request) };
}

/**
 * A better-auth instance whose calls go through `gated` (auth/async-storage.ts): its endpoints, its handler and
 * its context's database adapter, the three ways our code reaches into it.
 */
function gatedAuth<
  A extends { api: object; handler: (request: Request) => Promise<Response>; $context: Promise<object> },
>(auth: A): A {
  const { handler } = auth;
  return Object.assign(auth, {
    api: gateCalls(auth.api),
    handler: (request: Request) => gated(() => handler(request)),
    $context: auth.$context.then(
      (context) =>
        new Proxy(context, {
          get: (target, key, receiver) => {
            const value: unknown = Reflect.get(target, key, receiver);
            return key === 'internalAdapter' && value && typeof value === 'object' ? gateCalls(value) : value;
          },
        }),
    ),
  });
}

export type Auth = ReturnType<typeof createAuth>;
