import { changedFields, type AuditBy } from '../../audit/record';
import { recordSignIn } from '../../audit/sign-ins';
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type * as NodeSamlModule from '@node-saml/node-saml';
import type { CacheItem, CacheProvider, Profile } from '@node-saml/node-saml';
import type { SamlSettings } from '@pulsecheck/shared/auth/security';
import { domainOf, SECURITY_MESSAGES, type SsoErrorCode } from '@pulsecheck/shared/auth/security-messages';
import { and, eq } from 'drizzle-orm';
import { requireOrganizationAdmin } from '../../auth/access';
import { issuerPolicy, ssoProviderRows, type SsoFlow } from '../../auth/sso';
import { SESSION_DAYS } from '../../auth/options';
import { type Db, first } from '../../db/client';
import { account, user } from '../../db/schema/auth';
import { organizationSso } from '../../db/schema/organizations';
import { AppError, invalid } from '../../lib/app-error';
import { outboundFetch } from '../../lib/outbound';
import type { AppDeps } from '../../lib/router';
import { newDomainToken } from './domains';
import {
  domainRows,
  joinOrganization,
  peekFlow,
  rememberAssertion,
  storeProvider,
  saveFlow,
  ssoOfOrganization,
  takeFlow,
  verifiedDomainsOf,
} from './queries';
import {
  certificateFingerprint,
  CLOCK_SKEW_MS,
  METADATA_MAX_CHARS,
  metadataUrlAllowed,
  pemOf,
  type SamlConfig,
  signingCertificate,
} from './saml-metadata';

/**
 * The SAML library and our XML reading, loaded on first use (as @better-auth/sso is: decision 0015): most servers
 * never see a SAML request, and these are the biggest libraries of the server.
 */
const samlLibraries = () => Promise.all([nodeSaml(), import('./saml-xml')]);
type NodeSaml = typeof NodeSamlModule;
/** node-saml is CommonJS: the bundle's import() of it answers only `default` (the exports); Node's, both. */
async function nodeSaml(): Promise<NodeSaml> {
  const loaded: NodeSaml & { default?: NodeSaml } = await import('@node-saml/node-saml');
  return loaded.default ?? loaded;
}

/**
 * SAML 2.0 sign-in per organisation (issue 37, decision 0024), beside OpenID Connect (service.ts): the same
 * provider id, verified domains, switches, 'Test connection', 'Require SSO' and just-in-time rules; the
 * organisation has one of the two. @node-saml/node-saml checks the signature (of the response or of its one
 * assertion; nothing unsigned is read), the audience, NotBefore/NotOnOrAfter with a minute of clock skew and that
 * InResponseTo names a request we made; around it this module requires RSA-SHA256 or better, the issuer, the
 * recipient and destination (our ACS URL), binds InResponseTo to the one flow it started (taken once), accepts each
 * assertion id once (`saml_assertions`, shared by every process), and lets RelayState lead only into this app.
 */

type Deps = Pick<AppDeps, 'db' | 'config' | 'auth'>;

const REQUEST_MINUTES = 10;
const SECURITY_PATH = '/admin/account-settings/security';

export const samlPaths = (config: Pick<AppDeps['config'], 'appUrl'>, providerId: string) => ({
  entityId: `${config.appUrl}/api/auth/saml/metadata/${providerId}`,
  metadataUrl: `${config.appUrl}/api/auth/saml/metadata/${providerId}`,
  acsUrl: `${config.appUrl}${SAML_ACS_PREFIX}${providerId}`,
});

/** The assertion consumer service's path, before the provider id (app.ts; exempt from the origin check). */
export const SAML_ACS_PREFIX = '/api/auth/saml/acs/';

/**
 * The browser that started a flow (https only): a random value in a `__Host-` cookie, SameSite=None so that the
 * identity provider's cross-site post to the ACS carries it; the flow keeps its hash, and the answer must come with
 * it. Without it, someone could make a victim's browser post the attacker's own answer (login CSRF). On http (local
 * trials) browsers refuse SameSite=None cookies, so there the flow is bound to its request only.
 */
