import { recordFailedSignIn, recordSignIn, type SignInMethod } from '../../audit/sign-ins';
import { HEALTH_CHECK_NOT_FOUND } from '@pulsecheck/shared/health-checks/rules';
import { randomUUID } from 'node:crypto';
import { type CurrentUser } from '@pulsecheck/shared/auth/schemas';
import { AUTH_MESSAGES } from '@pulsecheck/shared/auth/messages';
import { SECURITY_MESSAGES } from '@pulsecheck/shared/auth/security-messages';
import type { Mailed } from '@pulsecheck/shared/mail/delivery';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { APIError, createEmailVerificationToken } from 'better-auth/api';
import { eq } from 'drizzle-orm';
import { canUseAdminArea, homeFor } from '../../auth/access';
import { VERIFICATION_EXPIRES_SECONDS } from '../../auth/auth';
import { endOtherSignIns } from '../../auth/factor-change';
import { recordSignupCredential, SIGNUP_TOKEN_PARAM } from '../../auth/signup-credentials';
import { refuseReplayedCode } from '../../auth/two-factor';
import type { Db } from '../../db/client';
import { session, type SignupProfile } from '../../db/schema/auth';
import { AppError, notFound } from '../../lib/app-error';
import type { AppDeps } from '../../lib/router';
import { accessChanged } from '../../realtime/bus';
import { completePendingJoin } from '../participation/service';
import { refuseIfSsoRequired } from '../sso/service';
import { signupAttemptMail, verificationMail } from '../../mail/templates';
import { recipientLanguage } from '../../mail/language';
import { isLanguage, type Locale } from '@pulsecheck/shared/i18n/languages';
import {
  findProfile,
  findUserByEmail,
  healthCheckExists,
  insertUnverifiedUser,
  resetTokenOwner,
  mailQueuedSince,
} from './queries';

type Deps = Pick<AppDeps, 'db' | 'auth' | 'logger' | 'mailer'>;
type SignupDeps = Deps & Pick<AppDeps, 'config'>;

/**
 * The answer of an action that e-mails the address it was given: the same for every address, and honest about
 * the e-mail when the server runs with MAIL_DISABLED=true ('off': none was sent).
 */
const mailed = (deps: Pick<AppDeps, 'mailer'>): Mailed => ({
  ok: true,
  mail: deps.mailer.enabled ? 'sending' : 'off',
});

/**
 * The current user as the web app needs it: who, set-up state, active workspace, where home is, and whether
 * this server sends e-mail.
 */
export async function getCurrentUser(
  deps: Pick<AppDeps, 'db' | 'mailer'>,
  userId: string,
): Promise<CurrentUser> {
  const profile = await findProfile(deps.db, userId);
  if (!profile) throw new AppError('unauthenticated', AUTH_MESSAGES.noSession);
  return {
    id: profile.id,
    email: profile.email,
    name: profile.name,
    role: profile.role,
    setupStatus: profile.setupStatus,
    pendingJoinHealthCheckId: profile.pendingJoinHealthCheckId,
    activeWorkspaceId: profile.activeWorkspaceId ?? null,
    canAdmin: await canUseAdminArea(deps.db, userId),
    avatarUrl: profile.avatarId ? `/api/avatars/${profile.avatarId}` : null,
    home: await homeFor(deps.db, profile),
    mailEnabled: deps.mailer.enabled,
    mustEnrolTwoFactor: profile.twoFactorDue,
    language: isLanguage(profile.language) ? profile.language : null,
  };
}

/** At most one "someone tried to sign up" e-mail per address in this time. */
const SIGNUP_WARNING_EVERY_MS = 60 * 60 * 1000;

/** better-auth's verification link, plus this sign-up's token (auth/signup-credentials.ts). */
async function verificationLink(deps: Deps, options: { email: string; userId: string; token: string }) {
  const context = await deps.auth.$context;
  const jwt = await createEmailVerificationToken(
    context.secret,
    options.email,
    undefined,
    VERIFICATION_EXPIRES_SECONDS,
    { userId: options.userId },
  );
  const callbackURL = encodeURIComponent('/auth/redirect');
  return `${context.baseURL}/verify-email?token=${jwt}&callbackURL=${callbackURL}&${SIGNUP_TOKEN_PARAM}=${options.token}`;
}

