import {
  addPasskeySchema,
  codeOnlySchema,
  enrolmentSchema,
  organizationSecuritySchema,
  passkeyOptionsSchema,
  passkeySchema,
  passwordAndCodeSchema,
  passwordOnlySchema,
  recoveryCodesSchema,
  securityStatusSchema,
  webAuthnJsonSchema,
} from '@pulsecheck/shared/auth/security';
import { okSchema } from '@pulsecheck/shared/auth/schemas';
import type { Context } from 'hono';
import { DELETION_MESSAGES } from '@pulsecheck/shared/account/deletion';
import { requireUser, setCookies, signedSessionToken } from '../../auth/session';
import { authHeaders } from '../../lib/client-ip';
import { routes } from '../../lib/openapi';
import type { AppEnv } from '../../lib/router';
import { limitFailedLogins } from '../../auth/login-limit';
import * as service from './service';

/** The signed-in caller with their session's token and the headers better-auth needs (cookie, address). */
async function caller(c: Context<AppEnv>) {
  const user = await requireUser(c);
  return {
    user,
    input: { userId: user.id, sessionToken: signedSessionToken(c) ?? '', headers: authHeaders(c) },
  };
}

// The Security tab (issue 15): two-factor sign-in, passkeys, and the organisation's two-factor rule. The routes
// that take a password or a code count a wrong one against the account like a failed sign-in (auth/login-limit.ts).
export const securityRoutes = routes('security')
  .call(
    'get /account/security',
    "The signed-in person's two-factor sign-in and passkeys, and their organisation's rule",
    { ok: [200, securityStatusSchema, 'Security'] },
    (deps, { userId }) => service.securityStatus(deps, userId),
  )
  .handle(
    'post /account/two-factor/enrol',
    'Start enrolling an authenticator app (password needed): its key as a QR code URI and as text',
    { body: passwordOnlySchema, ok: [200, enrolmentSchema, 'Key to confirm'], errors: [400, 401, 409, 429] },
    async (c) => {
      const { user, input } = await caller(c);
      const body = c.req.valid('json');
      const enrolment = await limitFailedLogins(c, user.email, () =>
        service.startEnrolment(c.get('deps'), { ...input, ...body }),
      );
      return c.json(enrolment, 200);
    },
  )
  .handle(
    'post /account/two-factor/confirm',
    'Confirm enrolment with a current code: two-factor sign-in is on; the 10 recovery codes, shown this once',
    { body: codeOnlySchema, ok: [200, recoveryCodesSchema, 'On'], errors: [401, 409, 429] },
    async (c) => {
      const { user, input } = await caller(c);
      const { recoveryCodes, cookies } = await limitFailedLogins(c, user.email, () =>
        service.confirmEnrolment(c.get('deps'), { ...input, ...c.req.valid('json') }),
      );
      setCookies(c, cookies);
      return c.json({ recoveryCodes }, 200);
    },
  )
  .handle(
    'post /account/two-factor/disable',
    'Switch two-factor sign-in off, with the password and a current code',
    { body: passwordAndCodeSchema, ok: [200, okSchema, 'Off'], errors: [401, 409, 429] },
    async (c) => {
      const { user, input } = await caller(c);
      const cookies = await limitFailedLogins(c, user.email, () =>
        service.disableTwoFactor(c.get('deps'), { ...input, ...c.req.valid('json') }),
      );
      setCookies(c, cookies);
      return c.json({ ok: true as const }, 200);
    },
  )
  .handle(
    'post /account/two-factor/recovery-codes',
    'New recovery codes (password needed); the old ones stop working',
    { body: passwordOnlySchema, ok: [200, recoveryCodesSchema, 'New codes'], errors: [400, 401, 409, 429] },
    async (c) => {
      const { user, input } = await caller(c);
      const body = c.req.valid('json');
      const codes = await limitFailedLogins(c, user.email, () =>
        service.regenerateRecoveryCodes(c.get('deps'), { ...input, ...body }),
      );
      return c.json(codes, 200);
    },
  )
  .handle(
    'post /account/passkeys/options',
    'WebAuthn options to create a passkey, for the proof deleting the account asks (the challenge is kept in a signed cookie)',
    {
      body: passkeyOptionsSchema,
      ok: [200, webAuthnJsonSchema, 'Creation options'],
      errors: [401, 403, 429],
    },
    async (c) => {
      const { user, input } = await caller(c);
      const { options, cookies } = await limitFailedLogins(
        c,
        user.email,
        () => service.passkeyRegistrationOptions(c.get('deps'), { ...input, ...c.req.valid('json') }),
        { pausedMessage: DELETION_MESSAGES.tooManyAttempts },
      );
      setCookies(c, cookies);
      return c.json(options, 200);
    },
  )
  .handle(
    'post /account/passkeys',
    "Save a passkey from the browser's answer to the granted creation options, with a name; e-mails the owner",
    { body: addPasskeySchema, ok: [201, passkeySchema, 'Saved'], errors: [401, 403] },
    async (c) => {
      const { user, input } = await caller(c);
      const added = await service.addPasskey(c.get('deps'), {
        ...input,
        owner: user,
        ...c.req.valid('json'),
      });
      return c.json(added, 201);
    },
  )
  .handle(
    'delete /account/passkeys/{passkeyId}',
    'Remove one of your passkeys; your other sessions and trusted devices end',
    { ok: [200, okSchema, 'Removed'], errors: [401] },
    async (c) => {
      const { input } = await caller(c);
      await service.removePasskey(c.get('deps'), { ...input, ...c.req.valid('param') });
      return c.json({ ok: true as const }, 200);
    },
  )
  .call(
    'put /organization/security',
    'Require two-factor sign-in for everyone in the organisation (organisation admins)',
    { body: organizationSecuritySchema, ok: [200, okSchema, 'Saved'], errors: [403, 409] },
    (deps, input) => service.setOrganizationSecurity(deps, input),
  ).router;
