import { audited, changedFields, type AuditBy } from '../../audit/record';
import { randomBytes } from 'node:crypto';
import { type SsoSettings } from '@pulsecheck/shared/auth/security';
import {
  domainOf,
  PUBLIC_EMAIL_DOMAINS,
  SECURITY_MESSAGES,
  ssoVerificationRecord,
  type SsoErrorCode,
} from '@pulsecheck/shared/auth/security-messages';
import type { IdentityProof } from '@pulsecheck/shared/account/deletion';
import { and, eq } from 'drizzle-orm';
import { requireOrganizationAdmin } from '../../auth/access';
import { confirmIdentity } from '../../auth/confirm-identity';
import {
  issuerAllowed,
  issuerPolicy,
  runInFlow,
  SSO_REFUSALS,
  ssoProviderRows,
  type SsoFlow,
} from '../../auth/sso';
import { type Db, first } from '../../db/client';
import { organizationSso } from '../../db/schema/organizations';
import { AppError, conflict, invalid } from '../../lib/app-error';
import { guardFetches, refusalOf } from '../../lib/outbound';
import type { AppDeps } from '../../lib/router';
import { newDomainToken } from './domains';
import { samlConfigOf, startSamlFlow } from './saml';
import {
  domainRows,
  domainsTakenElsewhere,
  isMember,
  ssoBound,
  storeProvider,
  saveFlow,
  ssoForDomain,
  ssoOfOrganization,
  ssoRequirementApplies,
  takeFlow,
  verifiedDomainsOf,
} from './queries';

type Deps = Pick<AppDeps, 'db' | 'config' | 'auth'>;

export const SECURITY_PATH = '/admin/account-settings/security';
const SCOPES = ['openid', 'email', 'profile'];

/** The plugin's provider id for an organisation (also the last segment of the redirect URI). */
const providerIdOf = (organizationId: string) => `org-${organizationId}`;
const redirectUriOf = (config: AppDeps['config'], providerId: string) =>
  `${config.appUrl}/api/auth/sso/callback/${providerId}`;

type OidcConfig = {
  issuer: string;
  clientId: string;
  clientSecret: string;
  pkce: boolean;
  discoveryEndpoint: string;
  authorizationEndpoint?: string;
  tokenEndpoint?: string;
  jwksEndpoint?: string;
  userInfoEndpoint?: string;
  tokenEndpointAuthentication?: 'client_secret_post' | 'client_secret_basic' | 'private_key_jwt';
  scopes: string[];
};

/** The provider row as the plugin keeps it, its configuration opened (auth/sealed-column.ts). */
async function providerOf(deps: Deps, db: Db, providerId: string) {
  const table = ssoProviderRows(deps.config.authSecret);
  const row = await first(db.select().from(table).where(eq(table.providerId, providerId)));
  if (!row?.oidcConfig) return null;
  return JSON.parse(row.oidcConfig) as OidcConfig;
}

/**
 * 'Require SSO': password sign-in, sign-up, reset and invitation sign-up are refused for an address at a domain the
 * organisation verified and requires SSO for, when the address has no account yet or its account belongs to that
 * organisation (a member, or created or linked by its SSO). Accounts of other organisations at the same domain
 * keep their password sign-in.
 */
export async function refuseIfSsoRequired(db: Db, email: string) {
  const address = email.trim().toLowerCase();
  const sso = await ssoForDomain(db, domainOf(address));
  if (!sso?.enabled || !sso.required) return;
  if (await ssoRequirementApplies(db, address, sso.organizationId))
    throw new AppError('sso_required', SECURITY_MESSAGES.ssoRequired);
}

