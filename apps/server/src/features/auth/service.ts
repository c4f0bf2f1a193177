import { AUTH_MESSAGES, type CurrentUser } from '@pulsecheck/shared/auth/schemas';
import { APIError } from 'better-auth/api';
import { eq } from 'drizzle-orm';
import { canUseAdminArea, homeFor } from '../../auth/access';
import { session } from '../../db/schema/auth';
import { AppError, conflict, notFound } from '../../lib/app-error';
import type { AppDeps } from '../../lib/router';
import { findProfile, findUserByEmail, healthCheckExists, updateSignupProfile } from './queries';

type Deps = Pick<AppDeps, 'db' | 'auth' | 'logger'>;

/** The current user as the web app needs it: who, set-up state, active workspace and where home is. */
export async function getCurrentUser(deps: Pick<AppDeps, 'db'>, userId: string): Promise<CurrentUser> {
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
  };
}

async function createAccount(
  deps: Deps,
  options: { name: string; email: string; password: string; headers: Headers },
): Promise<void> {
  if (await findUserByEmail(deps.db, options.email)) throw conflict(AUTH_MESSAGES.accountExists);
  try {
    await deps.auth.api.signUpEmail({
      body: {
        name: options.name,
        email: options.email,
        password: options.password,
        callbackURL: '/auth/redirect',
      },
      headers: options.headers,
    });
  } catch (error) {
    if (error instanceof APIError) {
      deps.logger.warn({ err: error.message }, 'sign-up refused');
      throw new AppError('invalid', error.message || AUTH_MESSAGES.signupFailed);
    }
    throw error;
  }
}

export async function signUpAdmin(
  deps: Deps,
  options: {
    fullName: string;
    email: string;
    password: string;
    companyName: string;
    companySize: string;
    role: string;
    headers: Headers;
  },
) {
  await createAccount(deps, {
    name: options.fullName,
    email: options.email,
    password: options.password,
    headers: options.headers,
  });
  await updateSignupProfile(deps.db, options.email, {
    role: options.role,
    companyName: options.companyName,
    companySize: options.companySize,
    setupStatus: 'pending_setup',
  });
}

export async function signUpParticipant(
  deps: Deps,
  options: { fullName: string; email: string; password: string; healthCheckId: string; headers: Headers },
) {
  if (!(await healthCheckExists(deps.db, options.healthCheckId))) throw notFound('Health check not found');
  await createAccount(deps, {
    name: options.fullName,
    email: options.email,
    password: options.password,
    headers: options.headers,
  });
  await updateSignupProfile(deps.db, options.email, { pendingJoinHealthCheckId: options.healthCheckId });
}

/** Signs in; returns the user and the session cookies to set. */
export async function logIn(
  deps: Deps,
  options: { email: string; password: string; rememberMe: boolean; headers: Headers },
) {
  try {
    const { headers, response } = await deps.auth.api.signInEmail({
      body: { email: options.email, password: options.password, rememberMe: options.rememberMe },
      headers: options.headers,
      returnHeaders: true,
    });
    return { user: await getCurrentUser(deps, response.user.id), cookies: headers.getSetCookie() };
  } catch (error) {
    if (error instanceof APIError) {
      if (error.statusCode === 403)
        throw new AppError('email_not_confirmed', AUTH_MESSAGES.emailNotConfirmed);
      if (error.statusCode === 429) throw new AppError('rate_limited', AUTH_MESSAGES.tooManyAttempts);
      throw new AppError('unauthenticated', AUTH_MESSAGES.invalidCredentials);
    }
    throw error;
  }
}

/** Ends every session of the user (the spec's global sign-out) and returns the cookies that clear this one. */
export async function logOut(deps: Deps, options: { userId: string | undefined; headers: Headers }) {
  if (options.userId) await deps.db.delete(session).where(eq(session.userId, options.userId));
  try {
    const { headers } = await deps.auth.api.signOut({ headers: options.headers, returnHeaders: true });
    return headers.getSetCookie();
  } catch {
    return [];
  }
}

/** Always answers the same, whether or not the address has an account (PRODUCT-DECISIONS 6). */
export async function requestPasswordReset(deps: Deps, options: { email: string; headers: Headers }) {
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
}

export async function resetPassword(
  deps: Deps,
  options: { token: string; password: string; headers: Headers },
) {
  try {
    await deps.auth.api.resetPassword({
      body: { token: options.token, newPassword: options.password },
      headers: options.headers,
    });
  } catch (error) {
    if (error instanceof APIError)
      throw new AppError('invalid', AUTH_MESSAGES.resetLinkInvalid, {
        token: AUTH_MESSAGES.resetLinkInvalid,
      });
    throw error;
  }
}

/** Sends a new verification link when the address has an unverified account; answers the same otherwise. */
export async function resendVerification(deps: Deps, options: { email: string; headers: Headers }) {
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
}
