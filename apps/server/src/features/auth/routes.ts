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
import type { Context } from 'hono';
import { currentUser, requireUser } from '../../auth/session';
import { authHeaders } from '../../lib/client-ip';
import { routesOf } from '../../lib/openapi';
import { enforceLimit, LIMITS } from '../../lib/rate-limit';
import { createRouter, type AppEnv } from '../../lib/router';
import { limitFailedLogins } from './login-limit';
import * as service from './service';

const route = routesOf('auth');

function setCookies(c: Context<AppEnv>, cookies: string[]) {
  for (const cookie of cookies) c.header('Set-Cookie', cookie, { append: true });
}

export const authRoutes = createRouter()
  .openapi(
    route(
      'post /signup',
      'Admin sign-up; e-mails the address a verification link (or, when it already has an account, a warning); the same answer either way',
      {
        body: adminSignupSchema,
        ok: [201, okSchema, 'Check your e-mail (whether or not the address has an account)'],
        errors: [400, 429],
      },
    ),
    async (c) => {
      await enforceLimit(c, LIMITS.signup);
      const { acceptTerms: _terms, confirmPassword: _confirm, ...input } = c.req.valid('json');
      await service.signUpAdmin(c.get('deps'), input);
      return c.json({ ok: true as const }, 201);
    },
  )
  .openapi(
    route(
      'post /signup/participant',
      'Participant sign-up for a health check; e-mails a verification link (or a warning to an existing account); the same answer either way',
      {
        body: participantSignupSchema,
        ok: [201, okSchema, 'Check your e-mail (whether or not the address has an account)'],
        errors: [400, 404, 429],
      },
    ),
    async (c) => {
      await enforceLimit(c, LIMITS.signup);
      await service.signUpParticipant(c.get('deps'), c.req.valid('json'));
      return c.json({ ok: true as const }, 201);
    },
  )
  .openapi(
    route('post /login', 'Sign in with e-mail and password', {
      body: loginSchema,
      ok: [200, loginResponseSchema, 'Signed in'],
      errors: [400, 401, 403, 429],
    }),
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
  .openapi(
    route('post /logout', "End all of the user's sessions", { ok: [200, okSchema, 'Done'] }),
    async (c) => {
      const user = await currentUser(c);
      setCookies(c, await service.logOut(c.get('deps'), { userId: user?.id, headers: authHeaders(c) }));
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route(
      'post /password/forgot',
      'E-mail a password reset link (same answer whether or not the address has an account)',
      { body: forgotPasswordSchema, ok: [200, okSchema, 'Done'], errors: [400, 429] },
    ),
    async (c) => {
      await enforceLimit(c, LIMITS.forgotPassword);
      await service.requestPasswordReset(c.get('deps'), {
        email: c.req.valid('json').email,
        headers: authHeaders(c),
      });
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('post /password/reset', 'Set a new password with the token of the e-mailed link', {
      body: resetPasswordSchema,
      ok: [200, okSchema, 'Done'],
      errors: [400, 429],
    }),
    async (c) => {
      const { token, password } = c.req.valid('json');
      await service.resetPassword(c.get('deps'), { token, password, headers: authHeaders(c) });
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('post /verification/resend', 'Send a new verification link', {
      body: resendVerificationSchema,
      ok: [200, okSchema, 'Done'],
      errors: [400, 429],
    }),
    async (c) => {
      const { email } = c.req.valid('json');
      await enforceLimit(c, LIMITS.resendVerification, email);
      await service.resendVerification(c.get('deps'), { email, headers: authHeaders(c) });
      return c.json({ ok: true as const }, 200);
    },
  )
  .openapi(
    route('get /me', 'The signed-in user', {
      ok: [200, meResponseSchema, 'The signed-in user'],
      errors: [401],
    }),
    async (c) => {
      const user = await requireUser(c);
      return c.json({ user: await service.getCurrentUser(c.get('deps'), user.id) }, 200);
    },
  );