/** The SSO settings of the admin's organisation (never the client secret). */
export async function getSettings(deps: Deps, userId: string): Promise<SsoSettings> {
  const organization = await requireOrganizationAdmin(deps.db, userId);
  const providerId = providerIdOf(organization.id);
  const sso = await ssoOfOrganization(deps.db, organization.id);
  const config = sso ? await providerOf(deps, deps.db, providerId) : null;
  const saml = sso && !config ? await samlConfigOf(deps, deps.db, providerId) : null;
  const rows = sso ? await domainRows(deps.db, organization.id) : [];
  return {
    configured: Boolean(sso && (config || saml)),
    protocol: config ? 'oidc' : saml ? 'saml' : null,
    issuer: config?.issuer ?? null,
    clientId: config?.clientId ?? null,
    hasClientSecret: Boolean(config?.clientSecret),
    domains: rows.map((row) => row.domain),
    verification: rows.map((row) => ({
      domain: row.domain,
      record: ssoVerificationRecord(row.token),
      status: row.status,
      checkedAt: row.checkedAt?.toISOString() ?? null,
    })),
    redirectUri: redirectUriOf(deps.config, providerId),
    testedAt: sso?.testedAt?.toISOString() ?? null,
    enabled: sso?.enabled ?? false,
    required: sso?.required ?? false,
  };
}

/**
 * The domains an organisation may claim: any but a public mailbox provider's, and none another organisation has
 * verified. A claimed domain is used for SSO only once its TXT record proves the organisation controls it
 * (features/sso/domains.ts); until then it only shows the record to publish.
 */
export async function checkDomains(deps: Deps, organizationId: string, domains: string[]) {
  for (const domain of domains) {
    if ((PUBLIC_EMAIL_DOMAINS as readonly string[]).includes(domain))
      throw invalid(SECURITY_MESSAGES.ssoDomainPublic, { domains: SECURITY_MESSAGES.ssoDomainPublic });
  }
  const taken = await domainsTakenElsewhere(deps.db, organizationId, domains);
  if (taken.length > 0)
    throw conflict(SECURITY_MESSAGES.ssoDomainTaken, { domains: SECURITY_MESSAGES.ssoDomainTaken });
}

/**
 * Saves the organisation's provider: the issuer is discovered from its /.well-known/openid-configuration now (so
 * a wrong address is refused at once), the client secret is stored sealed with a key derived from AUTH_SECRET.
 * Changing the issuer, client ID or secret switches SSO off until 'Test connection' passes again.
 */
export async function saveSettings(
  deps: Deps,
  options: {
    userId: string;
    issuer: string;
    clientId: string;
    clientSecret: string;
    domains: string[];
    by: AuditBy;
  },
): Promise<SsoSettings> {
  const organization = await requireOrganizationAdmin(deps.db, options.userId);
  const issuer = options.issuer.replace(/\/+$/, '');
  if (!issuerAllowed(deps.config, issuer))
    throw invalid(SECURITY_MESSAGES.ssoIssuerInvalid, { issuer: SECURITY_MESSAGES.ssoIssuerInvalid });
  await checkDomains(deps, organization.id, options.domains);
  const providerId = providerIdOf(organization.id);
  const previous = await providerOf(deps, deps.db, providerId);
  const clientSecret = options.clientSecret || previous?.clientSecret;
  if (!clientSecret)
    throw invalid(SECURITY_MESSAGES.ssoClientSecretRequired, {
      clientSecret: SECURITY_MESSAGES.ssoClientSecretRequired,
    });
  // Loaded here, not at start: the plugin's package is most of the server's code (auth/auth.ts, lazySsoAuth).
  const { DiscoveryError, discoverOIDCConfig } = await import('@better-auth/sso');
  let discovered;
  try {
    // Through the outbound guard: a host that resolves inside is refused, no redirect is followed, 5 s at most.
    discovered = await guardFetches(issuerPolicy(deps.config), () =>
      discoverOIDCConfig({
        issuer,
        isTrustedOrigin: (url) =>
          issuerAllowed(deps.config, url) && new URL(url).origin === new URL(issuer).origin,
      }),
    );
  } catch (error) {
    if (!(error instanceof DiscoveryError)) throw error;
    const message = refusalOf(error)
      ? SECURITY_MESSAGES.ssoIssuerInvalid
      : SECURITY_MESSAGES.ssoIssuerUnreachable;
    throw invalid(message, { issuer: message });
  }
  const config: OidcConfig = {
    issuer: discovered.issuer,
    clientId: options.clientId,
    clientSecret,
    pkce: true,
    discoveryEndpoint: discovered.discoveryEndpoint,
    authorizationEndpoint: discovered.authorizationEndpoint,
    tokenEndpoint: discovered.tokenEndpoint,
    jwksEndpoint: discovered.jwksEndpoint,
    userInfoEndpoint: discovered.userInfoEndpoint,
    tokenEndpointAuthentication: discovered.tokenEndpointAuthentication,
    scopes: SCOPES,
  };
  const changed =
    !previous ||
    previous.issuer !== config.issuer ||
    previous.clientId !== config.clientId ||
    previous.clientSecret !== config.clientSecret;
  await storeProvider(deps.db, deps.config.authSecret, {
    organizationId: organization.id,
    providerId,
    userId: options.userId,
    issuer: config.issuer,
    oidcConfig: JSON.stringify(config),
    samlConfig: null,
    domains: options.domains,
    changed,
    newToken: newDomainToken,
    by: options.by,
    organizationName: organization.name,
  });
  return getSettings(deps, options.userId);
}

