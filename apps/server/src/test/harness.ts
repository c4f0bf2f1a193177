import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import { inject } from 'vitest';
import { createApp } from '../app';
import { createAuth } from '../auth/auth';
import { loadTestSettings, type Config } from '../config';
import { openPglite, openPostgres, type Database } from '../db/client';
import { createLogger } from '../logger';
import type { AppDeps } from '../lib/router';
import { createMailer } from '../mail/mailer';
import { createRealtime } from '../realtime/bus';
import { randomIp } from './factories';
import { databaseUrlFor } from './global-setup';

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
    logLevel: 'silent',
    trustProxyHops: 1,
    rateLimitMultiplier: 1,
    ...overrides,
  };
}

/** A fresh database for one test file: a copy of the migrated and seeded template, on the project's kind. */
export async function openTestDatabase(): Promise<Database & { drop(): Promise<void> }> {
  const settings = loadTestSettings();
  if (settings.kind === 'pglite') {
    const dump = await readFile(inject('pgliteTemplate'));
    const client = await PGlite.create({ loadDataDir: new Blob([dump]) });
    const database = openPglite(client);
    return { ...database, drop: () => database.close() };
  }
  const adminUrl = settings.databaseUrl;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is required for the PostgreSQL test project');
  const name = `${inject('pgRunPrefix')}_${randomBytes(4).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}" template "${inject('pgTemplateDatabase')}"`);
  const url = databaseUrlFor(adminUrl, name);
  const database = openPostgres(url, { max: 5 });
  return {
    ...database,
    async drop() {
      await database.close();
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end({ timeout: 5 });
    },
  };
}

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
  const mailer = createMailer(db);
  const logger = createLogger('silent');
  const realtime = createRealtime(database, logger);
  await realtime.start();
  const deps: AppDeps = {
    config,
    database,
    db,
    logger,
    mailer,
    auth: createAuth({ config, db, mailer }),
    realtime,
  };
  const app = createApp(deps);
  return {
    deps,
    database,
    app,
    request: (method, path, options = {}) =>
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
      ),
    close: async () => {
      await realtime.stop();
      await (options.close ?? (() => database.close()))();
    },
  };
}
