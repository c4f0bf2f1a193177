import { DOMParser, type Element } from '@xmldom/xmldom';
import type { Config } from '../../config';
import {
  ASSERTION_FALLBACK_MS,
  browserUrlAllowed,
  CLOCK_SKEW_MS,
  METADATA_MAX_CHARS,
  SAML_NS,
  type SamlConfig,
  signingCertificate,
} from './saml-metadata';

/**
 * The XML reading of SAML (features/sso/saml.ts loads it with import() on first use, with @node-saml/node-saml: the
 * XML libraries are not read at every start, decision 0015): parsing, the identity provider's metadata, and what a
 * signed assertion says beyond node-saml's profile.
 */

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

const STRONG_SIGNATURES = new Set([
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha384',
  'http://www.w3.org/2001/04/xmldsig-more#rsa-sha512',
  'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha256',
  'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha384',
  'http://www.w3.org/2001/04/xmldsig-more#ecdsa-sha512',
]);
const STRONG_DIGESTS = new Set([
  'http://www.w3.org/2001/04/xmlenc#sha256',
  'http://www.w3.org/2001/04/xmldsig-more#sha384',
  'http://www.w3.org/2001/04/xmlenc#sha512',
]);

/** Whether every signature in the document uses RSA-SHA256 (or ECDSA) or better, with SHA-256 or better digests. */
export function strongSignatures(xml: string) {
  const doc = parseXml(xml);
  if (!doc?.documentElement) return false;
  const methods = Array.from(doc.getElementsByTagNameNS(SAML_NS.dsig, 'SignatureMethod'));
  const digests = Array.from(doc.getElementsByTagNameNS(SAML_NS.dsig, 'DigestMethod'));
  return (
    methods.every((node) => STRONG_SIGNATURES.has(node.getAttribute('Algorithm') ?? '')) &&
    digests.every((node) => STRONG_DIGESTS.has(node.getAttribute('Algorithm') ?? ''))
  );
}

/** What the signed assertion says beyond node-saml's profile: its id, recipients, InResponseTo and expiry. */
export function assertionFacts(assertionXml: string) {
  const doc = parseXml(assertionXml);
  const assertion = doc?.documentElement;
  if (!assertion || assertion.localName !== 'Assertion' || assertion.namespaceURI !== SAML_NS.assertion)
    return null;
  const confirmations = Array.from(
    assertion.getElementsByTagNameNS(SAML_NS.assertion, 'SubjectConfirmationData'),
  );
  const conditions = Array.from(assertion.getElementsByTagNameNS(SAML_NS.assertion, 'Conditions'));
  const times = [...confirmations, ...conditions]
    .map((node) => Date.parse(node.getAttribute('NotOnOrAfter') ?? ''))
    .filter((time) => !Number.isNaN(time));
  return {
    id: assertion.getAttribute('ID') ?? '',
    recipients: confirmations.map((node) => node.getAttribute('Recipient')),
    inResponseTo: confirmations.map((node) => node.getAttribute('InResponseTo')).find(Boolean) ?? null,
    expiresAt: new Date(
      (times.length > 0 ? Math.max(...times) : Date.now() + ASSERTION_FALLBACK_MS) + CLOCK_SKEW_MS,
    ),
  };
}
