import { languageOfRequest } from '../../mail/language';
import {
  adminSignupSchema,
  forgotPasswordSchema,
  loginResponseSchema,
  loginSchema,
  meResponseSchema,
  okSchema,
  participantSignupSchema,
  resendVerificationSchema,
  resetPasswordSchema,
  signedInSchema,
} from '@pulsecheck/shared/auth/schemas';
import {
  passkeySignInSchema,
  recoverySignInSchema,
  twoFactorSignInSchema,
  webAuthnJsonSchema,
} from '@pulsecheck/shared/auth/security';
import { SECURITY_MESSAGES } from '@pulsecheck/shared/auth/security-messages';
import { mailedSchema } from '@pulsecheck/shared/mail/contract';
import type { Context } from 'hono';
import { currentUser, setCookies, signedCookie } from '../../auth/session';
import { pendingSignIn } from '../../auth/two-factor';
import { AppError } from '../../lib/app-error';
import type { AppEnv } from '../../lib/router';
import { authHeaders } from '../../lib/client-ip';
import { routes } from '../../lib/openapi';
import { enforceLimit, LIMITS } from '../../lib/rate-limit';
import { limitFailedLogins } from '../../auth/login-limit';
import * as service from './service';

const CHECK_YOUR_EMAIL = 'Check your e-mail (whether or not the address has an account)';

/**
 * The second step of a password sign-in, for the person its challenge cookie names; wrong codes count against
 * their account exactly as wrong passwords do (auth/login-limit.ts), on top of the plugin's own lock-out.
 */
async function secondStep(
  c: Context<AppEnv>,
  kind: 'code' | 'recovery',
  input: { code: string; trustDevice: boolean },
) {
  const deps = c.get('deps');
  await enforceLimit(c, LIMITS.login);
  const pending = await pendingSignIn(deps, signedCookie(c, 'two_factor'));
  if (!pending) throw new AppError('unauthenticated', SECURITY_MESSAGES.signInExpired);
  const { user, cookies } = await limitFailedLogins(c, pending.email, () =>
    service.verifySecondStep(deps, { userId: pending.id, kind, ...input, headers: authHeaders(c) }),
  );
  setCookies(c, cookies);
  return c.json({ user }, 200);
}

