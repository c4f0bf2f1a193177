import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

const dataDir = () => mkdtempSync(path.join(tmpdir(), 'pc-config-'));

describe('loadConfig', () => {
  it('has working defaults for a first start', () => {
    const dir = dataDir();
    const config = loadConfig({ DATA_DIR: dir });
    expect(config.port).toBe(3000);
    expect(config.appUrl).toBe('http://localhost:3000');
    expect(config.databaseUrl).toBeUndefined();
    expect(config.logLevel).toBe('info');
    expect(config.authSecret.length).toBeGreaterThanOrEqual(32);
  });

  it('keeps the generated secret in DATA_DIR so sessions survive a restart', () => {
    const dir = dataDir();
    const first = loadConfig({ DATA_DIR: dir }).authSecret;
    expect(loadConfig({ DATA_DIR: dir }).authSecret).toBe(first);
    expect(readFileSync(path.join(dir, 'auth-secret'), 'utf8')).toBe(first);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['APP_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://localhost/db'],
    ['SMTP_URL', 'http://localhost'],
    ['LOG_LEVEL', 'loud'],
    ['AUTH_SECRET', 'short'],
    ['HOST', 'not an address'],
    ['TRUST_PROXY', 'yes'],
    ['TRUST_PROXY', '-1'],
    ['MAIL_DISABLED', 'yes'],
  ])('names the bad variable %s=%s', (name, value) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), [name]: value })).toThrowError(
      new RegExp(`Invalid configuration:[\\s\\S]*${name}`),
    );
  });

  it('listens on 127.0.0.1 unless HOST says otherwise', () => {
    expect(loadConfig({ DATA_DIR: dataDir() }).host).toBe('127.0.0.1');
    expect(loadConfig({ DATA_DIR: dataDir(), HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ DATA_DIR: dataDir(), HOST: '::' }).host).toBe('::');
  });

  it.each([
    [undefined, 0],
    ['false', 0],
    ['true', 1],
    ['1', 1],
    ['2', 2],
  ])('reads TRUST_PROXY=%s as %i trusted proxy hops', (value, hops) => {
    expect(loadConfig({ DATA_DIR: dataDir(), TRUST_PROXY: value }).trustProxyHops).toBe(hops);
  });

  it('keeps the generated secret in a file only its owner may read, in a folder only its owner may open', () => {
    const dir = path.join(dataDir(), 'fresh');
    loadConfig({ DATA_DIR: dir });
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, 'auth-secret')).mode & 0o777).toBe(0o600);
  });

  it('refuses to start with a kept secret shorter than 32 characters, naming AUTH_SECRET and the file', () => {
    const dir = dataDir();
    const file = path.join(dir, 'auth-secret');
    writeFileSync(file, 'short-secret\n');
    const start = () => loadConfig({ DATA_DIR: dir });
    expect(start).toThrow(ConfigError);
    expect(start).toThrow(/AUTH_SECRET/);
    expect(start).toThrow(file);
  });

  it('requires AUTH_SECRET in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir() })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir() })).toThrow(/AUTH_SECRET/);
  });

  it('refuses SSO_ALLOW_LOOPBACK_ISSUER=true in production, and takes it (only) outside', () => {
    const production = {
      NODE_ENV: 'production',
      DATA_DIR: dataDir(),
      AUTH_SECRET: 'x'.repeat(32),
      MAIL_DISABLED: 'true',
    };
    expect(() => loadConfig({ ...production, SSO_ALLOW_LOOPBACK_ISSUER: 'true' })).toThrow(
      /SSO_ALLOW_LOOPBACK_ISSUER: must not be true in production/,
    );
    expect(loadConfig(production).allowLoopbackIssuer).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir() }).allowLoopbackIssuer).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir(), SSO_ALLOW_LOOPBACK_ISSUER: 'true' }).allowLoopbackIssuer).toBe(
      true,
    );
    expect(loadConfig({ DATA_DIR: dataDir(), DNS_SERVERS: '127.0.0.1:5353,[::1]:53' }).dnsServers).toEqual([
      '127.0.0.1:5353',
      '[::1]:53',
    ]);
    expect(() => loadConfig({ DATA_DIR: dataDir(), DNS_SERVERS: 'not a server' })).toThrow(/DNS_SERVERS/);
  });

  it('refuses WEBHOOKS_ALLOW_LOOPBACK=true in production, and takes it (only) outside', () => {
    const production = {
      NODE_ENV: 'production',
      DATA_DIR: dataDir(),
      AUTH_SECRET: 'x'.repeat(32),
      MAIL_DISABLED: 'true',
    };
    expect(() => loadConfig({ ...production, WEBHOOKS_ALLOW_LOOPBACK: 'true' })).toThrow(
      /WEBHOOKS_ALLOW_LOOPBACK: must not be true in production/,
    );
    expect(loadConfig(production).allowLoopbackWebhooks).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir() }).allowLoopbackWebhooks).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir(), WEBHOOKS_ALLOW_LOOPBACK: 'true' }).allowLoopbackWebhooks).toBe(
      true,
    );
    expect(() => loadConfig({ DATA_DIR: dataDir(), WEBHOOKS_ALLOW_LOOPBACK: 'yes' })).toThrow(
      /WEBHOOKS_ALLOW_LOOPBACK/,
    );
  });

  it('refuses production without SMTP_URL, saying what to set, unless MAIL_DISABLED=true', () => {
    const production = { NODE_ENV: 'production', DATA_DIR: dataDir(), AUTH_SECRET: 'x'.repeat(32) };
    const start = (env: Record<string, string>) => () => loadConfig({ ...production, ...env });
    expect(start({})).toThrow(ConfigError);
    expect(start({})).toThrow(/SMTP_URL: required in production[\s\S]*set MAIL_DISABLED=true/);
    expect(start({ MAIL_DISABLED: 'false' })).toThrow(/SMTP_URL/);
    expect(start({ SMTP_URL: '' })).toThrow(/SMTP_URL/);
    expect(start({ SMTP_URL: 'smtp://mail.example.com:587' })().mailDisabled).toBe(false);
    expect(start({ MAIL_DISABLED: 'true' })().mailDisabled).toBe(true);
    // Outside production a missing SMTP_URL keeps the local outbox (log and /dev/mail); mail stays on.
    expect(loadConfig({ DATA_DIR: dataDir() }).mailDisabled).toBe(false);
    expect(loadConfig({ DATA_DIR: dataDir(), MAIL_DISABLED: 'true' }).mailDisabled).toBe(true);
  });

  it('trims a trailing slash from APP_URL, since links are built from it', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), APP_URL: 'https://pulse.example.com/' }).appUrl).toBe(
      'https://pulse.example.com',
    );
  });
});