/**
 * Both sign-ups (docs/security.md, "Sign-up"). The caller answers the same whatever happens here, and the work is
 * the same on every path (the password is hashed first, every time), so the answer does not tell whether the
 * address has an account:
 * - new address: an unverified account with this password, and a verification link bound to this sign-up;
 * - address of an unverified account: nothing changes now; this sign-up's credentials wait for its own link;
 * - address of a verified account: nothing changes; its owner is told by e-mail (at most once an hour).
 */
async function signUp(
  deps: SignupDeps,
  options: { name: string; email: string; password: string; profile: SignupProfile; language: Locale },
): Promise<void> {
  await refuseIfSsoRequired(deps.db, options.email);
  const context = await deps.auth.$context;
  const passwordHash = await context.password.hash(options.password);
  const newId = () => context.generateId({ model: 'user' }) || randomUUID();
  await deps.db.transaction(async (tx: Db) => {
    const createdId = await insertUnverifiedUser(tx, {
      userId: newId(),
      accountId: newId(),
      name: options.name,
      email: options.email,
      passwordHash,
      // The language the person signs up in is their choice until they make another (a pseudo-locale is none).
      language: isLanguage(options.language) ? options.language : null,
      ...options.profile,
    });
    const target = createdId
      ? { id: createdId, name: options.name, emailVerified: false, language: null }
      : await findUserByEmail(tx, options.email);
    if (!target) throw new AppError('internal', AUTH_MESSAGES.signupFailed);
    if (target.emailVerified) {
      deps.logger.info('sign-up for the address of a verified account');
      const since = new Date(Date.now() - SIGNUP_WARNING_EVERY_MS);
      if (await mailQueuedSince(tx, options.email, 'signup-attempt', since)) return;
      await deps.mailer.enqueue(
        {
          kind: 'signup-attempt',
          to: options.email,
          ...signupAttemptMail(
            target.name,
            deps.config.appUrl,
            options.profile.pendingJoinHealthCheckId ?? undefined,
            // To the account's owner, who may not be who asked: their choice, not the request's language.
            recipientLanguage({ language: target.language }),
          ),
        },
        tx,
      );
      return;
    }
    const token = await recordSignupCredential(tx, {
      userId: target.id,
      passwordHash,
      name: options.name,
      profile: options.profile,
      createdAccount: Boolean(createdId),
    });
    const url = await verificationLink(deps, { email: options.email, userId: target.id, token });
    await deps.mailer.enqueue(
      {
        kind: 'verify-email',
        to: options.email,
        ...verificationMail(
          options.name,
          url,
          recipientLanguage({ language: target.language, request: options.language }),
        ),
      },
      tx,
    );
  });
}

export async function signUpAdmin(
  deps: SignupDeps,
  options: {
    fullName: string;
    email: string;
    password: string;
    companyName: string;
    companySize: string;
    role: string;
    /** The language of the sign-up's request (mail/language.ts). */
    language: Locale;
  },
): Promise<Mailed> {
  await signUp(deps, {
    language: options.language,
    name: options.fullName,
    email: options.email,
    password: options.password,
    profile: {
      role: options.role,
      companyName: options.companyName,
      companySize: options.companySize,
      setupStatus: 'pending_setup',
      pendingJoinHealthCheckId: null,
    },
  });
  return mailed(deps);
}

export async function signUpParticipant(
  deps: SignupDeps,
  options: { fullName: string; email: string; password: string; healthCheckId: string; language: Locale },
): Promise<Mailed> {
  if (!(await healthCheckExists(deps.db, options.healthCheckId))) throw notFound(HEALTH_CHECK_NOT_FOUND);
  await signUp(deps, {
    language: options.language,
    name: options.fullName,
    email: options.email,
    password: options.password,
    profile: {
      role: null,
      companyName: null,
      companySize: null,
      setupStatus: null,
      pendingJoinHealthCheckId: options.healthCheckId,
    },
  });
  return mailed(deps);
}

/** The client's address, as authHeaders put it for better-auth. */
const ipOf = (headers: Headers) => headers.get('x-forwarded-for');