/** Switches sign-in through the provider on or off, and 'Require SSO for these domains'. */
export async function switchSso(
  deps: Deps,
  options: { userId: string; enabled: boolean; required: boolean; by: AuditBy },
): Promise<SsoSettings> {
  const organization = await requireOrganizationAdmin(deps.db, options.userId);
  const sso = await ssoOfOrganization(deps.db, organization.id);
  if (!sso) throw conflict(SECURITY_MESSAGES.ssoNotConfigured);
  if (options.enabled && !sso.testedAt) throw conflict(SECURITY_MESSAGES.ssoNotTested);
  if (options.enabled && (await verifiedDomainsOf(deps.db, organization.id)).length === 0)
    throw conflict(SECURITY_MESSAGES.ssoNoVerifiedDomain);
  if (options.required && !options.enabled) throw conflict(SECURITY_MESSAGES.ssoRequireNeedsEnabled);
  const changes = changedFields(
    { enabled: sso.enabled, required: sso.required },
    { enabled: options.enabled, required: options.required },
  );
  if (Object.keys(changes).length > 0)
    await audited(
      deps.db,
      organization.id,
      options.by,
      {
        action: 'organization.settings-changed',
        targetType: 'organization',
        targetId: organization.id,
        targetLabel: organization.name,
        changes: { singleSignOn: changes },
      },
      (tx) =>
        tx
          .update(organizationSso)
          .set({ enabled: options.enabled, required: options.required, updatedAt: new Date() })
          .where(eq(organizationSso.organizationId, organization.id)),
    );
  return getSettings(deps, options.userId);
}

/**
 * Starts the authorization-code flow at the provider (PKCE and `state` by the plugin, our `nonce` added) and keeps
 * what the callback must match under the state. Answers the provider's URL and the state cookie to set.
 */
