import { AsyncLocalStorage } from 'node:async_hooks';
import { isLoopbackHost, isPublicRoutableHost } from '@better-auth/core/utils/host';
import type { Config } from '../config';
import { ssoProviderTable } from '../db/schema/auth';
import { gated, gatedStorage } from './async-storage';
import { derivedKey, sealedText } from './sealed-column';

/**
 * One sign-in through an organisation's identity provider, as our routes started it (features/sso): the nonce
 * sent in the authorization request, the organisation and its domains, and whether it is the admin's 'Test
 * connection'. The callback route finds it by the `state` (once) and runs the plugin inside it, so the rules
 * of auth/sso-auth.ts can read it.
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
/** The flow `runInFlow` is running, for the plugin's callbacks (auth/sso-auth.ts). */
export const flowInProgress = () => currentFlow.getStore();

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
