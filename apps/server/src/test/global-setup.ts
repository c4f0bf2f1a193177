import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { loadTestSettings } from '../config';
import { openPglite, openPostgres, runMigrations } from '../db/client';
import { seed } from '../db/seed';

declare module 'vitest' {
  // eslint-disable-next-line @typescript-eslint/consistent-type-definitions -- module augmentation needs an interface
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgTemplateDatabase: string;
    pgRunPrefix: string;
  }
}

export function databaseUrlFor(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** Migrates and seeds one database per run; each test file then starts from a copy of it. */
export default async function setup(project: TestProject) {
  const settings = loadTestSettings(project.config.env);
  if (settings.kind === 'pglite') {
    const dir = await mkdtemp(path.join(tmpdir(), 'pulsecheck-test-'));
    const client = await PGlite.create();
    const database = openPglite(client);
    await runMigrations(database);
    await seed(database.db);
    const dump = await client.dumpDataDir('none');
    const file = path.join(dir, 'template.tar');
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
    await client.close();
    project.provide('pgliteTemplate', file);
    return async () => rm(dir, { recursive: true, force: true });
  }

  const adminUrl = settings.databaseUrl;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is required for the PostgreSQL test project');
  const prefix = `pc_test_${randomBytes(4).toString('hex')}`;
  const template = `${prefix}_template`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${template}"`);
  const templateUrl = databaseUrlFor(adminUrl, template);
  const database = openPostgres(templateUrl, { max: 1 });
  await runMigrations(database, templateUrl);
  await seed(database.db);
  await database.close();
  project.provide('pgTemplateDatabase', template);
  project.provide('pgRunPrefix', prefix);
  return async () => {
    const leftovers = await admin<
      { datname: string }[]
    >`select datname from pg_database where datname like ${`${prefix}%`}`;
    for (const { datname } of leftovers)
      await admin.unsafe(`drop database if exists "${datname}" with (force)`);
    await admin.end({ timeout: 5 });
  };
}
