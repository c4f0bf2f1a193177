import { sso } from '@better-auth/sso';
import { domainOf } from '@pulsecheck/shared/auth/security-messages';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { account, session, user, verification } from '../db/schema/auth';
import { issuerOrigins, joinOrganization } from '../features/sso/queries';
import { sharedAuthOptions } from './options';
import { flowInProgress, SSO_REFUSALS, ssoProviderRows } from './sso';

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
          const flow = flowInProgress();
          if (flow) await joinOrganization(db, { organizationId: flow.organizationId, userId: signedIn.id });
        },
        resolveUser: async (input, { database }) => {
          const flow = flowInProgress();
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
