import { auditBy } from '../../audit/record';
import { DELETION_MESSAGES } from '@pulsecheck/shared/account/deletion';
import {
  redirectSchema,
  samlSettingsInputSchema,
  samlSettingsSchema,
  ssoLinkSchema,
  ssoLinkStatusSchema,
  ssoSettingsInputSchema,
  ssoSettingsSchema,
  ssoStartSchema,
  ssoSwitchSchema,
  ssoVerifyDomainSchema,
} from '@pulsecheck/shared/auth/security';
import { limitFailedLogins } from '../../auth/login-limit';
import { requireUser, setCookies, signedSessionToken } from '../../auth/session';
import { clientIp } from '../../lib/client-ip';
import { routes } from '../../lib/openapi';
import { enforceLimit, enforceLimitOn, LIMITS } from '../../lib/rate-limit';
import { verifyDomain } from './domains';
import { getCookie } from 'hono/cookie';
import { getSamlSettings, SAML_BROWSER_COOKIE, saveSamlSettings } from './saml';
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
  .handle(
    'put /organization/sso',
    'Save the identity provider (issuer discovered now through the outbound guard, client secret stored encrypted) and the domains it claims (each used once verified by DNS)',
    { body: ssoSettingsInputSchema, ok: [200, ssoSettingsSchema, 'Saved'], errors: [401, 403, 409, 429] },
    async (c) => {
      const user = await requireUser(c);
      await enforceLimitOn(c, LIMITS.ssoSettings, user.id);
      return c.json(
        await service.saveSettings(c.get('deps'), {
          userId: user.id,
          ...c.req.valid('json'),
          by: auditBy(c, user),
        }),
        200,
      );
    },
  )
  .call(
    'get /organization/saml',
    "The organisation's SAML 2.0 identity provider (organisation admins), and what to register there",
    { ok: [200, samlSettingsSchema, 'Settings'], errors: [403] },
    (deps, { userId }) => getSamlSettings(deps, userId),
  )
  .handle(
    'put /organization/saml',
    "Save SAML 2.0 as the organisation's single sign-on (replacing OpenID Connect): the identity provider's metadata, pasted or fetched from its URL through the outbound guard, the domains it claims (each used once verified by DNS) and whether sign-in started at the identity provider is accepted",
    { body: samlSettingsInputSchema, ok: [200, samlSettingsSchema, 'Saved'], errors: [401, 403, 409, 429] },
    async (c) => {
      const user = await requireUser(c);
      await enforceLimitOn(c, LIMITS.ssoSettings, user.id);
      const deps = c.get('deps');
      await saveSamlSettings(deps, {
        userId: user.id,
        ...c.req.valid('json'),
        checkDomains: (organizationId, domains) => service.checkDomains(deps, organizationId, domains),
        by: auditBy(c, user),
      });
      return c.json(await getSamlSettings(deps, user.id), 200);
    },
  )
  .handle(
    'post /organization/sso/verify-domain',
    "'Verify domain': look up the domain's TXT record `pulsecheck-verification=<token>` now",
    { body: ssoVerifyDomainSchema, ok: [200, ssoSettingsSchema, 'Verified'], errors: [401, 403, 409, 429] },
    async (c) => {
      const user = await requireUser(c);
      await enforceLimitOn(c, LIMITS.ssoVerifyDomain, user.id);
      const deps = c.get('deps');
      await verifyDomain(deps, { userId: user.id, domain: c.req.valid('json').domain, by: auditBy(c, user) });
      return c.json(await service.getSettings(deps, user.id), 200);
    },
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
        samlBrowser: getCookie(c, SAML_BROWSER_COOKIE) ?? null,
      });
      setCookies(c, cookies);
      return c.json({ url }, 200);
    },
  )
  .call(
    'get /account/sso-link',
    "Whether 'Link single sign-on' is offered to the signed-in person (a member of the organisation whose verified domain covers their address) and whether they linked",
    { ok: [200, ssoLinkStatusSchema, 'Status'] },
    (deps, _input, user) => service.linkStatus(deps, user),
  )
  .handle(
    'post /account/sso-link',
    "'Link single sign-on': after the password or an authenticator code, where to send the browser to sign in through the provider once",
    { body: ssoLinkSchema, ok: [200, redirectSchema, 'Provider URL'], errors: [401, 409, 429] },
    async (c) => {
      const user = await requireUser(c);
      const deps = c.get('deps');
      const { url, cookies } = await limitFailedLogins(
        c,
        user.email,
        () =>
          service.startLink(deps, {
            user,
            sessionToken: signedSessionToken(c) ?? '',
            proof: c.req.valid('json').confirm,
            clientIp: clientIp(c),
            samlBrowser: getCookie(c, SAML_BROWSER_COOKIE) ?? null,
          }),
        { pausedMessage: DELETION_MESSAGES.tooManyAttempts },
      );
      setCookies(c, cookies);
      return c.json({ url }, 200);
    },
  )
  .handle(
    'post /login/sso',
    "'Sign in with SSO': the e-mail's domain picks the organisation's provider; where to send the browser",
    { public: true, body: ssoStartSchema, ok: [200, redirectSchema, 'Provider URL'], errors: [404, 429] },
    async (c) => {
      await enforceLimit(c, LIMITS.login);
      const { email } = c.req.valid('json');
      const { url, cookies } = await service.startSignIn(c.get('deps'), {
        email,
        clientIp: clientIp(c),
        samlBrowser: getCookie(c, SAML_BROWSER_COOKIE) ?? null,
      });
      setCookies(c, cookies);
      return c.json({ url }, 200);
    },
  ).router;