async function startFlow(
  deps: Deps,
  flow: Omit<SsoFlow, 'nonce' | 'domains'>,
  options: { email?: string; clientIp: string; samlBrowser?: string | null },
) {
  // SAML instead of OpenID Connect: the same flows, through features/sso/saml.ts.
  if (await samlConfigOf(deps, deps.db, flow.providerId))
    return startSamlFlow(deps, flow, options.samlBrowser ?? null);
  const { appUrl } = deps.config;
  const nonce = randomBytes(24).toString('base64url');
  const errorPath = flow.purpose === 'sign-in' ? '/login' : SECURITY_PATH;
  const callbackPath = flow.purpose === 'link' ? `${SECURITY_PATH}?sso=linked` : '/auth/redirect';
  const response = await guardFetches(issuerPolicy(deps.config), () =>
    deps.auth.sso.handler(
      new Request(`${appUrl}/api/auth/sign-in/sso`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: appUrl, 'x-forwarded-for': options.clientIp },
        body: JSON.stringify({
          providerId: flow.providerId,
          callbackURL: `${appUrl}${callbackPath}`,
          errorCallbackURL: `${appUrl}${errorPath}`,
          scopes: SCOPES,
          ...(options.email && { loginHint: options.email }),
        }),
      }),
    ),
  );
  const body = (await response.json().catch(() => null)) as { url?: string } | null;
  const url = body?.url ? new URL(body.url) : null;
  const state = url?.searchParams.get('state');
  if (!response.ok || !url || !state)
    throw new AppError('unavailable', SECURITY_MESSAGES.ssoIssuerUnreachable);
  // The plugin sends no nonce (and refuses one among its additional parameters): it is added to its URL here,
  // and resolveUser compares the ID token's with the one kept for this state.
  url.searchParams.set('nonce', nonce);
  await saveFlow(deps.db, state, { ...flow, nonce });
  return { url: url.toString(), cookies: response.headers.getSetCookie() };
}

/** 'Sign in with SSO': the e-mail's domain picks the organisation's provider. */
export async function startSignIn(
  deps: Deps,
  options: { email: string; clientIp: string; samlBrowser?: string | null },
) {
  const sso = await ssoForDomain(deps.db, domainOf(options.email));
  if (!sso?.enabled) throw new AppError('not_found', SECURITY_MESSAGES.ssoNotSetUp);
  return startFlow(
    deps,
    { providerId: sso.providerId, organizationId: sso.organizationId, purpose: 'sign-in' },
    options,
  );
}

/** 'Test connection': the admin signs in through the provider once; nothing is created (auth/sso.ts). */
export async function startTest(
  deps: Deps,
  options: { userId: string; clientIp: string; samlBrowser?: string | null },
) {
  const organization = await requireOrganizationAdmin(deps.db, options.userId);
  const sso = await ssoOfOrganization(deps.db, organization.id);
  if (!sso) throw conflict(SECURITY_MESSAGES.ssoNotConfigured);
  return startFlow(
    deps,
    { providerId: sso.providerId, organizationId: organization.id, purpose: 'test' },
    { clientIp: options.clientIp, samlBrowser: options.samlBrowser ?? null },
  );
}

/** Whether the signed-in person may use 'Link single sign-on', and whether they did. */
export async function linkStatus(deps: Deps, user: { id: string; email: string }) {
  const sso = await ssoForDomain(deps.db, domainOf(user.email));
  const available = Boolean(sso?.enabled && (await isMember(deps.db, user.id, sso.organizationId)));
  const linked = Boolean(sso && (await ssoBound(deps.db, user.id, sso.organizationId)));
  return { available, linked };
}

/**
 * 'Link single sign-on': after the password or an authenticator code (auth/confirm-identity.ts), a member of the
 * organisation whose verified domain covers their address goes through the provider once; the callback links this
 * account only, and only if the provider signs in the same verified e-mail (auth/sso-auth.ts).
 */
export async function startLink(
  deps: Deps,
  options: {
    user: { id: string; email: string };
    sessionToken: string;
    proof: IdentityProof;
    clientIp: string;
    samlBrowser?: string | null;
  },
) {
  await confirmIdentity(deps, {
    userId: options.user.id,
    sessionToken: options.sessionToken,
    proof: options.proof,
  });
  const sso = await ssoForDomain(deps.db, domainOf(options.user.email));
  if (!sso?.enabled || !(await isMember(deps.db, options.user.id, sso.organizationId)))
    throw conflict(SECURITY_MESSAGES.ssoLinkUnavailable);
  return startFlow(
    deps,
    {
      providerId: sso.providerId,
      organizationId: sso.organizationId,
      purpose: 'link',
      userId: options.user.id,
    },
    { email: options.user.email, clientIp: options.clientIp, samlBrowser: options.samlBrowser ?? null },
  );
}

const STATE_ERRORS = new Set([
  'invalid_state',
  'state_mismatch',
  'state_not_found',
  'please_restart_the_process',
]);

