import { existsSync, readdirSync } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { ConfigError, loadDatabaseSettings } from '../config';
import {
  openPglite,
  openPostgres,
  PGLITE_START_PARAMS,
  queryRows,
  SERVER_APPLICATION_PREFIX,
  type Database,
} from '../db/client';
import { secureDataDir } from '../db/data-dir';
import { takeBackup, timeStamp } from './automatic';
import { runningServer } from './server-file';
import {
  BACKUP_EXTENSION,
  checkBackupFile,
  isEmptyDatabase,
  OpsError,
  restoreBackup,
  writeBackup,
  type BackupHeader,
} from './snapshot';

/**
 * `npm run backup [FILE]`, `npm run restore FILE [--force]`, `npm run db:move -- postgres://…` (docs/operations.md).
 * Every refusal is an OpsError with a message for the operator, checked before anything is written.
 */
const USAGE = `Usage:
  npm run backup [-- FILE]              snapshot the database (DATABASE_URL, or the embedded one in DATA_DIR)
  npm run restore -- FILE [--force]     restore FILE into an empty database (--force replaces a non-empty one)
  npm run db:move -- postgres://…       copy the embedded database in DATA_DIR into an empty PostgreSQL database`;

const settings = (() => {
  try {
    return loadDatabaseSettings();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
})();
const embeddedFolder = path.join(settings.dataDir, 'pglite');
const fromInvocation = (file: string) => path.resolve(settings.invokedFrom, file);
/** A URL with its password hidden, for messages. */
const redact = (url: string) => url.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');

const rowsOf = (header: BackupHeader) => header.tables.reduce((sum, table) => sum + table.rows, 0);

function refuseRunningServer(action: string) {
  const server = runningServer(settings.dataDir);
  if (server)
    throw new OpsError(
      `A Pulsecheck server (process ${server.pid}, ${server.url}) is running on ${settings.dataDir}; stop it before you ${action}. Nothing was changed.`,
    );
}

const hasEmbeddedDatabase = () => existsSync(embeddedFolder) && readdirSync(embeddedFolder).length > 0;

async function openEmbedded(folder = embeddedFolder): Promise<Database> {
  return openPglite(await PGlite.create(folder, { startParams: PGLITE_START_PARAMS }));
}

/** Opens a PostgreSQL database and makes one round trip, so an unreachable one is refused before anything. */
async function reachPostgres(url: string): Promise<Database> {
  const database = openPostgres(url, {
    max: 1,
    applicationName: 'pulsecheck ops',
    connectTimeoutSeconds: 10,
  });
  try {
    await database.db.execute(sql`select 1`);
    return database;
  } catch (error) {
    await database.close().catch(() => {});
    const cause = (error as { cause?: unknown }).cause ?? error;
    throw new OpsError(
      `Cannot reach the PostgreSQL database ${redact(url)}: ${(cause as Error).message}. Nothing was written.`,
    );
  }
}

async function backup(target: string | undefined) {
  const file = target
    ? fromInvocation(target)
    : fromInvocation(`backups/pulsecheck-${timeStamp(new Date())}${BACKUP_EXTENSION}`);
  if (existsSync(file)) throw new OpsError(`${file} exists already; choose another name.`);
  let header: BackupHeader;
  if (settings.databaseUrl) {
    const database = await reachPostgres(settings.databaseUrl);
    try {
      header = await writeBackup(database, file);
    } finally {
      await database.close();
    }
  } else {
    const server = runningServer(settings.dataDir);
    if (server) {
      // Only the running server may open the embedded database: it takes the snapshot, this moves it.
      const answer = await fetch(`${server.url}/internal/backup`, {
        method: 'POST',
        headers: { authorization: `Bearer ${server.token}` },
      });
      if (!answer.ok)
        throw new OpsError(`The running server refused the backup: ${answer.status} ${await answer.text()}`);
      const taken = (await answer.json()) as { file: string; header: BackupHeader };
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      await rename(taken.file, file).catch(async () => {
        await copyFile(taken.file, file);
        await rm(taken.file);
      });
      header = taken.header;
    } else {
      if (!hasEmbeddedDatabase()) throw new OpsError(`There is no embedded database in ${settings.dataDir}.`);
      const database = await openEmbedded();
      try {
        header = await writeBackup(database, file);
      } finally {
        await database.close();
      }
    }
  }
  console.log(`Backup written to ${file}: ${header.tables.length} tables, ${rowsOf(header)} rows.`);
}

async function restore(target: string | undefined, force: boolean) {
  if (!target) throw new OpsError(`Name the backup file to restore.\n${USAGE}`);
  const file = fromInvocation(target);
  const header = await checkBackupFile(file);
  if (settings.databaseUrl) {
    const database = await reachPostgres(settings.databaseUrl);
    try {
      const [servers] = await queryRows<{ count: number }>(
        database.db,
        sql`select count(*)::int as count from pg_stat_activity
            where datname = current_database() and starts_with(application_name, ${SERVER_APPLICATION_PREFIX})`,
      );
      if ((servers?.count ?? 0) > 0)
        throw new OpsError(
          `Pulsecheck servers are connected to ${redact(settings.databaseUrl)} (${servers?.count} connections); stop them before you restore. Nothing was changed.`,
        );
      await restoreBackup(database, file, { replace: force });
    } finally {
      await database.close();
    }
  } else {
    refuseRunningServer('restore into it');
    const replacing = hasEmbeddedDatabase();
    if (replacing && !force)
      throw new OpsError(
        `${embeddedFolder} holds a database already; nothing was restored (pass --force to replace it).`,
      );
    // Restored next to its place and swapped in only once complete and verified.
    await mkdir(settings.dataDir, { recursive: true, mode: 0o700 });
    const restoring = `${embeddedFolder}.restoring-${process.pid}`;
    await rm(restoring, { recursive: true, force: true });
    try {
      const database = await openEmbedded(restoring);
      try {
        await restoreBackup(database, file);
      } finally {
        await database.close();
      }
    } catch (error) {
      await rm(restoring, { recursive: true, force: true });
      throw error;
    }
    const replaced = `${embeddedFolder}.replaced-${process.pid}`;
    if (existsSync(embeddedFolder)) await rename(embeddedFolder, replaced);
    await rename(restoring, embeddedFolder);
    await rm(replaced, { recursive: true, force: true });
    secureDataDir(settings.dataDir);
  }
  console.log(
    `Restored ${file} (taken ${header.createdAt}): ${header.tables.length} tables, ${rowsOf(header)} rows, every table's row count and checksum verified.`,
  );
}

async function move(url: string | undefined) {
  if (!url || !/^postgres(ql)?:\/\//.test(url))
    throw new OpsError(`Give the PostgreSQL database to move to: npm run db:move -- postgres://…\n${USAGE}`);
  refuseRunningServer('move its database (writes after the copy would be lost)');
  if (!hasEmbeddedDatabase())
    throw new OpsError(`There is no embedded database in ${settings.dataDir} to move.`);
  const target = await reachPostgres(url);
  try {
    if (!(await isEmptyDatabase(target.db)))
      throw new OpsError(
        `The database ${redact(url)} is not empty; move into an empty database. Nothing was written.`,
      );
    const source = await openEmbedded();
    let taken;
    try {
      // The copy goes through a backup file, which stays in DATA_DIR/backups as the state before the move.
      taken = await takeBackup(source, settings.dataDir, 'before-move');
    } finally {
      await source.close();
    }
    const header = await restoreBackup(target, taken.file);
    console.log(`Copied ${settings.dataDir} into ${redact(url)} (a backup of it is in ${taken.file}):`);
    for (const table of header.tables)
      console.log(
        `  ${table.table.padEnd(40)} ${String(table.rows).padStart(8)} rows  checksum ${table.checksum} ok`,
      );
    console.log('\nEvery row count and checksum matches. Start Pulsecheck on PostgreSQL with:\n');
    console.log(`DATABASE_URL=${url}`);
    console.log(
      `\nKeep DATA_DIR=${settings.dataDir} (its auth-secret signs the sessions) or set AUTH_SECRET to the content of ${path.join(settings.dataDir, 'auth-secret')}, so everyone stays signed in.`,
    );
  } finally {
    await target.close();
  }
}

async function main() {
  const [command, ...rest] = process.argv.slice(2);
  const force = rest.includes('--force');
  const args = rest.filter((arg) => arg !== '--force');
  if (command === 'backup') await backup(args[0]);
  else if (command === 'restore') await restore(args[0], force);
  else if (command === 'move') await move(args[0]);
  else throw new OpsError(USAGE);
}

main().catch((error: unknown) => {
  if (error instanceof OpsError || error instanceof ConfigError) console.error(error.message);
  else console.error('Failed:', error);
  process.exit(1);
});
