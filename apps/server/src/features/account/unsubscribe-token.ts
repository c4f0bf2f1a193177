import { createHmac, timingSafeEqual } from 'node:crypto';

/** A link that turns survey reminders off for one user without signing in: the user id, signed. */
const signature = (secret: string, userId: string) =>
  createHmac('sha256', secret).update(`unsubscribe:surveyReminders:${userId}`).digest('base64url');

export const unsubscribeToken = (secret: string, userId: string) =>
  `${Buffer.from(userId).toString('base64url')}.${signature(secret, userId)}`;

/** The user id the token was made for, or null when it was not made with this secret. */
export function verifyUnsubscribeToken(secret: string, token: string): string | null {
  const [encoded, given] = token.split('.');
  if (!encoded || !given) return null;
  const userId = Buffer.from(encoded, 'base64url').toString();
  const expected = Buffer.from(signature(secret, userId));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual) ? userId : null;
}
