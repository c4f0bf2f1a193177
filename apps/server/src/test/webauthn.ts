import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';

/**
 * A software authenticator for API tests: answers a passkey's creation options as a browser and its device would
 * (attestation 'none', an ES256 key), with or without user verification (the UV flag). Written from the WebAuthn
 * specification, not from the product's code.
 */

/** The few CBOR items an attestation needs (RFC 8949): small integers, byte and text strings, maps. */
function cbor(value: number | string | Uint8Array | Map<number | string, unknown>): Buffer {
  const head = (major: number, length: number) =>
    length < 24
      ? Buffer.from([(major << 5) | length])
      : length < 256
        ? Buffer.from([(major << 5) | 24, length])
        : Buffer.from([(major << 5) | 25, length >> 8, length & 0xff]);
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  return Buffer.concat([
    head(5, value.size),
    ...[...value].flatMap(([key, item]) => [cbor(key), cbor(item as Parameters<typeof cbor>[0])]),
  ]);
}

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_DATA = 0x40;

/** The browser's answer (RegistrationResponseJSON) to `options` for the site at `origin`. */
export function createPasskey(
  options: { challenge: string; rp: { id?: string } },
  site: { origin: string; userVerified: boolean },
) {
  const rpId = options.rp.id ?? new URL(site.origin).hostname;
  const { publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const coseKey = new Map<number, unknown>([
    [1, 2], // kty: EC2
    [3, -7], // alg: ES256
    [-1, 1], // crv: P-256
    [-2, Buffer.from(jwk.x!, 'base64url')],
    [-3, Buffer.from(jwk.y!, 'base64url')],
  ]);
  const credentialId = randomBytes(16);
  const flags = FLAG_USER_PRESENT | FLAG_ATTESTED_DATA | (site.userVerified ? FLAG_USER_VERIFIED : 0);
  const authData = Buffer.concat([
    createHash('sha256').update(rpId).digest(),
    Buffer.from([flags]),
    Buffer.alloc(4), // signature counter
    Buffer.alloc(16), // AAGUID
    Buffer.from([0, credentialId.length]),
    credentialId,
    cbor(coseKey),
  ]);
  const attestationObject = cbor(
    new Map<string, unknown>([
      ['fmt', 'none'],
      ['attStmt', new Map()],
      ['authData', authData],
    ]),
  );
  const clientDataJSON = Buffer.from(
    JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin: site.origin }),
  );
  const id = credentialId.toString('base64url');
  return {
    id,
    rawId: id,
    type: 'public-key',
    response: {
      clientDataJSON: clientDataJSON.toString('base64url'),
      attestationObject: attestationObject.toString('base64url'),
      transports: ['internal'],
    },
    clientExtensionResults: {},
    authenticatorAttachment: 'platform',
  };
}
