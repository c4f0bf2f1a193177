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

/**
 * The credentials kept in the sealed token column: the token alone, or for trackers that take an account e-mail with
 * it (Jira Cloud) `<e-mail>\n<token>` — sealed together, so the e-mail needs no column and never reaches an answer.
 * Neither an e-mail address nor a token holds a line break.
 */
export const packCredential = (token: string, email: string | null | undefined) =>
  email ? `${email}\n${token}` : token;
export function unpackCredential(plain: string): { token: string; email: string | null } {
  const at = plain.indexOf('\n');
  return at < 0 ? { token: plain, email: null } : { email: plain.slice(0, at), token: plain.slice(at + 1) };
}
