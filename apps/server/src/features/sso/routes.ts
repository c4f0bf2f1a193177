import {
  redirectSchema,
  ssoSettingsInputSchema,
  ssoSettingsSchema,
  ssoStartSchema,
  ssoSwitchSchema,
} from '@pulsecheck/shared/auth/security';
import { requireUser, setCookies } from '../../auth/session';
import { clientIp } from '../../lib/client-ip';
import { routes } from '../../lib/openapi';
import { enforceLimit, LIMITS } from '../../lib/rate-limit';
import * as service from './service';

// Single sign-on per organisation (issue 15): its settings (organisation admins) and 'Sign in with SSO'. The
// provider's redirect back is served in app.ts beside the other link targets (service.finishFlow).
export const ssoRoutes = routes('sso')
  .call(
    'get /organization/sso',
    "The organisation's single sign-on settings (organisation admins); never the client secret",
    { ok: [200, ssoSettingsSchema, 'Settings'], errors: [403] },
    (deps, { userId }) => service.getSettings(deps, userId),
  )
  .call(
    'put /organization/sso',
    'Save the identity provider (issuer discovered now, client secret stored encrypted) and the domains it covers',
    { body: ssoSettingsInputSchema, ok: [200, ssoSettingsSchema, 'Saved'], errors: [403, 409] },
    (deps, input) => service.saveSettings(deps, input),
  )
  .call(
    'put /organization/sso/switch',
    "Switch sign-in through the provider on (after a passed 'Test connection') or off, and require it",
    { body: ssoSwitchSchema, ok: [200, ssoSettingsSchema, 'Saved'], errors: [403, 409] },
    (deps, input) => service.switchSso(deps, input),
  )
  .handle(
    'post /organization/sso/test',
    "'Test connection': where to send the admin to sign in through the provider once (nothing is created)",
    { ok: [200, redirectSchema, 'Provider URL'], errors: [401, 403, 409, 429] },
    async (c) => {
      const user = await requireUser(c);
      await enforceLimit(c, LIMITS.login);
      const { url, cookies } = await service.startTest(c.get('deps'), {
        userId: user.id,
        clientIp: clientIp(c),
      });
      setCookies(c, cookies);
      return c.json({ url }, 200);
    },
  )
  .handle(
    'post /login/sso',
    "'Sign in with SSO': the e-mail's domain picks the organisation's provider; where to send the browser",
    { body: ssoStartSchema, ok: [200, redirectSchema, 'Provider URL'], errors: [404, 429] },
    async (c) => {
      await enforceLimit(c, LIMITS.login);
      const { email } = c.req.valid('json');
      const { url, cookies } = await service.startSignIn(c.get('deps'), { email, clientIp: clientIp(c) });
      setCookies(c, cookies);
      return c.json({ url }, 200);
    },
  ).router;