export const SAML_BROWSER_COOKIE = '__Host-pulsecheck-saml';
const browserHash = (value: string) => createHash('sha256').update(value).digest('base64url');

const providerIdOf = (organizationId: string) => `org-${organizationId}`;
const requestKey = (requestId: string) => `saml:${requestId}`;

/** The organisation's SAML configuration (opened: it is sealed at rest), or null when it uses OIDC or nothing. */
export async function samlConfigOf(deps: Pick<Deps, 'config'>, db: Db, providerId: string) {
  const table = ssoProviderRows(deps.config.authSecret);
  const row = await first(
    db.select({ samlConfig: table.samlConfig }).from(table).where(eq(table.providerId, providerId)),
  );
  return row?.samlConfig ? (JSON.parse(row.samlConfig) as SamlConfig) : null;
}

/** The SAML part of the Security tab; the domains and switches come with the SSO settings (service.ts). */
export async function getSamlSettings(deps: Deps, userId: string): Promise<SamlSettings> {
  const organization = await requireOrganizationAdmin(deps.db, userId);
  const providerId = providerIdOf(organization.id);
  const config = await samlConfigOf(deps, deps.db, providerId);
  const paths = samlPaths(deps.config, providerId);
  return {
    configured: Boolean(config),
    idpEntityId: config?.idpEntityId ?? null,
    idpSsoUrl: config?.idpSsoUrl ?? null,
    certificates: (config?.certificates ?? []).flatMap((base64) => {
      const cert = signingCertificate(base64);
      return cert
        ? [{ fingerprint: certificateFingerprint(cert), expiresAt: new Date(cert.validTo).toISOString() }]
        : [];
    }),
    metadataUrl: config?.metadataUrl ?? null,
    allowIdpInitiated: config?.allowIdpInitiated ?? false,
    spEntityId: paths.entityId,
    spAcsUrl: paths.acsUrl,
    spMetadataUrl: paths.metadataUrl,
  };
}

/** Fetches metadata through the outbound guard (public addresses only, no redirects, 5 s). */
async function fetchMetadata(deps: Deps, url: string) {
  if (!metadataUrlAllowed(deps.config, url))
    throw invalid(SECURITY_MESSAGES.samlMetadataUrlInvalid, {
      metadataUrl: SECURITY_MESSAGES.samlMetadataUrlInvalid,
    });
  try {
    const response = await outboundFetch(issuerPolicy(deps.config), url, {
      headers: { accept: 'application/samlmetadata+xml, application/xml, text/xml' },
    });
    const text = response.ok ? await response.text() : null;
    if (text !== null && text.length <= METADATA_MAX_CHARS) return text;
  } catch {
    // Refused by the guard, unreachable or too slow: the same answer (which one is not the admin's business).
  }
  throw invalid(SECURITY_MESSAGES.samlMetadataUnreachable, {
    metadataUrl: SECURITY_MESSAGES.samlMetadataUnreachable,
  });
}

/**
 * Saves SAML as the organisation's single sign-on (replacing OpenID Connect if it had it): the metadata pasted or
 * fetched now, the domains claimed (verified by DNS as for OIDC), the switch for sign-in started at the identity
 * provider. A new identity provider (entity id, address or certificates) switches SSO off until 'Test connection'
 * passes again.
 */
