import { z } from 'zod';
import { requiredText } from '../api/fields';
import { AUTH_MESSAGES } from '../auth/messages';
import type { Translator } from '../i18n/translate';

/**
 * The spec's wording for account settings (sections 5 and 8; PRODUCT-DECISIONS 6 for the length rule): catalogue
 * keys (area `account`, decision 0027).
 */
export const ACCOUNT_MESSAGES = {
  loadFailed: 'account.loadFailed',
  saved: 'account.saved',
  saveFailed: 'account.saveFailed',
  photoUpdated: 'account.photoUpdated',
  photoFailed: 'account.photoFailed',
  photoType: 'account.photoType',
  photoTooLarge: 'account.photoTooLarge',
  photoMissing: 'account.photoMissing',
  /** The same words as signing up's. */
  fullNameRequired: AUTH_MESSAGES.fullNameRequired,
  allFieldsRequired: 'account.allFieldsRequired',
  passwordsDoNotMatch: 'account.passwordsDoNotMatch',
  passwordTooShort: 'account.passwordTooShort',
  passwordTooLong: 'account.passwordTooLong',
  currentPasswordIncorrect: 'account.currentPasswordIncorrect',
  passwordUpdated: 'account.passwordUpdated',
  passwordFailed: 'account.passwordFailed',
  preferencesSaved: 'account.preferencesSaved',
  preferencesFailed: 'account.preferencesFailed',
  preferencesLoadFailed: 'account.preferencesLoadFailed',
  webhookHttps: 'account.webhookHttps',
  webhookRequired: 'account.webhookRequired',
  unsubscribed: 'account.unsubscribed',
  unsubscribeInvalid: 'account.unsubscribeInvalid',
  downloadData: 'account.downloadData',
  downloadFailed: 'account.downloadFailed',
  fullNameTooLong: 'account.fullNameTooLong',
  roleTooLong: 'account.roleTooLong',
  departmentTooLong: 'account.departmentTooLong',
  bioTooLong: 'account.bioTooLong',
  webhookTooLong: 'account.webhookTooLong',
  channelTooLong: 'account.channelTooLong',
} as const;

export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
export type AvatarType = (typeof AVATAR_TYPES)[number];

const startsWith = (bytes: Uint8Array, signature: number[], offset = 0) =>
  bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
const ascii = (text: string) => [...text].map((ch) => ch.charCodeAt(0));

/** The image type by its first bytes (never by name or declared type), or null when it is none we accept. */
export function detectImageType(bytes: Uint8Array): AvatarType | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp';
  return null;
}

const optionalText = (max: number, tooLong: string) =>
  z
    .string()
    .trim()
    .max(max, tooLong)
    .transform((v) => (v === '' ? null : v))
    .nullable();

export const profileSchema = z.object({
  fullName: z.string(),
  email: z.string(),
  role: z.string().nullable(),
  department: z.string().nullable(),
  bio: z.string().nullable(),
  avatarUrl: z.string().nullable(),
});
export type Profile = z.infer<typeof profileSchema>;
export const profileResponseSchema = z.object({ profile: profileSchema });

/** Only these are editable (spec section 5); the e-mail is read-only. */
export const updateProfileSchema = z.strictObject({
  fullName: requiredText(ACCOUNT_MESSAGES.fullNameRequired, 120, ACCOUNT_MESSAGES.fullNameTooLong),
  role: optionalText(80, ACCOUNT_MESSAGES.roleTooLong),
  department: optionalText(80, ACCOUNT_MESSAGES.departmentTooLong),
  bio: optionalText(1000, ACCOUNT_MESSAGES.bioTooLong),
});
export type UpdateProfileInput = z.input<typeof updateProfileSchema>;

export const avatarResponseSchema = z.object({ avatarUrl: z.string() });

export const changePasswordSchema = z
  .strictObject({
    currentPassword: z.string({ error: ACCOUNT_MESSAGES.allFieldsRequired }).max(128),
    newPassword: z
      .string({ error: ACCOUNT_MESSAGES.allFieldsRequired })
      .max(128, ACCOUNT_MESSAGES.passwordTooLong),
    confirmPassword: z.string({ error: ACCOUNT_MESSAGES.allFieldsRequired }).max(128),
    /** 'Also remove my passkeys and sign out everywhere else' (other sessions end either way). */
    removePasskeys: z.boolean().default(false),
  })
  .superRefine((v, ctx) => {
    // The spec checks in this order and shows one message at a time.
    if (!v.currentPassword || !v.newPassword || !v.confirmPassword) {
      const path = !v.currentPassword
        ? 'currentPassword'
        : !v.newPassword
          ? 'newPassword'
          : 'confirmPassword';
      ctx.addIssue({ code: 'custom', message: ACCOUNT_MESSAGES.allFieldsRequired, path: [path] });
      return;
    }
    if (v.newPassword !== v.confirmPassword) {
      ctx.addIssue({
        code: 'custom',
        message: ACCOUNT_MESSAGES.passwordsDoNotMatch,
        path: ['confirmPassword'],
      });
      return;
    }
    if (v.newPassword.length < 8) {
      ctx.addIssue({ code: 'custom', message: ACCOUNT_MESSAGES.passwordTooShort, path: ['newPassword'] });
    }
  });
