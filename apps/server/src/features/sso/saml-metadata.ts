import { createHash, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import { DOMParser, type Element } from '@xmldom/xmldom';
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

/**
 * Any error stops parsing (xmldom 0.9's `onError`; samlify's copy of xmldom 0.8 declares the same module with its
 * own options type, which TypeScript merges in, hence the cast).
 */
const STRICT = {
  onError: (level: string, message: string) => {
    if (level !== 'warning') throw new Error(message);
  },
} as unknown as ConstructorParameters<typeof DOMParser>[0];

/**
 * Parses XML without a document type declaration (no entities of any kind: no expansion bombs, nothing external),
 * or null when it is not well-formed.
 */
export function parseXml(xml: string) {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) return null;
  try {
    const doc = new DOMParser(STRICT).parseFromString(xml, 'text/xml');
    return doc.documentElement ? doc : null;
  } catch {
    return null;
  }
}

const children = (parent: Element, ns: string, name: string) =>
  Array.from(parent.getElementsByTagNameNS(ns, name));

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
function browserUrlAllowed(config: Pick<Config, 'allowLoopbackIssuer'>, value: string) {
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

/**
 * The one identity provider a metadata document describes (an EntityDescriptor with an IDPSSODescriptor for SAML
 * 2.0): its entity id, its HTTP-Redirect single sign-on address and its signing certificates (RSA of 2048 bits or
 * more, or EC). Null when any of them is missing, or when the document describes several identity providers.
 */
export function parseIdpMetadata(
  config: Pick<Config, 'allowLoopbackIssuer'>,
  xml: string,
): Omit<SamlConfig, 'metadataUrl' | 'allowIdpInitiated'> | null {
  if (xml.length > METADATA_MAX_CHARS) return null;
  const doc = parseXml(xml);
  if (!doc?.documentElement) return null;
  const entities = [
    doc.documentElement,
    ...children(doc.documentElement, SAML_NS.metadata, 'EntityDescriptor'),
  ]
    .filter((node) => node.namespaceURI === SAML_NS.metadata && node.localName === 'EntityDescriptor')
    .map((entity) => ({
      entity,
      idp: children(entity, SAML_NS.metadata, 'IDPSSODescriptor').find((descriptor) =>
        (descriptor.getAttribute('protocolSupportEnumeration') ?? '').split(/\s+/).includes(SAML_NS.protocol),
      ),
    }))
    .filter((found): found is { entity: Element; idp: Element } => Boolean(found.idp));
  if (entities.length !== 1) return null;
  const { entity, idp } = entities[0]!;
  const idpEntityId = entity.getAttribute('entityID')?.trim();
  const idpSsoUrl = children(idp, SAML_NS.metadata, 'SingleSignOnService')
    .find((service) => service.getAttribute('Binding') === SAML_NS.redirectBinding)
    ?.getAttribute('Location')
    ?.trim();
  const certificates = [
    ...new Set(
      children(idp, SAML_NS.metadata, 'KeyDescriptor')
        .filter((key) => (key.getAttribute('use') ?? 'signing') === 'signing')
        .flatMap((key) => children(key, SAML_NS.dsig, 'X509Certificate'))
        .map((node) => (node.textContent ?? '').replace(/\s+/g, ''))
        .filter((base64) => signingCertificate(base64) !== null),
    ),
  ];
  if (!idpEntityId || idpEntityId.length > 500 || !idpSsoUrl || certificates.length === 0) return null;
  if (!browserUrlAllowed(config, idpSsoUrl)) return null;
  return { idpEntityId, idpSsoUrl, certificates };
}

/** PEM text of a base64 DER certificate, as node-saml takes it. */
export const pemOf = (base64: string) =>
  `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