/** Why the plugin refused, in the few words the screens explain (SSO_ERRORS); the provider's own text is not shown. */
function errorCode(error: string, description: string): SsoErrorCode {
  if (error === SSO_REFUSALS.state || STATE_ERRORS.has(error) || description.includes('state'))
    return 'state';
  if (error === SSO_REFUSALS.nonce) return 'nonce';
  if (error === SSO_REFUSALS.emailUnverified) return 'email_unverified';
  if (error === SSO_REFUSALS.domain) return 'domain';
  if (error === SSO_REFUSALS.accountExists) return 'account_exists';
  if (error === SSO_REFUSALS.linkMismatch) return 'link_mismatch';
  if (description === 'token_not_verified' || description.startsWith('id_token')) return 'token';
  if (
    error === 'discovery_failed' ||
    /fetch failed|ECONNREFUSED|timed? ?out|unreachable|network/i.test(description)
  )
    return 'unreachable';
  if (error === 'access_denied' || error === 'login_required' || error === 'consent_required')
    return 'denied';
  return 'failed';
}

const isFlow = (value: unknown): value is Omit<SsoFlow, 'domains'> =>
  typeof value === 'object' && value !== null && 'providerId' in value && 'nonce' in value;

/**
 * The provider's redirect back (GET /api/auth/sso/callback/:providerId). The flow of its `state` is taken once
 * (a replayed or unknown state goes no further), the plugin runs inside it (auth/sso.ts), and its outcome becomes
 * a redirect of ours: signed in (the plugin's cookies and /auth/redirect), a passed 'Test connection' (recorded),
 * or a refusal named by `sso_error`.
 */
export async function finishFlow(deps: Deps, request: Request): Promise<Response> {
  const { appUrl } = deps.config;
  const redirect = (path: string, cookies: string[] = []) => {
    const headers = new Headers({ location: `${appUrl}${path}` });
    for (const cookie of cookies) headers.append('set-cookie', cookie);
    return new Response(null, { status: 302, headers });
  };
  const state = new URL(request.url).searchParams.get('state');
  const stored = state ? await takeFlow(deps.db, state) : null;
  if (!isFlow(stored)) return redirect('/login?sso_error=state');
  // Refusals name their reason as `sso_error` (sign-in, 'Test connection') or `sso_link_error` ('Link single sign-on').
  const errorPath = `${stored.purpose === 'sign-in' ? '/login' : SECURITY_PATH}?${stored.purpose === 'link' ? 'sso_link_error' : 'sso_error'}=`;
  if (stored.purpose !== 'test' && !(await ssoOfOrganization(deps.db, stored.organizationId))?.enabled)
    return redirect(`${errorPath}not_enabled`);
  // 'Test connection' (which creates nothing) may run before the domains are verified; sign-in and linking not.
  const domains =
    stored.purpose === 'test'
      ? (await domainRows(deps.db, stored.organizationId)).map((row) => row.domain)
      : await verifiedDomainsOf(deps.db, stored.organizationId);
  const response = await guardFetches(issuerPolicy(deps.config), () =>
    runInFlow({ ...stored, domains, clientIp: request.headers.get('x-forwarded-for') }, () =>
      deps.auth.sso.handler(request),
    ),
  );
  const location = new URL(response.headers.get('location') ?? '/', appUrl);
  const error = location.searchParams.get('error');
  if (!error) return response;
  const cookies = response.headers.getSetCookie();
  if (stored.purpose === 'test' && error === SSO_REFUSALS.testPassed) {
    await deps.db
      .update(organizationSso)
      .set({ testedAt: new Date() })
      .where(
        and(
          eq(organizationSso.organizationId, stored.organizationId),
          eq(organizationSso.providerId, stored.providerId),
        ),
      );
    return redirect(`${SECURITY_PATH}?sso=tested`, cookies);
  }
  const code = errorCode(error, location.searchParams.get('error_description') ?? '');
  return redirect(`${errorPath}${code}`, cookies);
}
