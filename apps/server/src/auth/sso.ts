import { AsyncLocalStorage } from 'node:async_hooks';
import { isIP } from 'node:net';
import { isLoopbackHost } from '@better-auth/core/utils/host';
import type { Config } from '../config';
import { ssoProviderTable } from '../db/schema/auth';
import { addressAllowed, type OutboundPolicy } from '../lib/outbound';
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
  purpose: 'sign-in' | 'test' | 'link';
  /** The verified domains of the organisation (only these sign in). */
  domains: string[];
  /** 'link': the signed-in account that asked to link single sign-on (Security tab). */
  userId?: string;
  /** The address the provider's redirect came from (the audit log's record of an admin's sign-in). */
  clientIp?: string | null;
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
  /** An existing account that SSO of this organisation neither created nor was linked to by its owner. */
  accountExists: 'sso_account_exists',
  /** 'Link single sign-on': the provider signed in another address than the account's. */
  linkMismatch: 'sso_link_mismatch',
  /** Not a failure: 'Test connection' got this far, so everything checked out; nothing is created. */
  testPassed: 'sso_test_passed',
} as const;

/**
 * Whether an issuer URL may be saved: https, no credentials, query or fragment; http only for a loopback issuer
 * with SSO_ALLOW_LOOPBACK_ISSUER (tests and local trials, never in production: config.ts). Where the host leads is
 * checked when the server connects to it (lib/outbound.ts): every request to the provider goes through that guard.
 */
export function issuerAllowed(config: Pick<Config, 'allowLoopbackIssuer'>, issuer: string): boolean {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return false;
  }
  if (url.username || url.password || url.search || url.hash) return false;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  if (isLoopbackHost(url.hostname)) return config.allowLoopbackIssuer;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !addressAllowed(host, false)) return false;
  return url.protocol === 'https:';
}

/** The outbound guard's policy for requests to identity providers (lib/outbound.ts). */
export const issuerPolicy = (config: Pick<Config, 'allowLoopbackIssuer' | 'dnsServers'>): OutboundPolicy => ({
  dnsServers: config.dnsServers,
  allowLoopback: config.allowLoopbackIssuer,
});

/** The sso_provider table as the server reads and writes it: `oidc_config` (with the client secret) and `saml_config` sealed. */
const sealedTables = new Map<string, ReturnType<typeof sealedProviderTable>>();
const sealedProviderTable = (secret: string) =>
  ssoProviderTable(
    sealedText(derivedKey(secret, 'sso-provider-config'))('oidc_config'),
    sealedText(derivedKey(secret, 'sso-provider-saml-config'))('saml_config'),
  );
export function ssoProviderRows(secret: string) {
  let table = sealedTables.get(secret);
  if (!table) sealedTables.set(secret, (table = sealedProviderTable(secret)));
  return table;
}
