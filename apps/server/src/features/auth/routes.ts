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
} from '@pulsecheck/shared/auth/schemas';
import { mailedSchema } from '@pulsecheck/shared/mail/contract';
import { currentUser, setCookies } from '../../auth/session';
import { authHeaders } from '../../lib/client-ip';
import { routes } from '../../lib/openapi';
import { enforceLimit, LIMITS } from '../../lib/rate-limit';
import { limitFailedLogins } from './login-limit';
import * as service from './service';

const CHECK_YOUR_EMAIL = 'Check your e-mail (whether or not the address has an account)';

// Every route here is public and rate-limited, so each has a handler of its own.
export const authRoutes = routes('auth')
  .handle(
    'post /signup',
    'Admin sign-up; e-mails the address a verification link (or, when it already has an account, a warning); the same answer either way',
    { body: adminSignupSchema, ok: [201, mailedSchema, CHECK_YOUR_EMAIL], errors: [429] },
    async (c) => {
      await enforceLimit(c, LIMITS.signup);
      const { acceptTerms: _terms, confirmPassword: _confirm, ...input } = c.req.valid('json');
      return c.json(await service.signUpAdmin(c.get('deps'), input), 201);
    },
  )
  .handle(
    'post /signup/participant',
    'Participant sign-up for a health check; e-mails a verification link (or a warning to an existing account); the same answer either way',
    { body: participantSignupSchema, ok: [201, mailedSchema, CHECK_YOUR_EMAIL], errors: [404, 429] },
    async (c) => {
      await enforceLimit(c, LIMITS.signup);
      return c.json(await service.signUpParticipant(c.get('deps'), c.req.valid('json')), 201);
    },
  )
  .handle(
    'post /login',
    'Sign in with e-mail and password',
    { body: loginSchema, ok: [200, loginResponseSchema, 'Signed in'], errors: [401, 403, 429] },
    async (c) => {
      const input = c.req.valid('json');
      await enforceLimit(c, LIMITS.login);
      const { user, cookies } = await limitFailedLogins(c, input.email, () =>
        service.logIn(c.get('deps'), { ...input, headers: authHeaders(c) }),
      );
      setCookies(c, cookies);
      return c.json({ user }, 200);
    },
  )
  .handle('post /logout', "End all of the user's sessions", { ok: [200, okSchema, 'Done'] }, async (c) => {
    const user = await currentUser(c);
    setCookies(c, await service.logOut(c.get('deps'), { userId: user?.id, headers: authHeaders(c) }));
    return c.json({ ok: true as const }, 200);
  })
  .handle(
    'post /password/forgot',
    'E-mail a password reset link (same answer whether or not the address has an account)',
    { body: forgotPasswordSchema, ok: [200, mailedSchema, 'Done'], errors: [429] },
    async (c) => {
      await enforceLimit(c, LIMITS.forgotPassword);
      const input = { ...c.req.valid('json'), headers: authHeaders(c) };
      return c.json(await service.requestPasswordReset(c.get('deps'), input), 200);
    },
  )
  .handle(
    'post /password/reset',
    'Set a new password with the token of the e-mailed link',
    { body: resetPasswordSchema, ok: [200, okSchema, 'Done'], errors: [429] },
    async (c) => {
      await service.resetPassword(c.get('deps'), { ...c.req.valid('json'), headers: authHeaders(c) });
      return c.json({ ok: true as const }, 200);
    },
  )
  .handle(
    'post /verification/resend',
    'Send a new verification link',
    { body: resendVerificationSchema, ok: [200, mailedSchema, 'Done'], errors: [429] },
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
