import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer, type DnsServer } from '../test/dns-server';
import {
  addressAllowed,
  OUTBOUND_TIMEOUT_MS,
  outboundFetch,
  OutboundRefused,
  type OutboundPolicy,
} from './outbound';

let dns: DnsServer;
let web: Server;
let port: number;
let hits: string[];
beforeAll(async () => {
  dns = await startDnsServer();
  hits = [];
  web = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/redirect') {
      res.writeHead(302, { location: '/landed' });
      res.end();
    } else if (req.url === '/slow') {
      setTimeout(() => res.end('late'), OUTBOUND_TIMEOUT_MS + 2000).unref();
    } else res.end(`host ${req.headers.host}`);
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  port = (web.address() as AddressInfo).port;
});
afterAll(async () => {
  web.closeAllConnections();
  await new Promise((resolve) => web.close(resolve));
  await dns.stop();
});

const policy = (allowLoopback: boolean): OutboundPolicy => ({ dnsServers: [dns.server], allowLoopback });
const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => null,
    (error: unknown) => (error instanceof OutboundRefused ? error.reason : error),
  );

describe('addressAllowed', () => {
  it('refuses loopback, private, link-local, unique-local and other special addresses, IPv4 and IPv6', () => {
    for (const address of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fc00::1',
      'fd12:3456::1',
      'fe80::1',
      'ff02::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      '::ffff:10.0.0.1',
      '64:ff9b::a00:1',
    ])
      expect(addressAllowed(address, false), address).toBe(false);
  });
  it('allows public addresses, and loopback (only) when allowed', () => {
    for (const address of ['93.184.215.14', '172.32.0.1', '2606:4700::1111', '100.128.0.1'])
      expect(addressAllowed(address, false), address).toBe(true);
    expect(addressAllowed('127.0.0.1', true)).toBe(true);
    expect(addressAllowed('::1', true)).toBe(true);
    expect(addressAllowed('::ffff:127.0.0.1', true)).toBe(true);
    expect(addressAllowed('10.0.0.1', true)).toBe(false);
    expect(addressAllowed('fe80::1', true)).toBe(false);
  });
});

describe('outboundFetch', () => {
  it('refuses a name whose DNS answer is a non-public address, before connecting', async () => {
    const cases: [string, { a?: string[]; aaaa?: string[] }][] = [
      ['loopback.public-looking.example', { a: ['127.0.0.1'] }],
      ['private.public-looking.example', { a: ['10.0.0.7'] }],
      ['metadata.public-looking.example', { a: ['169.254.169.254'] }],
      ['v6-loopback.public-looking.example', { aaaa: ['::1'] }],
      ['v6-ula.public-looking.example', { aaaa: ['fc00::5'] }],
      ['v6-link.public-looking.example', { aaaa: ['fe80::5'] }],
      ['mapped.public-looking.example', { aaaa: ['::ffff:7f00:1'] }],
      ['compatible.public-looking.example', { aaaa: ['::7f00:1'] }],
      // One bad address among good ones is enough to refuse.
      ['mixed.public-looking.example', { a: ['93.184.215.14', '127.0.0.1'] }],
    ];
    for (const [name, addresses] of cases) {
      dns.setAddresses(name, addresses);
      expect(await refusal(outboundFetch(policy(false), `http://${name}:${port}/x`)), name).toBe('address');
    }
    expect(hits).not.toContain('/x');
  });

  it('refuses IP addresses in the URL, other schemes and credentials', async () => {
    for (const url of [
      `http://127.0.0.1:${port}/`,
      'http://10.0.0.5/',
      'https://169.254.169.254/latest/meta-data',
      'http://[::1]/',
      'http://[fc00::1]/',
      'http://[fe80::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://0.0.0.0/',
    ])
      expect(await refusal(outboundFetch(policy(false), url)), url).toBe('address');
    expect(await refusal(outboundFetch(policy(true), 'ftp://files.example/'))).toBe('url');
    expect(await refusal(outboundFetch(policy(true), `http://u:p@127.0.0.1:${port}/`))).toBe('url');
  });

  it('connects to loopback only with the allowance, to the address it checked, keeping the host name', async () => {
    dns.setAddresses('idp.loop.example', { a: ['127.0.0.1'] });
    expect(await refusal(outboundFetch(policy(false), `http://idp.loop.example:${port}/`))).toBe('address');
    const answer = await outboundFetch(policy(true), `http://idp.loop.example:${port}/named`);
    expect(await answer.text()).toBe(`host idp.loop.example:${port}`);
  });

  it('follows no redirect', async () => {
    const answer = await outboundFetch(policy(true), `http://127.0.0.1:${port}/redirect`);
    expect(answer.status).toBe(302);
    expect(answer.headers.get('location')).toBe('/landed');
    expect(hits).not.toContain('/landed');
  });

  it(`gives up after ${OUTBOUND_TIMEOUT_MS / 1000} s`, async () => {
    const started = Date.now();
    const outcome = await outboundFetch(policy(true), `http://127.0.0.1:${port}/slow`).then(
      () => 'answered',
      () => 'gave up',
    );
    expect(outcome).toBe('gave up');
    expect(Date.now() - started).toBeGreaterThanOrEqual(OUTBOUND_TIMEOUT_MS - 100);
    expect(Date.now() - started).toBeLessThan(OUTBOUND_TIMEOUT_MS + 1500);
  }, 10_000);
});
