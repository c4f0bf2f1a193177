import { createHash, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { isLoopbackHost } from '@better-auth/core/utils/host';
import type { Config } from '../../config';
import { addressAllowed } from '../../lib/outbound';

/**
 * An identity provider's SAML 2.0 metadata as the server keeps it (sealed in `sso_provider.saml_config`, with the
 * organisation's switch for sign-in started at the identity provider): decision 0024.
 */
export type SamlConfig = {
  idpEntityId: string;
  /** The single sign-on service of binding HTTP-Redirect, where the browser takes our AuthnRequest. */
  idpSsoUrl: string;
  /** Signing certificates, base64 DER (the metadata's X509Certificate text). */
  certificates: string[];
  /** Where the metadata was fetched from, if it was given by URL. */
  metadataUrl: string | null;
  allowIdpInitiated: boolean;
};

export const SAML_NS = {
  metadata: 'urn:oasis:names:tc:SAML:2.0:metadata',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
  redirectBinding: 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect',
} as const;

/** The largest metadata document read (pasted or fetched). */
export const METADATA_MAX_CHARS = 200_000;

/** Clock skew accepted on NotBefore/NotOnOrAfter. */
export const CLOCK_SKEW_MS = 60_000;
/** An assertion without NotOnOrAfter is remembered this long. */
export const ASSERTION_FALLBACK_MS = 60 * 60_000;

/** A certificate whose key is RSA of 2048 bits or more, or EC; null otherwise (or when it is not one). */
export function signingCertificate(base64: string): X509Certificate | null {
  try {
    const cert = new X509Certificate(Buffer.from(base64, 'base64'));
    const key = cert.publicKey;
    if (key.asymmetricKeyType === 'rsa')
      return (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048 ? cert : null;
    return key.asymmetricKeyType === 'ec' ? cert : null;
  } catch {
    return null;
  }
}

export const certificateFingerprint = (cert: X509Certificate) =>
  createHash('sha256').update(cert.raw).digest('hex').toUpperCase().match(/.{2}/g)!.join(':');

/** The identity provider's single sign-on address: http(s) only, http only for a loopback host when allowed. */
export function browserUrlAllowed(config: Pick<Config, 'allowLoopbackIssuer'>, value: string) {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (isLoopbackHost(url.hostname)) return config.allowLoopbackIssuer && /^https?:$/.test(url.protocol);
  return url.protocol === 'https:';
}

/**
 * Whether a metadata URL may be fetched: https (http only for loopback when SSO_ALLOW_LOOPBACK_ISSUER), no
 * credentials, no IP literal of a private range. Where the host leads is checked when connecting (lib/outbound.ts).
 */
export function metadataUrlAllowed(config: Pick<Config, 'allowLoopbackIssuer'>, value: string) {
  if (!browserUrlAllowed(config, value)) return false;
  const host = new URL(value).hostname.replace(/^\[|\]$/g, '');
  return !isIP(host) || isLoopbackHost(host) || addressAllowed(host, false);
}

/** PEM text of a base64 DER certificate, as node-saml takes it. */
export const pemOf = (base64: string) =>
  `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
