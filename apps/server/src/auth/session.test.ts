import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifiedValue } from './session';

const sign = (secret: string, value: string) =>
  `${value}.${createHmac('sha256', secret).update(value).digest('base64')}`;

describe('a signed cookie', () => {
  const secret = randomBytes(32).toString('base64url');
  const other = randomBytes(32).toString('base64url');
  const token = randomBytes(24).toString('base64url');

  it('gives its value when signed with the secret, again and again', () => {
    expect(verifiedValue(secret, sign(secret, token))).toBe(token);
    expect(verifiedValue(secret, sign(secret, token))).toBe(token);
  });

  it('is refused with a wrong, cut or missing signature, also once the right one was accepted', () => {
    expect(verifiedValue(secret, sign(secret, token))).toBe(token);
    const right = sign(secret, token);
    const wrong = `${token}.${Buffer.alloc(32, 1).toString('base64')}`;
    expect(verifiedValue(secret, wrong)).toBeNull();
    expect(verifiedValue(secret, right.slice(0, -4))).toBeNull();
    expect(verifiedValue(secret, token)).toBeNull();
    expect(verifiedValue(secret, `.${right}`)).toBeNull();
  });

  it('signed with another secret is refused by this one, even after this one accepted its own', () => {
    expect(verifiedValue(other, sign(other, token))).toBe(token);
    expect(verifiedValue(secret, sign(other, token))).toBeNull();
    expect(verifiedValue(other, sign(secret, token))).toBeNull();
  });
});
