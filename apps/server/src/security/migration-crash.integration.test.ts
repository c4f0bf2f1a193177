import { spawn } from 'node:child_process';
import { readFile, readdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTestSettings } from '../config';
import { openPostgres, queryRows, type Database } from '../db/client';
import { migrationsFolder } from '../db/paths';
import { copyPostgresTemplate } from '../test/harness';
import { serverBundleMissing, startServer, type ServerProcess } from '../test/server-process';

/**
 * Issue 31, item 3: a process is killed with SIGKILL while it applies the migrations to an empty database, then the
 * built server is started on it: the next start must finish them (drizzle applies them in one transaction, so a
 * crash leaves all or none) and serve. On PostgreSQL the built server itself is killed between two statements of
 * the migration's transaction (the test watches its migration connection in pg_stat_activity). The embedded
 * database runs inside the process that migrates and blocks its event loop meanwhile, so no outside observer can
 * time that kill: there a child process runs the same migrator (drizzle's, on PGlite, as `runMigrations` does) on
 * the DATA_DIR, stops dead after half of the statements and says so, and is killed right then.
 */
const kind = loadTestSettings().kind;
const missing = serverBundleMissing('the migration crash test');
const SECRET = 'migration-crash-secret-0123456789abcdef';

const journalEntries = async () =>
  (
    JSON.parse(await readFile(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as {
      entries: unknown[];
    }
  ).entries.length;

const appliedMigrations = async (database: Database) =>
  Number(
    (
      await queryRows<{ count: number }>(
        database.db,
        sql`select count(*)::int as count from drizzle.__drizzle_migrations`,
      ).catch(() => [{ count: 0 }])
    )[0]?.count ?? 0,
  );

/** Every statement of every migration file, as drizzle splits them. */
const migrationStatements = async () => {
  const files = (await readdir(migrationsFolder)).filter((name) => name.endsWith('.sql'));
  let count = 0;
  for (const file of files)
    count += (await readFile(path.join(migrationsFolder, file), 'utf8')).split(
      '--> statement-breakpoint',
    ).length;
  return count;
};

/**
 * A child process that creates the embedded database in `folder`, opens it and migrates it with drizzle's PGlite migrator;
 * after `holdAfter` statements inside the migration transaction it prints 'midway' and blocks for good (a process
 * stuck between two statements), waiting for its SIGKILL. Resolves once it has been killed there.
 */
async function migrateEmbeddedUntilKilled(folder: string, holdAfter: number): Promise<void> {
  const resolve = (name: string) => JSON.stringify(import.meta.resolve(name));
  const script = `
    const { PGlite } = await import(${resolve('@electric-sql/pglite')});
    const { drizzle } = await import(${resolve('drizzle-orm/pglite')});
    const { migrate } = await import(${resolve('drizzle-orm/pglite/migrator')});
    const [folder, migrationsFolder, holdAfter] = process.argv.slice(1);
    // As the server does: the database is created (and closed), then opened and migrated.
    await (await PGlite.create(folder)).close();
    const client = await PGlite.create(folder);
    let statements = 0;
    const counted = (run) => async (...args) => {
      const result = await run(...args);
      if (++statements === Number(holdAfter)) {
        console.log('midway');
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
      }
      return result;
    };
    const transaction = client.transaction.bind(client);
    client.transaction = (work) =>
      transaction((tx) => {
        tx.query = counted(tx.query.bind(tx));
        tx.exec = counted(tx.exec.bind(tx));
        return work(tx);
      });
    await migrate(drizzle(client), { migrationsFolder });
    console.log('finished');`;
  const child = spawn(
    process.execPath,
    ['--input-type=module', '-e', script, folder, migrationsFolder, String(holdAfter)],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  await new Promise<void>((midway, fail) => {
    const timer = setTimeout(() => fail(new Error(`the migrations never got midway: ${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (/^midway$/m.test(output)) {
        clearTimeout(timer);
        midway();
      }
      if (/^finished$/m.test(output)) fail(new Error('the migrations finished before the kill'));
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code) => fail(new Error(`the migrating process exited (${code}): ${output}`)));
  });
  child.kill('SIGKILL');
  await exited;
}

describe.skipIf(missing || kind !== 'pglite')(`a crash in the middle of the migrations (${kind})`, () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('the next start recovers the embedded database, finishes them cleanly and serves', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pulsecheck-migration-crash-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const statements = await migrationStatements();
    await migrateEmbeddedUntilKilled(path.join(dataDir, 'pglite'), Math.floor(statements / 2));
    console.info(
      `migration crash (${kind}): killed after ${Math.floor(statements / 2)} of ${statements} statements`,
    );
    const count = async (client: PGlite, query: string) =>
      (await client.query<{ count: number }>(query)).rows[0]?.count;
    const migrated = 'select count(*)::int as count from drizzle.__drizzle_migrations';
    {
      // All or none: the killed transaction left nothing behind (the embedded database recovers as it opens).
      const crashed = await PGlite.create(path.join(dataDir, 'pglite'));
      expect(await count(crashed, migrated).finally(() => crashed.close())).toBe(0);
    }

    const server = await startServer({ dataDir, authSecret: SECRET });
    cleanups.push(async () => {
      if (!server.exited()) await server.kill();
    });
    // startServer waited for /api/ready: the migrations ran and a round trip worked.
    expect((await fetch(`${server.url}/api/ready`)).status).toBe(200);
    expect(await server.stop(), server.output()).toBe(0);
    const client = await PGlite.create(path.join(dataDir, 'pglite'));
    try {
      expect(await count(client, migrated)).toBe(await journalEntries());
      // The seed's templates, there once the schema is whole.
      expect(
        await count(client, 'select count(*)::int as count from templates where is_global'),
      ).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  }, 180_000);
});

describe.skipIf(missing || kind !== 'postgres')(`a crash in the middle of the migrations (${kind})`, () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('the next start finishes them cleanly and serves', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pulsecheck-migration-crash-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const copy = await copyPostgresTemplate('migcrash_', { empty: true });
    cleanups.push(() => copy.drop());
    const databaseUrl = copy.url;
    const open = () => Promise.resolve(openPostgres(databaseUrl, { max: 1 }));
    const start = (untilListening: boolean) =>
      startServer({ dataDir, databaseUrl, authSecret: SECRET, untilListening });

    let server: ServerProcess = await start(true);
    cleanups.push(async () => {
      if (!server.exited()) await server.kill();
    });
    {
      // Kill once the migration transaction has run at least one statement and waits for the next one.
      const watcher = postgres(databaseUrl, { max: 1, onnotice: () => {} });
      try {
        const deadline = Date.now() + 20_000;
        for (;;) {
          const [midway] = await watcher<{ pid: number }[]>`
            select pid from pg_stat_activity
            where datname = current_database() and pid <> pg_backend_pid() and xact_start is not null
              and query not ilike '%advisory%' and query not ilike 'begin%'
              and (query ilike 'create%' or query ilike 'alter%' or query ilike 'insert%' or query ilike 'update%')`;
          if (midway) break;
          if (Date.now() > deadline) throw new Error('the migrations were never seen running');
        }
        await server.kill();
      } finally {
        await watcher.end({ timeout: 1 });
      }
    }

    const before = await open();
    const appliedAtCrash = await appliedMigrations(before).finally(() => before.close());
    const total = await journalEntries();
    // All or none: one transaction.
    expect([0, total]).toContain(appliedAtCrash);
    console.info(
      `migration crash (${kind}): ${appliedAtCrash} of ${total} migrations recorded after SIGKILL`,
    );

    server = await start(false);
    expect(await server.stop(), server.output()).toBe(0);
    const after = await open();
    try {
      expect(await appliedMigrations(after)).toBe(total);
      // The schema is whole: the seed's templates are there, once.
      const [templates] = await queryRows<{ count: number }>(
        after.db,
        sql`select count(*)::int as count from templates where is_global`,
      );
      expect(templates?.count).toBeGreaterThan(0);
    } finally {
      await after.close();
    }
  }, 120_000);
});