export async function saveSamlSettings(
  deps: Deps,
  options: {
    userId: string;
    metadataXml: string;
    metadataUrl: string;
    domains: string[];
    allowIdpInitiated: boolean;
    checkDomains: (organizationId: string, domains: string[]) => Promise<void>;
    by: AuditBy;
  },
) {
  const organization = await requireOrganizationAdmin(deps.db, options.userId);
  if (options.metadataXml && options.metadataUrl)
    throw invalid(SECURITY_MESSAGES.samlMetadataBoth, { metadataXml: SECURITY_MESSAGES.samlMetadataBoth });
  await options.checkDomains(organization.id, options.domains);
  const providerId = providerIdOf(organization.id);
  const previous = await samlConfigOf(deps, deps.db, providerId);
  let metadata: Omit<SamlConfig, 'metadataUrl' | 'allowIdpInitiated'> | null = previous;
  let metadataUrl = previous?.metadataUrl ?? null;
  if (options.metadataXml || options.metadataUrl) {
    const xml = options.metadataXml || (await fetchMetadata(deps, options.metadataUrl));
    const [, { parseIdpMetadata }] = await samlLibraries();
    metadata = parseIdpMetadata(deps.config, xml);
    const field = options.metadataXml ? 'metadataXml' : 'metadataUrl';
    if (!metadata)
      throw invalid(SECURITY_MESSAGES.samlMetadataInvalid, {
        [field]: SECURITY_MESSAGES.samlMetadataInvalid,
      });
    metadataUrl = options.metadataUrl || null;
  }
  if (!metadata)
    throw invalid(SECURITY_MESSAGES.samlMetadataRequired, {
      metadataXml: SECURITY_MESSAGES.samlMetadataRequired,
    });
  const config: SamlConfig = {
    idpEntityId: metadata.idpEntityId,
    idpSsoUrl: metadata.idpSsoUrl,
    certificates: metadata.certificates,
    metadataUrl,
    allowIdpInitiated: options.allowIdpInitiated,
  };
  const changed =
    !previous ||
    previous.idpEntityId !== config.idpEntityId ||
    previous.idpSsoUrl !== config.idpSsoUrl ||
    previous.certificates.join() !== config.certificates.join();
  await storeProvider(deps.db, deps.config.authSecret, {
    organizationId: organization.id,
    providerId,
    userId: options.userId,
    issuer: config.idpEntityId,
    oidcConfig: null,
    samlConfig: JSON.stringify(config),
    domains: options.domains,
    changed,
    newToken: newDomainToken,
    by: options.by,
    organizationName: organization.name,
    // The risky switch (decision 0024): the entry says when it was turned on or off.
    changes: changedFields(
      { allowIdpInitiated: previous?.allowIdpInitiated ?? false },
      { allowIdpInitiated: options.allowIdpInitiated },
    ),
  });
}

/**
 * node-saml's store of the requests it made, here the flows in the database (so any process may receive the
 * answer): `saveAsync` keeps the flow under the AuthnRequest's id, `getAsync` finds it, `removeAsync` takes it (a
 * second answer to the same request finds nothing).
 */
class FlowCache implements CacheProvider {
  readonly taken = new Map<string, unknown>();
  requestId: string | null = null;
  constructor(
    private readonly db: Db,
    private readonly flow?: object,
  ) {}
  async saveAsync(key: string, value: string): Promise<CacheItem> {
    this.requestId = key;
    await saveFlow(this.db, requestKey(key), { ...this.flow, createdAt: value });
    return { value, createdAt: Date.now() };
  }
  async getAsync(key: string) {
    const stored = await peekFlow(this.db, requestKey(key));
    if (!stored) return null;
    const { createdAt } = JSON.parse(stored) as { createdAt?: string };
    return createdAt ?? null;
  }
  async removeAsync(key: string | null) {
    if (!key || this.taken.has(key)) return null;
    this.taken.set(key, await takeFlow(this.db, requestKey(key)));
    return key;
  }
  /** The flow of `key`, taken once (by node-saml's removeAsync or now). */
  async take(key: string) {
    return this.taken.has(key) ? this.taken.get(key) : takeFlow(this.db, requestKey(key));
  }
}

