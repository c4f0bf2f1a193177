import { createHash, createHmac, randomBytes } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';

/**
 * The secrets of answering (docs/decisions/0009-loops.md). A member's personal link of a round carries a token
 * derived from the server's secret, the round and the member: the database keeps only its hash, so a dump cannot
 * answer for anyone, and the server can write the link into an e-mail whenever it queues one (in batches after the
 * round opened, or in a reminder) without ever storing it. A forged token matches no hash.
 */
export const answerToken = (secret: string, roundId: string, memberId: string) =>
  createHmac('sha256', secret).update(tokenMessage(roundId, memberId)).digest('base64url');

const tokenMessage = (roundId: string, memberId: string) => `loop-answer:${roundId}:${memberId}`;

/** How a token or continuation secret is stored and looked up. */
export const secretHash = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The random secret a one-click answer gives the browser, to add the other answers while the round is open. */
export const newContinuation = () => randomBytes(32).toString('base64url');

const BLOCK = 64;

/** HMAC's two padded keys (RFC 2104), as hex, so SQL can finish the HMAC with the core sha256(). */
function paddedKeys(secret: string) {
  let key = Buffer.from(secret, 'utf8');
  if (key.length > BLOCK) key = createHash('sha256').update(key).digest();
  const padded = Buffer.concat([key, Buffer.alloc(BLOCK - key.length)]);
  const xor = (byte: number) => Buffer.from(padded.map((b) => b ^ byte)).toString('hex');
  return { inner: xor(0x36), outer: xor(0x5c) };
}

/**
 * `answerToken` as an SQL expression over a round id and a member id column, so that opening a round for ten
 * thousand members writes their token hashes and e-mails in a few statements. HMAC-SHA256 from the padded keys and
 * PostgreSQL's core sha256() (no extension), then base64url without padding: the same string as `answerToken`
 * (a test holds them together).
 */
export function answerTokenSql(secret: string, roundId: string, memberId: SQL) {
  const { inner, outer } = paddedKeys(secret);
  const message = sql`convert_to(${tokenMessage(roundId, '')} || (${memberId})::text, 'UTF8')`;
  const digest = sql`sha256(decode(${outer}, 'hex') || sha256(decode(${inner}, 'hex') || ${message}))`;
  return sql`translate(rtrim(encode(${digest}, 'base64'), '='), '+/', '-_')`;
}

/** `secretHash` of an SQL text expression. */
export const secretHashSql = (value: SQL) => sql`encode(sha256(convert_to(${value}, 'UTF8')), 'hex')`;
