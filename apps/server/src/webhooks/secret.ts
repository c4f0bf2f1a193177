import { randomBytes } from 'node:crypto';
import { derivedKey, seal, unseal } from '../auth/sealed-column';

/**
 * A webhook's signing secret: `whsec_` and 32 random bytes, shown once when the webhook is made and kept sealed
 * (AES-256-GCM under a key derived from AUTH_SECRET, auth/sealed-column.ts), because the worker must read it to sign.
 */
const PURPOSE = 'webhook-signing-secret';
const keys = new Map<string, Buffer>();
const keyOf = (authSecret: string) => {
  let key = keys.get(authSecret);
  if (!key) keys.set(authSecret, (key = derivedKey(authSecret, PURPOSE)));
  return key;
};

export const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;
export const sealSecret = (authSecret: string, secret: string) => seal(keyOf(authSecret), secret);
export const openSecret = (authSecret: string, sealed: string) => unseal(keyOf(authSecret), sealed);
