import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { afterAll, beforeAll, inject } from 'vitest';
import { createApp } from '../app';
import { createAuth } from '../auth/auth';
import { loadTestSettings, type Config } from '../config';
import { openPglite, openPostgres, type Database } from '../db/client';
import { createDatabaseHealth } from '../db/health';
import { createLogger } from '../logger';
import type { AppDeps } from '../lib/router';
import { createMailer } from '../mail/mailer';
import { createRealtime } from '../realtime/bus';
import { databaseUrlFor } from './global-setup';
import type { Jar } from './requests';
import { randomIp } from './unique';

export type TestContext = {
  deps: AppDeps;
  database: Database;
  app: ReturnType<typeof createApp>;
  /** Calls the app in-process, as a browser would (JSON body, cookies passed by the caller). */
  request(
    method: string,
    path: string,
    options?: { body?: unknown; headers?: Record<string, string> },
  ): Promise<Response>;
  /** `request` signed in with `jar`'s cookies. */
  call(jar: Jar, method: string, path: string, body?: unknown): Promise<Response>;
  close(): Promise<void>;
};

export function testConfig(overrides: Partial<Config> = {}): Config {
  return {
    env: 'test',
    port: 0,
    host: '127.0.0.1',
    appUrl: 'http://localhost:3000',
    dataDir: '/nonexistent',
    databaseUrl: undefined,
    authSecret: 'test-secret-test-secret-test-secret-0123',
    smtpUrl: undefined,
    mailFrom: 'Pulsecheck <test@pulsecheck.local>',
    mailDisabled: false,
    logLevel: 'silent',
    trustProxyHops: 1,
    rateLimitMultiplier: 1,
    backupIntervalMs: 0,
    backupKeep: 8,
    mailRetentionDays: 30,
    metricsToken: undefined,
    dnsServers: [],
    // The SSO tests' identity provider runs on this machine's loopback (test/oidc-provider.ts).
    allowLoopbackIssuer: true,
    // Webhooks to this machine's loopback only where a test says so (features/webhooks tests).
    allowLoopbackWebhooks: false,
    statementTimeoutMs: 0,
    ...overrides,
  };
}

/** The migrated and seeded template of this run, as the embedded database's dump. */
export const pgliteTemplate = async () => new Blob([await readFile(inject('pgliteTemplate'))]);

/**
 * A new PostgreSQL database copied from this run's template (or `empty`, without any table), named with the
 * run's prefix (so the global teardown drops it if a test cannot); `drop` removes it.
 */
export async function copyPostgresTemplate(label: string, options: { empty?: boolean } = {}) {
  const adminUrl = loadTestSettings().databaseUrl;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is required for the PostgreSQL test project');
  const name = `${inject('pgRunPrefix')}_${label}${randomBytes(4).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(
    options.empty
      ? `create database "${name}"`
      : `create database "${name}" template "${inject('pgTemplateDatabase')}"`,
  );
  return {
    url: databaseUrlFor(adminUrl, name),
    async drop() {
      try {
        await admin.unsafe(`drop database if exists "${name}" with (force)`);
      } finally {
        await admin.end({ timeout: 5 });
      }
    },
  };
}

export type TestDatabase = Database & { drop(): Promise<void> };

/**
 * A fresh database for one test file, on the project's kind: a copy of the migrated and seeded template, or with
 * `empty` one without any table (a new embedded one in memory, or a new PostgreSQL database).
 */
export async function openTestDatabase(options: { empty?: boolean } = {}): Promise<TestDatabase> {
  if (loadTestSettings().kind === 'pglite') {
    const database = openPglite(
      await PGlite.create(options.empty ? {} : { loadDataDir: await pgliteTemplate() }),
    );
    return { ...database, drop: () => database.close() };
  }
  const copy = await copyPostgresTemplate(options.empty ? 'empty_' : '', options);
  const database = openPostgres(copy.url, { max: 5 });
  return {
    ...database,
    async drop() {
      await database.close();
      await copy.drop();
    },
  };
}

/** A database without any table (`openTestDatabase({ empty: true })`). */
export const openEmptyDatabase = () => openTestDatabase({ empty: true });

export async function createTestContext(configOverrides: Partial<Config> = {}): Promise<TestContext> {
  const database = await openTestDatabase();
  return contextOn(database, { config: testConfig(configOverrides), close: () => database.drop() });
}

/** The in-process app on `database`; `close` stops its LISTEN and then runs `options.close`. */
export async function contextOn(
  database: Database,
  options: { config?: Config; close?: () => Promise<void> } = {},
): Promise<TestContext> {
  const config = options.config ?? testConfig();
  const db = database.db;
  const mailer = createMailer(db, { disabled: config.mailDisabled });
  const logger = createLogger('silent');
  const realtime = createRealtime(database, logger);
  await realtime.start();
  const health = createDatabaseHealth({ ping: database.ping, logger });
  const deps: AppDeps = {
    config,
    database,
    db,
    health,
    logger,
    mailer,
    auth: createAuth({ config, db, mailer }),
    realtime,
  };
  const app = createApp(deps);
  const request: TestContext['request'] = (method, path, options = {}) =>
    Promise.resolve(
      app.request(path, {
        method,
        headers: {
          // A different client address per call, so rate limits only bite where a test means them to.
          'x-forwarded-for': randomIp(),
          ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
          ...options.headers,
        },
        body: options.body !== undefined ? JSON.stringify(options.body) : undefined,
      }),
    );
  return {
    deps,
    database,
    app,
    request,
    call: (jar, method, path, body) => request(method, path, { body, headers: jar.header() }),
    close: async () => {
      health.stop();
      await realtime.stop();
      await (options.close ?? (() => database.close()))();
    },
  };
}

/**
 * `create()`'s value for the tests of this file (or `describe` block): the object returned here is filled in
 * before the first test and `release`d after the last, so a file declares what it needs in one line.
 */
export function useForAll<T extends object>(create: () => Promise<T>, release?: (value: T) => Promise<void>) {
  const value = {} as T;
  beforeAll(async () => {
    Object.assign(value, await create());
  });
  if (release) afterAll(() => release(value));
  return value;
}

/** The app on a fresh database, for the tests of this file. */
export const useTestContext = (configOverrides: Partial<Config> | (() => Partial<Config>) = {}) =>
  useForAll(
    () => createTestContext(typeof configOverrides === 'function' ? configOverrides() : configOverrides),
    (ctx) => ctx.close(),
  );

/** A fresh database without the app, for the tests of this file. */
export const useTestDatabase = () =>
  useForAll(
    () => openTestDatabase(),
    (database) => database.drop(),
  );
