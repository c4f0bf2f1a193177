import { AUTH_MESSAGES } from '@pulsecheck/shared/auth/messages';
import { NOT_FOUND_MESSAGES } from '@pulsecheck/shared/api/errors';
import {
  ACCOUNT_MESSAGES,
  AVATAR_MAX_BYTES,
  detectImageType,
  resolvePreferences,
  type NotificationPreferences,
  type Profile,
  type UnsubscribableSetting,
} from '@pulsecheck/shared/account/schemas';
import { APIError } from 'better-auth/api';
import { AppError, invalid, notFound } from '../../lib/app-error';
import { endOtherSignIns } from '../../auth/factor-change';
import { FailedAttempt } from '../../auth/login-limit';
import { sessionTokenIn } from '../../auth/session';
import type { AppDeps } from '../../lib/router';
import * as q from './queries';
import { unsubscribeToken, verifyUnsubscribeToken } from './unsubscribe-token';

type Deps = Pick<AppDeps, 'db' | 'auth' | 'config' | 'logger'>;

/**
 * The one-click unsubscribe link of an e-mail: survey reminders by default, or the given settings. Written once for
 * every e-mail that carries one (this feature's notifications, the loops' reminders).
 */
export const unsubscribeUrl = (
  config: { appUrl: string; authSecret: string },
  userId: string,
  settings?: readonly UnsubscribableSetting[],
) =>
  `${config.appUrl.replace(/\/$/, '')}/unsubscribe?token=${unsubscribeToken(config.authSecret, userId, settings)}`;

const avatarUrl = (id: string | null) => (id ? `/api/avatars/${id}` : null);

export async function getProfile(deps: Pick<Deps, 'db'>, userId: string): Promise<Profile> {
  const row = await q.findProfile(deps.db, userId);
  if (!row) throw notFound(ACCOUNT_MESSAGES.loadFailed);
  const { avatarId, ...rest } = row;
  return { ...rest, avatarUrl: avatarUrl(avatarId) };
}

export async function updateProfile(
  deps: Pick<Deps, 'db'>,
  options: {
    userId: string;
    fullName: string;
    role: string | null;
    department: string | null;
    bio: string | null;
  },
): Promise<Profile> {
  const { userId, ...values } = options;
  await q.updateProfile(deps.db, userId, values);
  return getProfile(deps, userId);
}

/** Accepts PNG, JPEG, WebP or GIF by their bytes, at most 2 MB; the type stored is the detected one. */
export async function updateAvatar(deps: Pick<Deps, 'db'>, options: { userId: string; bytes: Uint8Array }) {
  if (options.bytes.length === 0)
    throw invalid(ACCOUNT_MESSAGES.photoMissing, { photo: ACCOUNT_MESSAGES.photoMissing });
  if (options.bytes.length > AVATAR_MAX_BYTES) {
    throw new AppError('payload_too_large', ACCOUNT_MESSAGES.photoTooLarge, {
      photo: ACCOUNT_MESSAGES.photoTooLarge,
    });
  }
  const type = detectImageType(options.bytes);
  if (!type) throw invalid(ACCOUNT_MESSAGES.photoType, { photo: ACCOUNT_MESSAGES.photoType });
  const id = await q.replaceAvatar(deps.db, options.userId, type, Buffer.from(options.bytes));
  return { avatarUrl: `/api/avatars/${id}` };
}

export async function getAvatar(deps: Pick<Deps, 'db'>, id: string) {
  const row = await q.findAvatar(deps.db, id);
  if (!row) throw notFound(NOT_FOUND_MESSAGES.photo);
  return row;
}

/**
 * Checks the current password; a factor changed (auth/factor-change.ts): every other session of the user, their
 * trusted devices and live streams end, and with `removePasskeys` their passkeys. Returns the new session cookies.
 * A wrong current password is a `FailedAttempt`: the route counts it like a failed sign-in.
 */
export async function changePassword(
  deps: Pick<AppDeps, 'auth' | 'db' | 'config' | 'realtime'>,
  options: {
    userId: string;
    currentPassword: string;
    newPassword: string;
    removePasskeys: boolean;
    headers: Headers;
  },
) {
  try {
    const { headers } = await deps.auth.api.changePassword({
      body: {
        currentPassword: options.currentPassword,
        newPassword: options.newPassword,
        revokeOtherSessions: true,
      },
      headers: options.headers,
      returnHeaders: true,
    });
    const cookies = headers.getSetCookie();
    await endOtherSignIns(deps, {
      userId: options.userId,
      keep: sessionTokenIn(deps.config, cookies),
      passkeys: options.removePasskeys,
    });
    return cookies;
  } catch (error) {
    if (error instanceof APIError) {
      if (error.body?.code === 'INVALID_PASSWORD') {
        throw new FailedAttempt('invalid', ACCOUNT_MESSAGES.currentPasswordIncorrect, {
          currentPassword: ACCOUNT_MESSAGES.currentPasswordIncorrect,
        });
      }
      if (error.statusCode === 401) throw new AppError('unauthenticated', AUTH_MESSAGES.noSession);
      throw invalid(error.message || ACCOUNT_MESSAGES.passwordFailed);
    }
    throw error;
  }
}

export async function getPreferences(
  deps: Pick<Deps, 'db'>,
  userId: string,
): Promise<NotificationPreferences> {
  const row = await q.findPreferences(deps.db, userId);
  if (!row) throw notFound();
  return resolvePreferences(row.preferences);
}

export async function savePreferences(
  deps: Pick<Deps, 'db'>,
  options: { userId: string; preferences: NotificationPreferences },
) {
  // Slack on without a webhook is the spec's default; it simply posts nothing until a URL is set.
  await q.savePreferences(deps.db, options.userId, options.preferences);
  return getPreferences(deps, options.userId);
}

/**
 * The one-click unsubscribe of an e-mail (survey reminders, phase changes, results ready): no session, a signed
 * token naming the user and the settings to switch off. Idempotent. Returns the settings switched off.
 */
export async function unsubscribe(
  deps: Pick<Deps, 'db' | 'config'>,
  token: string,
): Promise<UnsubscribableSetting[]> {
  const target = verifyUnsubscribeToken(deps.config.authSecret, token);
  if (!target || !(await q.switchOffEmail(deps.db, target.userId, target.settings))) {
    throw invalid(ACCOUNT_MESSAGES.unsubscribeInvalid);
  }
  return target.settings;
}
