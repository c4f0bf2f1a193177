import { sso } from '@better-auth/sso';
import { domainOf } from '@pulsecheck/shared/auth/security-messages';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import type { Config } from '../config';
import type { Db } from '../db/client';
import { account, session, user, verification } from '../db/schema/auth';
import { recordSignIn } from '../audit/sign-ins';
import { issuerOrigins, joinOrganization } from '../features/sso/queries';
import { sharedAuthOptions } from './options';
import { flowInProgress, SSO_REFUSALS, ssoProviderRows } from './sso';

/**
 * The better-auth instance for organisation single sign-on: @better-auth/sso (OpenID Connect, authorization
 * code with PKCE and state), with the rules it does not have added around it (decisions 0010 and 0016):
 * - `resolveUser` runs after the plugin verified the ID token (issuer, audience, signature) and before anything
 *   is created: it refuses a wrong nonce, an e-mail the provider has not verified, or an e-mail outside the
 *   organisation's verified domains; a 'Test connection' ends here with nothing created. It never takes over an
 *   account SSO did not create: an existing account signs in only if this organisation's SSO created it, or if it
 *   is a member that linked SSO itself ('Link single sign-on', the flow of purpose 'link', which links the
 *   signed-in account only, and only to a provider identity with the same verified e-mail). Any other existing
 *   account is refused and left as it is; an address without an account is created (just-in-time).
 * - `provisionUser` makes a person signed in through 'Sign in with SSO' a member of the organisation
 *   (just-in-time).
 * A separate instance because `resolveUser` needs the adapter's transactions, which the main instance's
 * callbacks (they use the database themselves) must not run inside; for the same reason it reads through the
 * adapter (`database`), never through `db` (on the embedded database that would wait for the transaction).
 * Every request the plugin makes to the provider runs inside features/sso's `guardFetches` (lib/outbound.ts).
 */
export function createSsoAuth(options: { config: Config; db: Db }) {
  const { config, db } = options;
  return betterAuth({
    ...sharedAuthOptions(config),
    // The plugin skips its own (unpinned) address check for these origins: lib/outbound.ts does it when connecting.
    trustedOrigins: async (request) =>
      request ? [config.appUrl, ...(await issuerOrigins(db))] : [config.appUrl],
    database: drizzleAdapter(db, {
      provider: 'pg',
      transaction: true,
      schema: {
        user,
        session,
        account,
        verification,
        ssoProvider: ssoProviderRows(config.authSecret),
      },
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
          if (flow?.purpose !== 'sign-in') return;
          await joinOrganization(db, { organizationId: flow.organizationId, userId: signedIn.id });
          await recordSignIn(db, signedIn.id, { ip: flow.clientIp ?? null, method: 'single sign-on' });
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
          const link = (userId: string) => ({
            action: 'link' as const,
            userId,
            profile: 'preserve' as const,
          });
          if (flow.purpose === 'link')
            return existing && existing.id === flow.userId
              ? link(existing.id)
              : reject(SSO_REFUSALS.linkMismatch);
          if (!existing) return { action: 'continue' as const };
          // The provider's account row exists only where this organisation's SSO created the account (just in
          // time) or its owner linked it; nothing else writes one (migration 0012 removed the old silent links).
          const bound = await database.findOne<{ id: string }>({
            model: 'account',
            where: [
              { field: 'userId', value: existing.id },
              { field: 'providerId', value: flow.providerId },
            ],
          });
          return bound ? link(existing.id) : reject(SSO_REFUSALS.accountExists);
        },
      }),
    ],
  });
}

export type SsoAuth = ReturnType<typeof createSsoAuth>;
