import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * The secrets of answering (docs/decisions/0009-loops.md). A member's personal link of a round carries a token
 * derived from the server's secret, the round and the member: the database keeps only its hash, so a dump cannot
 * answer for anyone, and the server can write the link into an e-mail whenever it queues one (in batches after the
 * round opened, or in a reminder) without ever storing it. A forged token matches no hash.
 */
export const answerToken = (secret: string, roundId: string, memberId: string) =>
  createHmac('sha256', secret).update(`loop-answer:${roundId}:${memberId}`).digest('base64url');

/** How a token or continuation secret is stored and looked up. */
export const secretHash = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** The random secret a one-click answer gives the browser, to add the other answers while the round is open. */
export const newContinuation = () => randomBytes(32).toString('base64url');
