import { randomBytes, randomUUID } from 'node:crypto';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { loadTestSettings } from '../config';
import { findComponents, findTemplate, findTemplates } from '../features/templates/queries';
import { databaseUrlFor } from '../test/global-setup';
import { openPglite, openPostgres, queryRows, runMigrations, type Database } from './client';
import { migrationsFolder } from './paths';

/**
 * Migrations that change existing data, tested on a database migrated only up to the one before them, holding
 * rows as the older code wrote them, on the project's kind of database.
 */

type Journal = { entries: { idx: number; tag: string }[] };

/** A copy of the migrations folder whose journal stops at `lastTag`. */
async function migrationsUpTo(lastTag: string) {
  const dir = await mkdtemp(path.join(tmpdir(), 'pulsecheck-migrations-'));
  await cp(migrationsFolder, dir, { recursive: true });
  const file = path.join(dir, 'meta/_journal.json');
  const journal = JSON.parse(await readFile(file, 'utf8')) as Journal;
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  if (last < 0) throw new Error(`no migration ${lastTag}`);
  await writeFile(file, JSON.stringify({ ...journal, entries: journal.entries.slice(0, last + 1) }));
  return dir;
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An empty database of the project's kind, migrated up to `lastTag`; `migrateAll` applies the rest. */
async function databaseAt(lastTag: string): Promise<{ database: Database; migrateAll: () => Promise<void> }> {
  const folder = await migrationsUpTo(lastTag);
  cleanups.push(() => rm(folder, { recursive: true, force: true }));
  const settings = loadTestSettings();
  if (settings.kind === 'pglite') {
    const client = await PGlite.create();
    cleanups.push(() => client.close());
    await migratePglite(drizzlePglite(client), { migrationsFolder: folder });
    const database = openPglite(client);
    return { database, migrateAll: () => runMigrations(database) };
  }
  const adminUrl = settings.databaseUrl;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is required for the PostgreSQL test project');
  const name = `${inject('pgRunPrefix')}_mig${randomBytes(4).toString('hex')}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  cleanups.push(async () => {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end({ timeout: 5 });
  });
  const url = databaseUrlFor(adminUrl, name);
  const client = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migratePostgres(drizzlePostgres(client), { migrationsFolder: folder });
  } finally {
    await client.end({ timeout: 5 });
  }
  const database = openPostgres(url, { max: 2 });
  cleanups.push(() => database.close());
  return { database, migrateAll: () => runMigrations(database, url) };
}

describe('0005_launch_snapshots', () => {
  it("turns every launch's workspace copy into its check's snapshot, and lists only real templates", async () => {
    const { database, migrateAll } = await databaseAt('0004_signup_credentials_mail_quota');
    const db = database.db;
    const organization = randomUUID();
    const workspace = randomUUID();
    const global = randomUUID();
    const copy = randomUUID();
    const check = randomUUID();
    const settings = JSON.stringify({
      minResponses: 3,
      allowAnonymous: true,
      enableComments: true,
      votesPerPerson: 5,
      showResultsAfterVoting: true,
    });
    // As launch left things before 0005: a workspace template per launched check, listed among the templates.
    await db.execute(sql`insert into organizations (id, name) values (${organization}, 'Old Co')`);
    await db.execute(
      sql`insert into workspaces (id, name, organization_id) values (${workspace}, 'Old', ${organization})`,
    );
    await db.execute(sql`insert into templates (id, title, type, workspace_id, is_global) values
      (${global}, 'Team Health Check', 'health-check', null, true),
      (${copy}, 'Q1 Health Check', 'health-check', ${workspace}, false)`);
    await db.execute(sql`insert into health_check_components (template_id, key, title, category, order_index)
      values (${copy}, 'c1', 'Decisions', 'Ways of working', 0), (${copy}, 'c3', 'Delivery', 'Ways of working', 1)`);
    await db.execute(sql`insert into health_checks (id, title, settings, workspace_id, template_id)
      values (${check}, 'Q1 Health Check', ${settings}::jsonb, ${workspace}, ${copy})`);

    await migrateAll();

    const flags = await queryRows<{ id: string; is_snapshot: boolean }>(
      db,
      sql`select id, is_snapshot from templates where id in (${global}, ${copy})`,
    );
    expect(Object.fromEntries(flags.map((row) => [row.id, row.is_snapshot]))).toEqual({
      [global]: false,
      [copy]: true,
    });
    expect((await findTemplates(db, { workspaceId: workspace })).map((t) => t.id)).toEqual([global]);
    expect(await findTemplate(db, copy)).toBeUndefined();
    // The check still reads the components it was launched with.
    expect((await findComponents(db, copy)).map((c) => [c.key, c.title])).toEqual([
      ['c1', 'Decisions'],
      ['c3', 'Delivery'],
    ]);
    // A snapshot is never global.
    await expect(
      db.execute(sql`update templates set is_snapshot = true where id = ${global}`),
    ).rejects.toThrow();
  });
});
