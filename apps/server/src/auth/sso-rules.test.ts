import { describe, expect, it } from 'vitest';
import { derivedKey, seal, unseal } from './sealed-column';
import { issuerAllowed } from './sso';

describe('sealed values (SSO client secrets at rest)', () => {
  const key = derivedKey('a-secret-of-at-least-thirty-two-characters', 'sso-provider-config');

  it('round-trips, with a fresh IV each time, and never holds the plain text', () => {
    const first = seal(key, '{"clientSecret":"s3cr3t"}');
    const second = seal(key, '{"clientSecret":"s3cr3t"}');
    expect(first).not.toBe(second);
    expect(first).not.toContain('s3cr3t');
    expect(unseal(key, first)).toBe('{"clientSecret":"s3cr3t"}');
  });

  it('does not open with a key from another AUTH_SECRET or purpose, nor after tampering', () => {
    const sealed = seal(key, 'value');
    expect(
      unseal(derivedKey('another-secret-of-at-least-thirty-two-chars', 'sso-provider-config'), sealed),
    ).toBeNull();
    expect(unseal(derivedKey('a-secret-of-at-least-thirty-two-characters', 'other'), sealed)).toBeNull();
    const tampered = `${sealed.slice(0, -2)}${sealed.endsWith('A') ? 'B' : 'A'}${sealed.slice(-1)}`;
    expect(unseal(key, tampered)).toBeNull();
    expect(unseal(key, 'plain text')).toBeNull();
  });
});

describe('issuerAllowed', () => {
  const production = { allowLoopbackIssuer: false };
  const test = { allowLoopbackIssuer: true };
  it('takes https on a public host, everywhere', () => {
    expect(issuerAllowed(production, 'https://login.example.com')).toBe(true);
    expect(issuerAllowed(production, 'https://login.example.com/tenant/v2.0')).toBe(true);
  });
  it('refuses http, private and link-local hosts, credentials, queries and other schemes', () => {
    for (const issuer of [
      'http://login.example.com',
      'https://10.1.2.3',
      'https://192.168.0.1',
      'https://169.254.169.254',
      'https://[::1]',
      'https://[fc00::1]',
      'https://[fe80::1]',
      'https://[::ffff:127.0.0.1]',
      'https://user:pw@login.example.com',
      'https://login.example.com/?x=1',
      'ftp://login.example.com',
      'not a url',
    ])
      expect(issuerAllowed(production, issuer), issuer).toBe(false);
  });
  it('takes a loopback issuer (http included) only with SSO_ALLOW_LOOPBACK_ISSUER', () => {
    expect(issuerAllowed(test, 'http://127.0.0.1:4000')).toBe(true);
    expect(issuerAllowed(test, 'http://localhost:4000')).toBe(true);
    expect(issuerAllowed(production, 'http://127.0.0.1:4000')).toBe(false);
    expect(issuerAllowed(production, 'https://localhost')).toBe(false);
  });
});
