import { mkdtempSync, readFileSync } from 'node:fs';
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
  ])('names the bad variable %s=%s', (name, value) => {
    expect(() => loadConfig({ DATA_DIR: dataDir(), [name]: value })).toThrowError(
      new RegExp(`Invalid configuration:[\\s\\S]*${name}`),
    );
  });

  it('requires AUTH_SECRET in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir() })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', DATA_DIR: dataDir() })).toThrow(/AUTH_SECRET/);
  });

  it('trims a trailing slash from APP_URL, since links are built from it', () => {
    expect(loadConfig({ DATA_DIR: dataDir(), APP_URL: 'https://pulse.example.com/' }).appUrl).toBe(
      'https://pulse.example.com',
    );
  });
});