async function samlOf(
  deps: Pick<Deps, 'config'>,
  providerId: string,
  config: SamlConfig,
  cache: CacheProvider,
) {
  const paths = samlPaths(deps.config, providerId);
  const [{ SAML, ValidateInResponseTo }] = await samlLibraries();
  return new SAML({
    issuer: paths.entityId,
    callbackUrl: paths.acsUrl,
    audience: paths.entityId,
    entryPoint: config.idpSsoUrl,
    idpCert: config.certificates.map(pemOf),
    // Either the response or its assertion signed (node-saml then requires one of them to verify).
    wantAuthnResponseSigned: false,
    wantAssertionsSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    validateInResponseTo: config.allowIdpInitiated
      ? ValidateInResponseTo.ifPresent
      : ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_MINUTES * 60_000,
    cacheProvider: cache,
    identifierFormat: null,
    disableRequestedAuthnContext: true,
    signatureAlgorithm: 'sha256',
  });
}

/** The service provider's metadata for the identity provider to register (public: it holds no secret). */
export async function spMetadata(deps: Deps, providerId: string): Promise<string | null> {
  const config = await samlConfigOf(deps, deps.db, providerId);
  if (!config) return null;
  return (await samlOf(deps, providerId, config, new FlowCache(deps.db))).generateServiceProviderMetadata(
    null,
    null,
  );
}

/** Starts a sign-in, 'Test connection' or link at the identity provider: where to send the browser. */
export async function startSamlFlow(
  deps: Deps,
  flow: Omit<SsoFlow, 'nonce' | 'domains'>,
  browser: string | null = null,
) {
  const config = await samlConfigOf(deps, deps.db, flow.providerId);
  if (!config) throw new AppError('not_found', SECURITY_MESSAGES.ssoNotSetUp);
  const cookies: string[] = [];
  let binding: { browser: string } | null = null;
  if (deps.config.appUrl.startsWith('https://')) {
    // The browser's value is kept across its flows (several tabs), made anew when absent or malformed.
    const value = browser && /^[\w-]{32}$/.test(browser) ? browser : randomBytes(24).toString('base64url');
    binding = { browser: browserHash(value) };
    cookies.push(
      `${SAML_BROWSER_COOKIE}=${value}; Path=/; Max-Age=${REQUEST_MINUTES * 60}; HttpOnly; Secure; SameSite=None`,
    );
  }
  const cache = new FlowCache(deps.db, { ...flow, ...binding });
  const saml = await samlOf(deps, flow.providerId, config, cache);
  const url = await saml.getAuthorizeUrlAsync('', undefined, {});
  if (!cache.requestId) throw new AppError('internal', 'errors.samlRequestMissing');
  return { url, cookies };
}

const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'emailAddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];
const NAME_ATTRIBUTES = [
  'displayName',
  'name',
  'urn:oid:2.16.840.1.113730.3.1.241',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name',
];
const EMAIL_NAME_ID = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

const attribute = (profile: Profile, names: string[]) => {
  for (const name of names) {
    const value: unknown = profile[name];
    const text: unknown = Array.isArray(value) ? (value as unknown[])[0] : value;
    if (typeof text === 'string' && text.trim()) return text.trim();
  }
  return null;
};

/** Why node-saml refused, in the words the screens explain (SSO_ERRORS); the details go to the log only. */
function refusalOf(error: unknown): SsoErrorCode {
  const message = error instanceof Error ? error.message : '';
  if (/InResponseTo/i.test(message)) return 'state';
  // A subject confirmation is only ever found invalid by its time (NotBefore, NotOnOrAfter).
  if (/expired|not yet valid|NotBefore|NotOnOrAfter|No valid subject confirmation/i.test(message))
    return 'expired';
  if (/Responder|AuthnFailed|RequestDenied|NoPassive/i.test(message)) return 'denied';
  return 'token';
}

const isFlow = (value: unknown): value is Omit<SsoFlow, 'domains' | 'nonce'> =>
  typeof value === 'object' && value !== null && 'providerId' in value && 'purpose' in value;