/** After any sign-in: a pending join completes, and the user as the web app needs them. */
async function signedIn(
  deps: Deps & Pick<AppDeps, 'realtime'>,
  userId: string,
  cookies: string[],
  how: { headers: Headers; method: SignInMethod },
) {
  await recordSignIn(deps.db, userId, { ip: ipOf(how.headers), method: how.method });
  const pending = (await findProfile(deps.db, userId))?.pendingJoinHealthCheckId;
  if (pending) await completePendingJoin(deps, { userId, healthCheckId: pending });
  return { user: await getCurrentUser(deps, userId), cookies };
}

/**
 * Signs in with the password; returns the user and the session cookies, or (two-factor on, device not trusted)
 * `twoFactorRequired` and the plugin's short-lived challenge cookie: POST /login/two-factor finishes it.
 */
export async function logIn(
  deps: Deps & Pick<AppDeps, 'realtime'>,
  options: { email: string; password: string; rememberMe: boolean; headers: Headers },
): Promise<{ user: CurrentUser; cookies: string[] } | { twoFactorRequired: true; cookies: string[] }> {
  await refuseIfSsoRequired(deps.db, options.email);
  try {
    const { headers, response } = await deps.auth.api.signInEmail({
      body: { email: options.email, password: options.password, rememberMe: options.rememberMe },
      headers: options.headers,
      returnHeaders: true,
    });
    if ('twoFactorRedirect' in response) return { twoFactorRequired: true, cookies: headers.getSetCookie() };
    return await signedIn(deps, response.user.id, headers.getSetCookie(), {
      headers: options.headers,
      method: 'password',
    });
  } catch (error) {
    if (error instanceof APIError) {
      if (error.statusCode === 403)
        throw new AppError('email_not_confirmed', AUTH_MESSAGES.emailNotConfirmed);
      if (error.statusCode === 429) throw new AppError('rate_limited', AUTH_MESSAGES.tooManyAttempts);
      await recordFailedSignIn(
        deps,
        { email: options.email },
        { ip: ipOf(options.headers), method: 'password' },
      );
      throw new AppError('unauthenticated', AUTH_MESSAGES.invalidCredentials);
    }
    throw error;
  }
}

/**
 * The second step of a password sign-in: a current code (used once: auth/two-factor.ts) or a recovery code
 * (the plugin spends it). A wrong code is an `unauthenticated` failure the caller counts against the account.
 */
export async function verifySecondStep(
  deps: Deps & Pick<AppDeps, 'realtime'>,
  options: {
    userId: string;
    kind: 'code' | 'recovery';
    code: string;
    trustDevice: boolean;
    headers: Headers;
  },
) {
  const { userId, code, trustDevice, headers } = options;
  const wrong =
    options.kind === 'code' ? SECURITY_MESSAGES.codeInvalid : SECURITY_MESSAGES.recoveryCodeInvalid;
  const method = options.kind === 'code' ? 'code' : 'recovery code';
  if (options.kind === 'code') await refuseReplayedCode(deps, userId, code);
  try {
    const body = { code, trustDevice };
    const result =
      options.kind === 'code'
        ? await deps.auth.api.verifyTOTP({ body, headers, returnHeaders: true })
        : await deps.auth.api.verifyBackupCode({ body, headers, returnHeaders: true });
    return await signedIn(deps, userId, result.headers.getSetCookie(), { headers, method });
  } catch (error) {
    if (!(error instanceof APIError)) throw error;
    const reason = (error.body as { code?: string } | undefined)?.code;
    if (reason === 'ACCOUNT_TEMPORARILY_LOCKED')
      throw new AppError('rate_limited', AUTH_MESSAGES.accountLocked);
    if (reason === 'INVALID_CODE' || reason === 'INVALID_BACKUP_CODE') {
      await recordFailedSignIn(deps, { id: userId }, { ip: ipOf(headers), method });
      throw new AppError('unauthenticated', wrong, { code: wrong });
    }
    // The challenge expired, was used up (5 tries) or never existed: start again with the password.
    throw new AppError('unauthenticated', SECURITY_MESSAGES.signInExpired);
  }
}

