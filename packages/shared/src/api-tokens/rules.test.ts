import { describe, expect, it } from 'vitest';
import { compileCatalogue } from '../i18n/compile';
import { Translator } from '../i18n/translate';
import englishWords from '../../messages/en/apiTokens.json';
import {
  API_SCOPES,
  API_TOKEN_MESSAGES,
  createApiTokenSchema,
  expiryLabel,
  looksLikeApiToken,
} from './rules';

/** The area's English words (read as JSON, without Node's file system). */
const english = new Translator('en', compileCatalogue(englishWords, 'en'));

describe('API token rules', () => {
  it('has exactly the scopes of issue 35', () => {
    expect(API_SCOPES).toEqual([
      'health-checks:read',
      'health-checks:write',
      'results:read',
      'action-items:read',
      'action-items:write',
      'loops:read',
      'loops:write',
      'insights:read',
      'members:read',
    ]);
  });

  it('takes a name, at least one known scope (in the listed order, once each) and one of the expiries', () => {
    expect(
      createApiTokenSchema.parse({
        name: '  Dashboard ',
        scopes: ['results:read', 'health-checks:read', 'results:read'],
        expiresInDays: null,
      }),
    ).toEqual({ name: 'Dashboard', scopes: ['health-checks:read', 'results:read'], expiresInDays: null });
    const missing = createApiTokenSchema.safeParse({ name: ' ', scopes: [], expiresInDays: 30 });
    expect(missing.error?.issues.map((issue) => issue.message)).toEqual([
      API_TOKEN_MESSAGES.nameRequired,
      API_TOKEN_MESSAGES.scopesRequired,
    ]);
    expect(
      createApiTokenSchema.safeParse({ name: 'x', scopes: ['admin:all'], expiresInDays: 30 }).success,
    ).toBe(false);
    expect(
      createApiTokenSchema.safeParse({ name: 'x', scopes: ['loops:read'], expiresInDays: 7 }).success,
    ).toBe(false);
    expect(
      [30, 90, 365, null].map((days) => expiryLabel(days as 30 | null, english.t.bind(english))),
    ).toEqual(['30 days', '90 days', '365 days', 'No expiry']);
  });

  it('recognises the shape of a token and nothing else', () => {
    expect(looksLikeApiToken(`pc_${'a1_-'.repeat(10)}abc`)).toBe(true);
    expect(looksLikeApiToken(`pc_${'a'.repeat(42)}`)).toBe(false);
    expect(looksLikeApiToken(`xx_${'a'.repeat(43)}`)).toBe(false);
    expect(looksLikeApiToken(`pc_${'a'.repeat(42)}=`)).toBe(false);
  });
});
