import { describe, expect, it } from 'vitest';
import { clientAddress, isLocalHostname, isLoopback } from './client-ip';

describe('clientAddress', () => {
  it('uses the socket address when no proxy is trusted, whatever the header says', () => {
    expect(clientAddress('198.51.100.9', '192.0.2.1', 0)).toBe('192.0.2.1');
    expect(clientAddress(undefined, '192.0.2.1', 0)).toBe('192.0.2.1');
    expect(clientAddress(undefined, undefined, 0)).toBe('unknown');
  });

  it('takes the entry the trusted proxy appended, not the spoofable leftmost one', () => {
    // The client wrote "6.6.6.6"; the one proxy appended the address it saw.
    expect(clientAddress('6.6.6.6, 203.0.113.5', '10.0.0.2', 1)).toBe('203.0.113.5');
    expect(clientAddress('203.0.113.5', '10.0.0.2', 1)).toBe('203.0.113.5');
    // Two proxies: the outer one appended the client, the inner one the outer proxy.
    expect(clientAddress('6.6.6.6, 203.0.113.5, 10.0.0.1', '10.0.0.2', 2)).toBe('203.0.113.5');
    expect(clientAddress('6.6.6.6,203.0.113.5 ,  10.0.0.1', '10.0.0.2', 2)).toBe('203.0.113.5');
  });

  it('falls back to the socket address when the header has fewer entries than trusted proxies', () => {
    expect(clientAddress('203.0.113.5', '10.0.0.2', 2)).toBe('10.0.0.2');
    expect(clientAddress('', '10.0.0.2', 1)).toBe('10.0.0.2');
    expect(clientAddress('203.0.113.5, ', '10.0.0.2', 1)).toBe('10.0.0.2');
  });
});

describe('isLoopback', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['192.0.2.2', false],
    ['10.0.0.1', false],
    ['::ffff:192.0.2.2', false],
    ['fd00::2', false],
    ['1127.0.0.1', false],
    ['', false],
    [undefined, false],
  ])('%s is loopback: %s', (address, expected) => {
    expect(isLoopback(address)).toBe(expected);
  });
});

describe('isLocalHostname', () => {
  const appUrl = 'https://Pulse.Example.org:8443';
  it.each([
    ['localhost', true],
    ['LOCALHOST', true],
    ['127.0.0.1', true],
    ['[::1]', true],
    ['pulse.example.org', true],
    ['evil.example', false],
    ['localhost.evil.example', false],
    ['127.0.0.1.evil.example', false],
    ['example.org', false],
    ['127.0.0.2', false],
    ['0.0.0.0', false],
    ['', false],
  ])('%s names this machine: %s', (hostname, expected) => {
    expect(isLocalHostname(hostname, appUrl)).toBe(expected);
  });
});