/** WebAuthn options for signing in with a passkey (the challenge rides in a signed cookie). */
export async function passkeyOptions(deps: Deps, headers: Headers) {
  const { headers: out, response } = await deps.auth.api.generatePasskeyAuthenticationOptions({
    headers,
    returnHeaders: true,
  });
  return { options: response as unknown as Record<string, unknown>, cookies: out.getSetCookie() };
}

/** Signs in with a passkey instead of password and code. */
export async function passkeySignIn(
  deps: Deps & Pick<AppDeps, 'realtime'>,
  options: { response: Record<string, unknown>; headers: Headers },
) {
  try {
    const { headers, response } = await deps.auth.api.verifyPasskeyAuthentication({
      // The browser's answer, checked by @simplewebauthn inside the plugin (a malformed one is refused there).
      body: { response: options.response as unknown as AuthenticationResponseJSON },
      headers: options.headers,
      returnHeaders: true,
    });
    // An organisation that requires SSO for its domains wants every sign-in to pass its identity provider (where
    // someone who left is switched off): a passkey does not get around it. The session just made goes again.
    try {
      await refuseIfSsoRequired(deps.db, response.user.email);
    } catch (refusal) {
      await deps.db.delete(session).where(eq(session.token, response.session.token));
      throw refusal;
    }
    return await signedIn(deps, response.user.id, headers.getSetCookie(), {
      headers: options.headers,
      method: 'passkey',
    });
  } catch (error) {
    if (error instanceof APIError)
      throw new AppError('unauthenticated', SECURITY_MESSAGES.passkeySignInFailed);
    throw error;
  }
}

/** Ends every session of the user (the spec's global sign-out) and returns the cookies that clear this one. */
export async function logOut(
  deps: Deps & Pick<AppDeps, 'realtime'>,
  options: { userId: string | undefined; headers: Headers },
) {
  if (options.userId) {
    await deps.db.delete(session).where(eq(session.userId, options.userId));
    await accessChanged(deps.realtime, options.userId);
  }
  try {
    const { headers } = await deps.auth.api.signOut({ headers: options.headers, returnHeaders: true });
    return headers.getSetCookie();
  } catch {
    return [];
  }
}

/** Always answers the same, whether or not the address has an account (PRODUCT-DECISIONS 6). */
export async function requestPasswordReset(
  deps: Deps,
  options: { email: string; headers: Headers },
): Promise<Mailed> {
  await refuseIfSsoRequired(deps.db, options.email);
  try {
    await deps.auth.api.requestPasswordReset({
      body: { email: options.email, redirectTo: '/reset-password' },
      headers: options.headers,
    });
  } catch (error) {
    deps.logger.warn(
      { err: error instanceof Error ? error.message : error },
      'password reset request failed',
    );
  }
  return mailed(deps);
}

/**
 * Sets the new password. A factor changed (auth/factor-change.ts): every session of the user and every trusted
 * device ends (better-auth ends the sessions too), their live streams close, and with `removePasskeys` their
 * passkeys go.
 */
export async function resetPassword(
  deps: Deps & Pick<AppDeps, 'realtime'>,
  options: { token: string; password: string; removePasskeys: boolean; headers: Headers },
) {
  try {
    const userId = await resetTokenOwner(deps.db, options.token);
    await deps.auth.api.resetPassword({
      body: { token: options.token, newPassword: options.password },
      headers: options.headers,
    });
    if (userId) await endOtherSignIns(deps, { userId, keep: null, passkeys: options.removePasskeys });
  } catch (error) {
    if (error instanceof APIError)
      throw new AppError('invalid', AUTH_MESSAGES.resetLinkInvalid, {
        token: AUTH_MESSAGES.resetLinkInvalid,
      });
    throw error;
  }
}

/** Sends a new verification link when the address has an unverified account; answers the same otherwise. */
export async function resendVerification(
  deps: Deps,
  options: { email: string; headers: Headers },
): Promise<Mailed> {
  try {
    await deps.auth.api.sendVerificationEmail({
      body: { email: options.email, callbackURL: '/auth/redirect' },
      headers: options.headers,
    });
  } catch (error) {
    deps.logger.info(
      { err: error instanceof Error ? error.message : error },
      'verification e-mail not re-sent',
    );
  }
  return mailed(deps);
}