export type ChangePasswordInput = z.input<typeof changePasswordSchema>;

const webhookUrl = z
  .string()
  .trim()
  .max(500, ACCOUNT_MESSAGES.webhookTooLong)
  // Only Slack's own host: the server posts to this address, so it must never point inside our network.
  .refine((v) => v === '' || /^https:\/\/hooks\.slack\.com\/\S+$/.test(v), ACCOUNT_MESSAGES.webhookHttps);

export const notificationPreferencesSchema = z.strictObject({
  emailNotifications: z.strictObject({
    surveyReminders: z.boolean(),
    newResponses: z.boolean(),
    weeklyDigest: z.boolean(),
    monthlyReports: z.boolean(),
    teamUpdates: z.boolean(),
    phaseChanges: z.boolean(),
    resultsReady: z.boolean(),
  }),
  pushNotifications: z.strictObject({
    surveyReminders: z.boolean(),
    newResponses: z.boolean(),
    completionMilestones: z.boolean(),
    teamUpdates: z.boolean(),
  }),
  slackNotifications: z.strictObject({
    enabled: z.boolean(),
    channel: z.string().trim().max(80, ACCOUNT_MESSAGES.channelTooLong),
    webhookUrl,
    surveyReminders: z.boolean(),
    newResponses: z.boolean(),
    completionMilestones: z.boolean(),
    dailyDigest: z.boolean(),
  }),
});
export type NotificationPreferences = z.infer<typeof notificationPreferencesSchema>;
export type EmailSetting = keyof NotificationPreferences['emailNotifications'];
export const notificationPreferencesResponseSchema = z.object({ preferences: notificationPreferencesSchema });

/**
 * The spec's defaults (section 3), and for the two e-mails it does not name (issue 14): `phaseChanges` (a
 * health check you take part in or manage moves to its next phase) and `resultsReady` (its results are
 * released to you), both on, so a participant hears of the next phase without visiting the settings.
 */
export const DEFAULT_NOTIFICATION_PREFERENCES: NotificationPreferences = {
  emailNotifications: {
    surveyReminders: true,
    newResponses: true,
    weeklyDigest: true,
    monthlyReports: true,
    teamUpdates: false,
    phaseChanges: true,
    resultsReady: true,
  },
  pushNotifications: {
    surveyReminders: false,
    newResponses: true,
    completionMilestones: true,
    teamUpdates: true,
  },
  slackNotifications: {
    enabled: true,
    channel: '#survey-updates',
    webhookUrl: '',
    surveyReminders: true,
    newResponses: false,
    completionMilestones: true,
    dailyDigest: false,
  },
};

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Stored preferences over the defaults, key by key; unknown keys and wrong types fall back to the default. */
export function resolvePreferences(stored: unknown): NotificationPreferences {
  const result = JSON.parse(JSON.stringify(DEFAULT_NOTIFICATION_PREFERENCES)) as NotificationPreferences;
  if (!isRecord(stored)) return result;
  for (const group of Object.keys(result) as (keyof NotificationPreferences)[]) {
    const from = stored[group];
    if (!isRecord(from)) continue;
    const target = result[group] as Record<string, unknown>;
    for (const key of Object.keys(target)) {
      if (typeof from[key] === typeof target[key]) target[key] = from[key];
    }
  }
  return result;
}

export const unsubscribeSchema = z.strictObject({ token: z.string().min(1).max(500) });

/** The e-mail settings an e-mailed unsubscribe link can switch off: those of the e-mails that carry one. */
export const UNSUBSCRIBABLE_SETTINGS = [
  'surveyReminders',
  'phaseChanges',
  'resultsReady',
] as const satisfies readonly EmailSetting[];
export type UnsubscribableSetting = (typeof UNSUBSCRIBABLE_SETTINGS)[number];
export const isUnsubscribable = (value: string): value is UnsubscribableSetting =>
  (UNSUBSCRIBABLE_SETTINGS as readonly string[]).includes(value);

/** Each e-mail's name in 'You will no longer receive … emails.' (catalogue keys). */
const EMAIL_NAMES: Record<UnsubscribableSetting, string> = {
  surveyReminders: 'account.emailName.surveyReminders',
  phaseChanges: 'account.emailName.phaseChanges',
  resultsReady: 'account.emailName.resultsReady',
};

/** What the unsubscribe page says once the link's settings are off, in the language of `t`. */
export function unsubscribedMessage(settings: readonly UnsubscribableSetting[], t: Translator['t']): string {
  const names = UNSUBSCRIBABLE_SETTINGS.filter((s) => settings.includes(s)).map((s) => t(EMAIL_NAMES[s]));
  if (names.length === 0) return t(ACCOUNT_MESSAGES.unsubscribed);
  // One to three names, as the language lists them (the message's plural picks the form).
  const [first = '', second = '', third = ''] = names;
  return t('account.unsubscribedFrom', { count: names.length, first, second, third });
}

export const unsubscribeResponseSchema = z.object({
  ok: z.literal(true),
  /** The settings the link switched off. */
  unsubscribed: z.array(z.enum(UNSUBSCRIBABLE_SETTINGS)),
});
export type UnsubscribeResponse = z.infer<typeof unsubscribeResponseSchema>;
