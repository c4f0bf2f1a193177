import { AsyncLocalStorage } from 'node:async_hooks';
import { isLoopbackHost, isPublicRoutableHost } from '@better-auth/core/utils/host';
import { sso } from '@better-auth/sso';
import { domainOf } from '@pulsecheck/shared/auth/security-messages';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { account, session, ssoProviderTable, user, verification } from '../db/schema/auth';
import { issuerOrigins, joinOrganization } from '../features/sso/queries';
import { gated, gatedStorage } from './async-storage';
import { sharedAuthOptions } from './options';
import { derivedKey, sealedText } from './sealed-column';

/**
 * One sign-in through an organisation's identity provider, as our routes started it (features/sso): the nonce
 * sent in the authorization request, the organisation and its domains, and whether it is the admin's 'Test
 * connection'. The callback route finds it by the `state` (once) and runs the plugin inside it, so the rules
 * below can read it.
 */
export type SsoFlow = {
  providerId: string;
  organizationId: string;
  nonce: string;
  purpose: 'sign-in' | 'test';
  domains: string[];
};

const currentFlow = gatedStorage(new AsyncLocalStorage<SsoFlow>());
export const runInFlow = <T>(flow: SsoFlow, run: () => Promise<T>) => gated(() => currentFlow.run(flow, run));

/** The error a refused identity carries to the callback's redirect (features/sso maps it to words). */
export const SSO_REFUSALS = {
  state: 'sso_state',
  nonce: 'sso_nonce',
  emailUnverified: 'sso_email_unverified',
  domain: 'sso_domain',
  /** Not a failure: 'Test connection' got this far, so everything checked out; nothing is created. */
  testPassed: 'sso_test_passed',
} as const;

/**
 * Whether an issuer URL may be used: https on a publicly routable host; http (or a private host) only on this
 * machine's loopback and never in production (the tests' in-process provider). The server fetches the
 * provider's documents, so anything else could point it inside its own network.
 */
export function issuerAllowed(config: Pick<Config, 'env'>, issuer: string): boolean {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return false;
  }
  if (url.username || url.password || url.search || url.hash) return false;
  if (url.protocol === 'https:' && isPublicRoutableHost(url.hostname)) return true;
  return config.env !== 'production' && isLoopbackHost(url.hostname);
}

/** The sso_provider table as the server reads and writes it: `oidc_config` (with the client secret) sealed. */
const sealedTables = new Map<string, ReturnType<typeof sealedProviderTable>>();
const sealedProviderTable = (secret: string) =>
  ssoProviderTable(sealedText(derivedKey(secret, 'sso-provider-config'))('oidc_config'));
export function ssoProviderRows(secret: string) {
  let table = sealedTables.get(secret);
  if (!table) sealedTables.set(secret, (table = sealedProviderTable(secret)));
  return table;
}

/**
 * The better-auth instance for organisation single sign-on: @better-auth/sso (OpenID Connect, authorization
 * code with PKCE and state), with the rules it does not have added around it (decision 0010):
 * - `resolveUser` runs after the plugin verified the ID token (issuer, audience, signature) and before anything
 *   is created: it refuses a wrong nonce, an e-mail the provider has not verified, or an e-mail outside the
 *   organisation's domains; it links an existing account by its (verified) e-mail, and a 'Test connection' ends
 *   here with nothing created;
 * - `provisionUser` makes a newly signed-in person a member of the organisation (just-in-time), every sign-in.
 * A separate instance because `resolveUser` needs the adapter's transactions, which the main instance's
 * callbacks (they use the database themselves) must not run inside.
 */
export function createSsoAuth(options: { config: Config; db: Db }) {
  const { config, db } = options;
  return betterAuth({
    ...sharedAuthOptions(config),
    // The plugin fetches only from trusted origins: the configured issuers (each checked by issuerAllowed).
    trustedOrigins: async (request) =>
      request ? [config.appUrl, ...(await issuerOrigins(db))] : [config.appUrl],
    database: drizzleAdapter(db, {
      provider: 'pg',
      transaction: true,
      schema: { user, session, account, verification, ssoProvider: ssoProviderRows(config.authSecret) },
    }),
    account: { accountLinking: { enabled: true } },
    plugins: [
      sso({
        // resolveUser refuses `email_verified` other than true, so what reaches the account is verified.
        trustEmailVerified: true,
        organizationProvisioning: { disabled: true },
        // Providers are written by features/sso only, never through the plugin's own endpoints.
        providersLimit: 0,
        provisionUserOnEveryLogin: true,
        provisionUser: async ({ user: signedIn }) => {
          const flow = currentFlow.getStore();
          if (flow) await joinOrganization(db, { organizationId: flow.organizationId, userId: signedIn.id });
        },
        resolveUser: async (input, { database }) => {
          const flow = currentFlow.getStore();
          const reject = (code: string) => ({ action: 'reject' as const, code });
          if (!flow || input.protocol !== 'oidc' || flow.providerId !== input.providerId)
            return reject(SSO_REFUSALS.state);
          if (input.verifiedIdTokenClaims.nonce !== flow.nonce) return reject(SSO_REFUSALS.nonce);
          if (input.providerUser.emailVerified !== true) return reject(SSO_REFUSALS.emailUnverified);
          const email = input.providerUser.email.toLowerCase();
          if (!flow.domains.includes(domainOf(email))) return reject(SSO_REFUSALS.domain);
          if (flow.purpose === 'test') return reject(SSO_REFUSALS.testPassed);
          const existing = await database.findOne<{ id: string }>({
            model: 'user',
            where: [{ field: 'email', value: email }],
          });
          return existing
            ? { action: 'link' as const, userId: existing.id, profile: 'preserve' as const }
            : { action: 'continue' as const };
        },
      }),
    ],
  });
}

export type SsoAuth = ReturnType<typeof createSsoAuth>;
