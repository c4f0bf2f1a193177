import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { customType } from 'drizzle-orm/pg-core';

const VERSION = 'v1';

/** A 256-bit key for one purpose, derived from AUTH_SECRET with HKDF-SHA-256 (never the secret itself). */
export function derivedKey(secret: string, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'pulsecheck', purpose, 32));
}

/** AES-256-GCM: `v1.` + base64url(iv ‖ tag ‖ ciphertext). */
export function seal(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
}

/** The plain text of `seal`'s output, or null when it was sealed with another key or altered. */
export function unseal(key: Buffer, sealed: string): string | null {
  if (!sealed.startsWith(`${VERSION}.`)) return null;
  const raw = Buffer.from(sealed.slice(VERSION.length + 1), 'base64url');
  if (raw.length < 28) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/**
 * A text column whose value is encrypted at rest with `key`: Drizzle seals it on every write and opens it on every
 * read made through this column, so code that reads and writes through it (better-auth's adapter included) sees
 * plain text and the database never holds it. A value that cannot be opened (AUTH_SECRET changed) reads as null.
 */
export const sealedText = (key: Buffer) =>
  customType<{ data: string; driverData: string }>({
    dataType: () => 'text',
    toDriver: (value) => seal(key, value),
    fromDriver: (value) => unseal(key, value) as string,
  });
