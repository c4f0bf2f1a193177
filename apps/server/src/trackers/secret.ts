import { randomBytes } from 'node:crypto';
import { derivedKey, seal, unseal } from '../auth/sealed-column';

/**
 * A tracker connection's token and webhook secret, sealed at rest like SSO client secrets and webhook signing
 * secrets (AES-256-GCM under a key derived from AUTH_SECRET for this purpose alone, auth/sealed-column.ts): the
 * server must read them back to call the tracker and to check its signatures, so they cannot be hashed.
 */
const PURPOSE = 'tracker-credentials';
const keys = new Map<string, Buffer>();
const keyOf = (authSecret: string) => {
  let key = keys.get(authSecret);
  if (!key) keys.set(authSecret, (key = derivedKey(authSecret, PURPOSE)));
  return key;
};

export const newWebhookSecret = () => randomBytes(32).toString('base64url');
export const sealCredential = (authSecret: string, plain: string) => seal(keyOf(authSecret), plain);
/** The plain value, or null when AUTH_SECRET changed since it was sealed. */
export const openCredential = (authSecret: string, sealed: string) => unseal(keyOf(authSecret), sealed);
