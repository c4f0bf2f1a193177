import { describe, expect, it } from 'vitest';
import { ssoDomainsSchema, twoFactorSignInSchema } from './security';
import { SECURITY_MESSAGES } from './security-messages';

describe('ssoDomainsSchema', () => {
  it('splits, trims, lower-cases and de-duplicates what an admin types', () => {
    expect(ssoDomainsSchema.parse(' Example.com, @corp.example.com  example.com\nsub.example.co.uk')).toEqual(
      ['example.com', 'corp.example.com', 'sub.example.co.uk'],
    );
  });
  it('refuses nothing, and things that are not domains', () => {
    expect(ssoDomainsSchema.safeParse(' , ').error?.issues[0]?.message).toBe(
      SECURITY_MESSAGES.ssoDomainsRequired,
    );
    for (const text of ['localhost', 'exa mple', 'http://example.com', '-bad.example', 'a@b.example'])
      expect(ssoDomainsSchema.safeParse(text).success, text).toBe(false);
  });
});

describe('twoFactorSignInSchema', () => {
  it('takes six digits and defaults trustDevice to false', () => {
    expect(twoFactorSignInSchema.parse({ code: ' 123456 ' })).toEqual({ code: '123456', trustDevice: false });
    expect(twoFactorSignInSchema.safeParse({ code: '12345' }).error?.issues[0]?.message).toBe(
      SECURITY_MESSAGES.codeRequired,
    );
  });
});
