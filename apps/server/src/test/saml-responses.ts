import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';

/**
 * SAML responses the tests write and sign themselves (xml-crypto, another implementation than the one verifying
 * them), to prove each refusal of the assertion consumer service: a key and certificate made by openssl, metadata
 * naming them, and a response with every field settable.
 */
export function testIdpKeys(bits = 2048) {
  const dir = mkdtempSync(path.join(tmpdir(), 'saml-keys-'));
  try {
    const made = spawnSync('openssl', [
      'req',
      '-x509',
      '-newkey',
      `rsa:${bits}`,
      '-sha256',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=test idp',
      '-keyout',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
    ]);
    if (made.status !== 0) throw new Error(made.stderr.toString());
    return {
      privateKey: readFileSync(path.join(dir, 'key.pem'), 'utf8'),
      certificate: readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const certBody = (pem: string) => pem.replace(/-----[^-]+-----/g, '').replace(/\s+/g, '');

/** An identity provider's metadata for `entityId`, signing with `certificate`, signing in at `ssoUrl`. */
export function idpMetadata(options: { entityId: string; ssoUrl: string; certificate: string }) {
  return `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${options.entityId}">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certBody(options.certificate)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="${options.ssoUrl}"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
}

/** The ID of the AuthnRequest in a HTTP-Redirect URL (deflated, base64). */
export function authnRequestId(url: string) {
  const request = new URL(url).searchParams.get('SAMLRequest');
  if (!request) throw new Error(`no SAMLRequest in ${url}`);
  const xml = inflateRawSync(Buffer.from(request, 'base64')).toString('utf8');
  const id = / ID="([^"]+)"/.exec(xml)?.[1];
  if (!id) throw new Error(`no ID in ${xml}`);
  return id;
}

export type ResponseFields = {
  issuer: string;
  audience: string;
  acsUrl: string;
  email: string;
  nameId?: string;
  inResponseTo?: string | null;
  assertionId?: string;
  notBefore?: Date;
  notOnOrAfter?: Date;
  recipient?: string;
};

const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');
const newId = () => `_${randomBytes(16).toString('hex')}`;

/** The unsigned response XML, with one assertion. */
export function responseXml(fields: ResponseFields) {
  const now = new Date();
  const notBefore = fields.notBefore ?? new Date(now.getTime() - 30_000);
  const notOnOrAfter = fields.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000);
  const inResponseTo = fields.inResponseTo ? ` InResponseTo="${fields.inResponseTo}"` : '';
  return `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${newId()}" Version="2.0" IssueInstant="${iso(now)}" Destination="${fields.acsUrl}"${inResponseTo}><saml:Issuer>${fields.issuer}</saml:Issuer><samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status><saml:Assertion ID="${fields.assertionId ?? newId()}" Version="2.0" IssueInstant="${iso(now)}"><saml:Issuer>${fields.issuer}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent">${fields.nameId ?? fields.email}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData NotOnOrAfter="${iso(notOnOrAfter)}" Recipient="${fields.recipient ?? fields.acsUrl}"${inResponseTo}/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(notOnOrAfter)}"><saml:AudienceRestriction><saml:Audience>${fields.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="${newId()}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement><saml:Attribute Name="email"><saml:AttributeValue>${fields.email}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement></saml:Assertion></samlp:Response>`;
}

const ALGORITHMS = {
  sha256: {
    signature: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
    digest: 'http://www.w3.org/2001/04/xmlenc#sha256',
  },
  sha1: {
    signature: 'http://www.w3.org/2000/09/xmldsig#rsa-sha1',
    digest: 'http://www.w3.org/2000/09/xmldsig#sha1',
  },
} as const;

/** Signs the assertion of `xml` (enveloped signature after its Issuer, exclusive canonicalisation). */
export function signAssertion(
  xml: string,
  keys: { privateKey: string; certificate: string },
  algorithm: keyof typeof ALGORITHMS = 'sha256',
) {
  const signer = new SignedXml({
    privateKey: keys.privateKey,
    publicCert: keys.certificate,
    signatureAlgorithm: ALGORITHMS[algorithm].signature,
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
  });
  signer.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    transforms: [
      'http://www.w3.org/2000/09/xmldsig#enveloped-signature',
      'http://www.w3.org/2001/10/xml-exc-c14n#',
    ],
    digestAlgorithm: ALGORITHMS[algorithm].digest,
  });
  signer.computeSignature(xml, {
    location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
  });
  return signer.getSignedXml();
}

export const base64 = (xml: string) => Buffer.from(xml, 'utf8').toString('base64');
