import { describe, expect, it } from 'vitest';
import { compileCatalogue } from '../i18n/compile';
import { Translator } from '../i18n/translate';
import englishWords from '../../messages/en/account.json';
import {
  ACCOUNT_MESSAGES,
  changePasswordSchema,
  DEFAULT_NOTIFICATION_PREFERENCES,
  detectImageType,
  notificationPreferencesSchema,
  resolvePreferences,
  unsubscribedMessage,
} from './schemas';

/** The account area's English words (the tests read the catalogue as JSON, without Node's file system). */
const english = new Translator('en', compileCatalogue(englishWords, 'en'));
const t = english.t.bind(english);

const bytes = (...values: (number | string)[]) =>
  new Uint8Array(values.flatMap((v) => (typeof v === 'string' ? [...v].map((c) => c.charCodeAt(0)) : [v])));

describe('detectImageType', () => {
  it('knows the four accepted types by their first bytes', () => {
    expect(detectImageType(bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 0))).toBe('image/png');
    expect(detectImageType(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe('image/jpeg');
    expect(detectImageType(bytes('GIF89a', 1))).toBe('image/gif');
    expect(detectImageType(bytes('GIF87a'))).toBe('image/gif');
    expect(detectImageType(bytes('RIFF', 0, 0, 0, 0, 'WEBPVP8 '))).toBe('image/webp');
  });
  it('refuses everything else, including look-alikes and truncated headers', () => {
    expect(detectImageType(bytes('<svg xmlns="http://www.w3.org/2000/svg">'))).toBeNull();
    expect(detectImageType(bytes('RIFF', 0, 0, 0, 0, 'WAVE'))).toBeNull();
    expect(detectImageType(bytes(0x89, 'PN'))).toBeNull();
    expect(detectImageType(new Uint8Array())).toBeNull();
  });
});

describe('resolvePreferences', () => {
  it('gives the spec defaults for nothing stored and keeps stored values key by key', () => {
    expect(resolvePreferences(null)).toEqual(DEFAULT_NOTIFICATION_PREFERENCES);
    const resolved = resolvePreferences({
      emailNotifications: { teamUpdates: true, weeklyDigest: 'yes' },
      extra: 1,
    });
    expect(resolved.emailNotifications.teamUpdates).toBe(true);
    expect(resolved.emailNotifications.weeklyDigest).toBe(true);
    expect(notificationPreferencesSchema.safeParse(resolved).success).toBe(true);
  });
});

describe('participant e-mails (issue 14)', () => {
  it('sends phase-change and results-ready e-mails by default, also to those who saved settings before', () => {
    expect(DEFAULT_NOTIFICATION_PREFERENCES.emailNotifications).toMatchObject({
      phaseChanges: true,
      resultsReady: true,
    });
    const saved = resolvePreferences({ emailNotifications: { surveyReminders: false, newResponses: false } });
    expect(saved.emailNotifications).toMatchObject({
      surveyReminders: false,
      phaseChanges: true,
      resultsReady: true,
    });
  });

  it('says which e-mails an unsubscribe link switched off', () => {
    expect(unsubscribedMessage(['surveyReminders'], t)).toBe(t(ACCOUNT_MESSAGES.unsubscribed));
    expect(unsubscribedMessage(['resultsReady', 'phaseChanges'], t)).toBe(
      'You will no longer receive phase change and results ready emails.',
    );
    expect(unsubscribedMessage(['resultsReady', 'surveyReminders', 'phaseChanges'], t)).toBe(
      'You will no longer receive survey reminder, phase change and results ready emails.',
    );
  });
});

describe('changePasswordSchema', () => {
  const first = (input: Record<string, string>) => {
    const result = changePasswordSchema.safeParse(input);
    return result.success ? null : result.error.issues[0]?.message;
  };
  it('checks in the spec order with its messages', () => {
    expect(first({ currentPassword: '', newPassword: 'a', confirmPassword: 'b' })).toBe(
      ACCOUNT_MESSAGES.allFieldsRequired,
    );
    expect(first({ currentPassword: 'x', newPassword: 'abcdefgh', confirmPassword: 'abcdefgx' })).toBe(
      ACCOUNT_MESSAGES.passwordsDoNotMatch,
    );
    expect(first({ currentPassword: 'x', newPassword: 'abc', confirmPassword: 'abc' })).toBe(
      ACCOUNT_MESSAGES.passwordTooShort,
    );
    expect(first({ currentPassword: 'x', newPassword: 'abcdefgh', confirmPassword: 'abcdefgh' })).toBeNull();
  });
});
