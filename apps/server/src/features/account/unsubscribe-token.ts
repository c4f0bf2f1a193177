import { createHmac, timingSafeEqual } from 'node:crypto';
import {
  isUnsubscribable,
  UNSUBSCRIBABLE_SETTINGS,
  type UnsubscribableSetting,
} from '@pulsecheck/shared/account/schemas';

/**
 * A link that turns e-mail settings off for one user without signing in: the user id and the settings,
 * signed. A survey reminder's token names only the user (`<user>.<signature>`, the form its links always had);
 * others name their settings too (`<user>.<setting>-<setting>.<signature>`).
 */
const signature = (secret: string, userId: string, settings: string) =>
  createHmac('sha256', secret).update(`unsubscribe:${settings}:${userId}`).digest('base64url');

const REMINDERS_ONLY = 'surveyReminders';

export function unsubscribeToken(
  secret: string,
  userId: string,
  settings: readonly UnsubscribableSetting[] = [REMINDERS_ONLY],
): string {
  const list = UNSUBSCRIBABLE_SETTINGS.filter((s) => settings.includes(s)).join('-');
  const user = Buffer.from(userId).toString('base64url');
  return list === REMINDERS_ONLY
    ? `${user}.${signature(secret, userId, list)}`
    : `${user}.${list}.${signature(secret, userId, list)}`;
}

/** The user and the settings the token was made for, or null when it was not made with this secret. */
export function verifyUnsubscribeToken(
  secret: string,
  token: string,
): { userId: string; settings: UnsubscribableSetting[] } | null {
  const parts = token.split('.');
  const [encoded, list, given] = parts.length === 2 ? [parts[0], REMINDERS_ONLY, parts[1]] : parts;
  if (parts.length > 3 || !encoded || !list || !given) return null;
  const userId = Buffer.from(encoded, 'base64url').toString();
  const expected = Buffer.from(signature(secret, userId, list));
  const actual = Buffer.from(given);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return null;
  const settings = list.split('-');
  return settings.every(isUnsubscribable) ? { userId, settings } : null;
}