/** Where RelayState may lead: a path of this app (never `//host` or `/\host`), or a URL at APP_URL's origin. */
function relayTarget(appUrl: string, relayState: string): string | null | false {
  if (!relayState) return null;
  const origin = new URL(appUrl).origin;
  try {
    const url = new URL(relayState, `${origin}/`);
    if (url.origin !== origin || /^[/\\]{2}|^\/\\/.test(relayState)) return false;
    if (!relayState.startsWith('/') && !relayState.startsWith(`${origin}/`)) return false;
    return `${url.pathname}${url.search}`;
  } catch {
    return false;
  }
}

/** The session cookie as better-auth signs it (auth/session.ts reads it back). */
function sessionCookie(config: AppDeps['config'], token: string) {
  const secure = config.appUrl.startsWith('https://');
  const signature = createHmac('sha256', config.authSecret).update(token).digest('base64');
  const value = encodeURIComponent(`${token}.${signature}`);
  return `${secure ? '__Secure-' : ''}better-auth.session_token=${value}; Max-Age=${SESSION_DAYS * 86_400}; Path=/; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/**
 * The identity provider's answer (POST /api/auth/saml/acs/:providerId, binding HTTP-POST). Every refusal redirects
 * with `sso_error` (or `sso_link_error`) and creates nothing; success signs in (just in time for a new address at a
 * verified domain), links, or records a passed 'Test connection'.
 */
export async function finishSaml(
  deps: Deps,
  options: {
    providerId: string;
    samlResponse: string;
    relayState: string;
    /** The SAML_BROWSER_COOKIE the browser sent, if any. */
    browser: string | null;
    clientIp: string;
    userAgent: string;
    log: (error: unknown) => void;
  },
): Promise<Response> {
  const { appUrl } = deps.config;
  const redirect = (path: string, cookies: string[] = []) => {
    const headers = new Headers({ location: `${appUrl}${path}` });
    for (const cookie of cookies) headers.append('set-cookie', cookie);
    return new Response(null, { status: 302, headers });
  };
  let errorPath = '/login?sso_error=';
  const refuse = (code: SsoErrorCode) => redirect(`${errorPath}${code}`);

  const config = await samlConfigOf(deps, deps.db, options.providerId);
  if (!config) return refuse('not_enabled');
  const target = relayTarget(appUrl, options.relayState);
  if (target === false) return refuse('relay_state');
  const xml = Buffer.from(options.samlResponse, 'base64').toString('utf8');
  const [, { assertionFacts, parseXml, strongSignatures }] = await samlLibraries();
  if (!options.samlResponse || !strongSignatures(xml)) return refuse('token');

  const cache = new FlowCache(deps.db);
  let profile: Profile | null;
  try {
    const saml = await samlOf(deps, options.providerId, config, cache);
    ({ profile } = await saml.validatePostResponseAsync({
      SAMLResponse: options.samlResponse,
    }));
  } catch (error) {
    options.log(error);
    return refuse(refusalOf(error));
  }
  const paths = samlPaths(deps.config, options.providerId);
  const facts = profile?.getAssertionXml ? assertionFacts(profile.getAssertionXml()) : null;
  const destination = parseXml(xml)?.documentElement?.getAttribute('Destination');
  if (!profile || !facts?.id || profile.issuer !== config.idpEntityId) return refuse('token');
  if (!facts.recipients.includes(paths.acsUrl) || (destination && destination !== paths.acsUrl))
    return refuse('token');

  // InResponseTo: the signed assertion's names the flow we started (taken once); none only when the organisation
  // accepts sign-in started at the identity provider.
  let flow: Omit<SsoFlow, 'domains' | 'nonce'>;
  const requestId = facts.inResponseTo;
  if (requestId) {
    if (profile.inResponseTo && profile.inResponseTo !== requestId) return refuse('state');
    const stored = await cache.take(requestId);
    if (!isFlow(stored) || stored.providerId !== options.providerId) return refuse('state');
    // Started in another browser (or its cookie is gone): refused, as a state of OpenID Connect would be.
    const bound: unknown = 'browser' in stored ? stored.browser : null;
    if (
      bound !== null &&
      (typeof bound !== 'string' || !options.browser || browserHash(options.browser) !== bound)
    )
      return refuse('state');
    flow = stored;
  } else {
    if (!config.allowIdpInitiated || profile.inResponseTo) return refuse('unsolicited');
    const organizationId = options.providerId.replace(/^org-/, '');
    flow = { providerId: options.providerId, organizationId, purpose: 'sign-in' };
  }
  if (flow.purpose !== 'sign-in')
    errorPath = `${SECURITY_PATH}?${flow.purpose === 'link' ? 'sso_link_error' : 'sso_error'}=`;

  if (
    !(await rememberAssertion(deps.db, {
      issuer: config.idpEntityId,
      assertionId: facts.id,
      expiresAt: facts.expiresAt,
    }))
  )
    return refuse('replayed');

  const emailAttribute = attribute(profile, EMAIL_ATTRIBUTES);
  const email = (
    emailAttribute ?? (profile.nameIDFormat === EMAIL_NAME_ID ? profile.nameID : '')
  ).toLowerCase();
  const domains =
    flow.purpose === 'test'
      ? (await domainRows(deps.db, flow.organizationId)).map((row) => row.domain)
      : await verifiedDomainsOf(deps.db, flow.organizationId);
  if (!email.includes('@') || !domains.includes(domainOf(email))) return refuse('domain');

  const sso = await ssoOfOrganization(deps.db, flow.organizationId);
  if (!sso || sso.providerId !== options.providerId) return refuse('not_enabled');
  if (flow.purpose === 'test') {
    await deps.db
      .update(organizationSso)
      .set({ testedAt: new Date() })
      .where(
        and(
          eq(organizationSso.organizationId, flow.organizationId),
          eq(organizationSso.providerId, options.providerId),
        ),
      );
    return redirect(`${SECURITY_PATH}?sso=tested`);
  }
  if (!sso.enabled) return refuse('not_enabled');

  const context = await deps.auth.$context;
  const existing = await first(deps.db.select({ id: user.id }).from(user).where(eq(user.email, email)));
  const bound =
    existing &&
    (await first(
      deps.db
        .select({ id: account.id })
        .from(account)
        .where(and(eq(account.userId, existing.id), eq(account.providerId, options.providerId))),
    ));
  const link = (userId: string) =>
    context.internalAdapter.linkAccount({
      userId,
      providerId: options.providerId,
      accountId: profile.nameID,
    });

  let userId: string;
  if (flow.purpose === 'link') {
    if (!existing || existing.id !== flow.userId) return refuse('link_mismatch');
    if (!bound) await link(existing.id);
    return redirect(`${SECURITY_PATH}?sso=linked`);
  }
  if (existing) {
    // Only an account this organisation's SSO created, or whose owner linked it, signs in (decision 0016).
    if (!bound) return refuse('account_exists');
    userId = existing.id;
  } else {
    const created = await context.internalAdapter.createUser(
      {
        email,
        name: attribute(profile, NAME_ATTRIBUTES) ?? email.split('@')[0]!,
        emailVerified: true,
      },
      { method: 'sso' },
    );
    if (!created) return refuse('failed');
    await link(created.id);
    userId = created.id;
  }
  await joinOrganization(deps.db, { organizationId: flow.organizationId, userId });
  const session = await context.internalAdapter.createSession(userId, false, {
    ipAddress: options.clientIp,
    userAgent: options.userAgent,
  });
  await recordSignIn(deps.db, userId, { ip: options.clientIp, method: 'single sign-on' });
  return redirect(target ?? '/auth/redirect', [sessionCookie(deps.config, session.token)]);
}