// Every route here is public and rate-limited, so each has a handler of its own.
export const authRoutes = routes('auth')
  .handle(
    'post /signup',
    'Admin sign-up; e-mails the address a verification link (or, when it already has an account, a warning); the same answer either way',
    { public: true, body: adminSignupSchema, ok: [201, mailedSchema, CHECK_YOUR_EMAIL], errors: [429] },
    async (c) => {
      await enforceLimit(c, LIMITS.signup);
      const { acceptTerms: _terms, confirmPassword: _confirm, ...input } = c.req.valid('json');
      const language = languageOfRequest(c.req.raw.headers, c.get('deps').config);
      return c.json(await service.signUpAdmin(c.get('deps'), { ...input, language }), 201);
    },
  )
  .handle(
    'post /signup/participant',
    'Participant sign-up for a health check; e-mails a verification link (or a warning to an existing account); the same answer either way',
    {
      public: true,
      body: participantSignupSchema,
      ok: [201, mailedSchema, CHECK_YOUR_EMAIL],
      errors: [404, 429],
    },
    async (c) => {
      await enforceLimit(c, LIMITS.signup);
      const language = languageOfRequest(c.req.raw.headers, c.get('deps').config);
      return c.json(
        await service.signUpParticipant(c.get('deps'), { ...c.req.valid('json'), language }),
        201,
      );
    },
  )
  .handle(
    'post /login',
    'Sign in with e-mail and password',
    {
      public: true,
      body: loginSchema,
      ok: [200, loginResponseSchema, 'Signed in, or the second step is needed'],
      errors: [401, 403, 429],
    },
    async (c) => {
      const input = c.req.valid('json');
      await enforceLimit(c, LIMITS.login);
      const { cookies, ...answer } = await limitFailedLogins(c, input.email, () =>
        service.logIn(c.get('deps'), { ...input, headers: authHeaders(c) }),
      );
      setCookies(c, cookies);
      return c.json(answer, 200);
    },
  )
  .handle(
    'post /login/two-factor',
    'Second step of a sign-in: a current code from the authenticator app (optionally trusting this device for 30 days)',
    { public: true, body: twoFactorSignInSchema, ok: [200, signedInSchema, 'Signed in'], errors: [401, 429] },
    (c) => secondStep(c, 'code', c.req.valid('json')),
  )
  .handle(
    'post /login/recovery-code',
    'Second step of a sign-in with one of the recovery codes (each works once)',
    { public: true, body: recoverySignInSchema, ok: [200, signedInSchema, 'Signed in'], errors: [401, 429] },
    (c) => secondStep(c, 'recovery', c.req.valid('json')),
  )
  .handle(
    'post /login/passkey/options',
    'WebAuthn options to sign in with a passkey (the challenge is kept in a signed cookie)',
    { public: true, ok: [200, webAuthnJsonSchema, 'Request options'], errors: [429] },
    async (c) => {
      await enforceLimit(c, LIMITS.login);
      const { options, cookies } = await service.passkeyOptions(c.get('deps'), authHeaders(c));
      setCookies(c, cookies);
      return c.json(options, 200);
    },
  )
  .handle(
    'post /login/passkey',
    'Sign in with a passkey instead of password and code',
    {
      public: true,
      body: passkeySignInSchema,
      ok: [200, signedInSchema, 'Signed in'],
      errors: [401, 403, 429],
    },
    async (c) => {
      await enforceLimit(c, LIMITS.login);
      const input = { ...c.req.valid('json'), headers: authHeaders(c) };
      const { user, cookies } = await service.passkeySignIn(c.get('deps'), input);
      setCookies(c, cookies);
      return c.json({ user }, 200);
    },
  )
  .handle(
    'post /logout',
    "End all of the user's sessions",
    { public: true, ok: [200, okSchema, 'Done'] },
    async (c) => {
      const user = await currentUser(c);
      setCookies(c, await service.logOut(c.get('deps'), { userId: user?.id, headers: authHeaders(c) }));
      return c.json({ ok: true as const }, 200);
    },
  )
  .handle(
    'post /password/forgot',
    'E-mail a password reset link (same answer whether or not the address has an account)',
    { public: true, body: forgotPasswordSchema, ok: [200, mailedSchema, 'Done'], errors: [429] },
    async (c) => {
      await enforceLimit(c, LIMITS.forgotPassword);
      const input = { ...c.req.valid('json'), headers: authHeaders(c) };
      return c.json(await service.requestPasswordReset(c.get('deps'), input), 200);
    },
  )
  .handle(
    'post /password/reset',
    'Set a new password with the token of the e-mailed link; every session and trusted device ends, and the passkeys with `removePasskeys`',
    { public: true, body: resetPasswordSchema, ok: [200, okSchema, 'Done'], errors: [429] },
    async (c) => {
      await service.resetPassword(c.get('deps'), { ...c.req.valid('json'), headers: authHeaders(c) });
      return c.json({ ok: true as const }, 200);
    },
  )
  .handle(
    'post /verification/resend',
    'Send a new verification link',
    { public: true, body: resendVerificationSchema, ok: [200, mailedSchema, 'Done'], errors: [429] },
    async (c) => {
      const { email } = c.req.valid('json');
      await enforceLimit(c, LIMITS.resendVerification, email);
      return c.json(await service.resendVerification(c.get('deps'), { email, headers: authHeaders(c) }), 200);
    },
  )
  .call(
    'get /me',
    'The signed-in user',
    { ok: [200, meResponseSchema, 'The signed-in user'] },
    async (deps, { userId }) => ({ user: await service.getCurrentUser(deps, userId) }),
  ).router;
