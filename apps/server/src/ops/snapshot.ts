import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip, createGzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { queryRows, type Database, type Db } from '../db/client';
import { migrationsFolder } from '../db/paths';
import { fingerprint, inUtc, listTables, SCHEMAS, type Fingerprint, type Table } from './tables';

/**
 * A backup file (decision 0012): gzip of JSON lines. The first line is the header (format, version, when, the
 * migrations the database had, and each table's row count and checksum); then, per table in foreign-key order, a
 * line `{"table": name}` followed by one line per row (the row as PostgreSQL's `to_jsonb` writes it); the last
 * line is `{"end": true, "sha256": …}`, the hash of every byte before it. A file without that last line, or whose
 * hash differs, is incomplete, and nothing is restored from it.
 */
export const BACKUP_FORMAT = 'pulsecheck-backup';
export const BACKUP_VERSION = 1;
export const BACKUP_EXTENSION = '.pcbackup';

export type TableSummary = Fingerprint & { table: string };
export type BackupHeader = {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  source: Database['kind'];
  /** Hashes of the migrations the database had, in order (drizzle's journal). */
  migrations: string[];
  tables: TableSummary[];
};

/** A refusal with a message meant for the operator; nothing was changed. */
export class OpsError extends Error {}

const PAGE_ROWS = 1000;
const BATCH_BYTES = 4 * 1024 * 1024;
const BATCH_ROWS = 500;

const appliedMigrations = (db: Db) =>
  queryRows<{ hash: string }>(db, sql`select hash from drizzle.__drizzle_migrations order by created_at, id`);

/**
 * Writes a consistent snapshot of `db` to `file`: one read-only repeatable-read transaction, so every table is
 * read as of the same moment while the server keeps answering (on PostgreSQL other transactions go on; on the
 * embedded database, which runs one statement at a time, requests wait for the snapshot's reads, none is refused).
 * The file is written next to its destination and renamed into place once complete.
 */
export async function writeBackup(database: Database, file: string): Promise<BackupHeader> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const partial = `${file}.partial-${randomBytes(4).toString('hex')}`;
  const gzip = createGzip();
  // A failed write of the file (a full disk) ends the pipeline with its error: awaited below, never left unheard.
  const written = pipeline(gzip, createWriteStream(partial, { mode: 0o600 }));
  written.catch(() => {});
  const hash = createHash('sha256');
  const write = async (line: string) => {
    const bytes = `${line}\n`;
    hash.update(bytes);
    if (!gzip.write(bytes)) await Promise.race([once(gzip, 'drain'), written]);
  };
  try {
    const header = await database.db.transaction(
      async (tx) => {
        await inUtc(tx);
        const tables = await listTables(tx);
        const summaries: TableSummary[] = [];
        for (const table of tables) summaries.push({ table: table.name, ...(await fingerprint(tx, table)) });
        const header: BackupHeader = {
          format: BACKUP_FORMAT,
          version: BACKUP_VERSION,
          createdAt: new Date().toISOString(),
          source: database.kind,
          migrations: (await appliedMigrations(tx)).map((row) => row.hash),
          tables: summaries,
        };
        await write(JSON.stringify(header));
        for (const table of tables) {
          await write(JSON.stringify({ table: table.name }));
          let after = '(0,0)';
          for (;;) {
            const page = await queryRows<{ at: string; row: string }>(
              tx,
              sql`select ctid::text as at, to_jsonb(t)::text as row from ${sql.raw(table.identifier)} t
                  where ctid > ${after}::tid order by ctid limit ${PAGE_ROWS}`,
            );
            for (const { row } of page) await write(row);
            if (page.length < PAGE_ROWS) break;
            after = page[page.length - 1]?.at ?? after;
          }
        }
        return header;
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    const end = JSON.stringify({ end: true, sha256: hash.digest('hex') });
    gzip.end(`${end}\n`);
    await written;
    await rename(partial, file);
    return header;
  } catch (error) {
    gzip.destroy();
    await written.catch(() => {});
    await rm(partial, { force: true });
    throw error;
  }
}

type Entry =
  { kind: 'header'; header: BackupHeader } | { kind: 'table'; table: string } | { kind: 'row'; row: string };

/** The lines of a gzip file, as text; a read or gzip error rejects the iteration. */
async function* linesOf(file: string): AsyncGenerator<string> {
  const gunzip = createGunzip();
  const input = createReadStream(file);
  input.on('error', (error) => gunzip.destroy(error));
  input.pipe(gunzip);
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of gunzip as AsyncIterable<Buffer>) {
    const lines = (rest + decoder.write(chunk)).split('\n');
    rest = lines.pop() ?? '';
    yield* lines;
  }
  rest += decoder.end();
  if (rest) yield rest;
}

/** The lines of a backup file, checked as they come: a foreign, damaged or incomplete file throws an OpsError. */
async function* readEntries(file: string): AsyncGenerator<Entry> {
  const hash = createHash('sha256');
  let headerSeen = false;
  let ended = false;
  try {
    for await (const line of linesOf(file)) {
      if (ended) throw new OpsError(`${file} has data after its end: it is not a backup this version wrote.`);
      if (!headerSeen) {
        const header = parseHeader(file, line);
        headerSeen = true;
        hash.update(`${line}\n`);
        yield { kind: 'header', header };
        continue;
      }
      if (line.startsWith('{"end":')) {
        const end = JSON.parse(line) as { sha256?: string };
        if (end.sha256 !== hash.digest('hex'))
          throw new OpsError(
            `${file} is damaged: its content does not match its checksum. Nothing was restored.`,
          );
        ended = true;
        continue;
      }
      hash.update(`${line}\n`);
      if (line.startsWith('{"table":'))
        yield { kind: 'table', table: (JSON.parse(line) as { table: string }).table };
      else yield { kind: 'row', row: line };
    }
  } catch (error) {
    throw readFailure(file, error);
  }
  if (!headerSeen) throw new OpsError(`${file} is empty: it is not a Pulsecheck backup.`);
  if (!ended)
    throw new OpsError(
      `${file} is incomplete: it ends before its last line (was it copied in full?). Nothing was restored.`,
    );
}

function parseHeader(file: string, line: string): BackupHeader {
  let header: Partial<BackupHeader> | undefined;
  try {
    header = JSON.parse(line) as Partial<BackupHeader>;
  } catch {
    header = undefined;
  }
  if (header?.format !== BACKUP_FORMAT)
    throw new OpsError(
      `${file} is not a Pulsecheck backup (it does not start with a Pulsecheck backup header).`,
    );
  if (header.version !== BACKUP_VERSION)
    throw new OpsError(
      `${file} is a Pulsecheck backup of format version ${String(header.version)}; this version reads version ${BACKUP_VERSION}.`,
    );
  return header as BackupHeader;
}

function readFailure(file: string, error: unknown): OpsError {
  if (error instanceof OpsError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new OpsError(`${file} does not exist.`);
  if (String(error).includes('unexpected end of file'))
    return new OpsError(
      `${file} is incomplete: it ends early (was it copied in full?). Nothing was restored.`,
    );
  if (code === 'Z_DATA_ERROR')
    return new OpsError(`${file} is not a Pulsecheck backup (it is not a gzip file), or it is damaged.`);
  return new OpsError(`${file} cannot be read: ${String(error)}`);
}

/** Reads the whole file once and answers its header: a foreign, damaged or incomplete file throws an OpsError. */
export async function checkBackupFile(file: string): Promise<BackupHeader> {
  let header: BackupHeader | undefined;
  for await (const entry of readEntries(file)) if (entry.kind === 'header') header = entry.header;
  if (!header) throw new OpsError(`${file} is not a Pulsecheck backup.`);
  return header;
}

/** Whether the database has any table, sequence or view of ours (a restore or a move needs an empty one). */
export async function isEmptyDatabase(db: Db): Promise<boolean> {
  const [row] = await queryRows<{ count: number }>(
    db,
    sql`select count(*)::int as count from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname in (${sql.raw(SCHEMAS.map((s) => `'${s}'`).join(', '))}) and c.relkind in ('r', 'p', 'v', 'm', 'S')`,
  );
  return (row?.count ?? 0) === 0;
}

/**
 * Restores `file` into `database` in one transaction: the schema as the backup's migrations made it, every
 * row, then each table's row count and checksum compared with the ones the backup recorded. Any difference, or a
 * damaged file, rolls everything back. `replace` first drops what the database holds (in the same transaction).
 * The server's next start applies the migrations that came after the backup.
 */
export async function restoreBackup(
  database: Database,
  file: string,
  options: { replace?: boolean } = {},
): Promise<BackupHeader> {
  const header = await checkBackupFile(file);
  const known = readMigrationFiles({ migrationsFolder });
  const mismatch = header.migrations.findIndex((hash, i) => known[i]?.hash !== hash);
  if (mismatch >= 0)
    throw new OpsError(
      `${file} was made by a different version of Pulsecheck (its migration ${mismatch + 1} is not this version's); restore it with the version that made it.`,
    );
  await database.db.transaction(async (tx) => {
    if (!(await isEmptyDatabase(tx))) {
      if (!options.replace)
        throw new OpsError(
          'The target database is not empty; nothing was restored (pass --force to replace it).',
        );
      await tx.execute(sql`drop schema if exists drizzle cascade`);
      await tx.execute(sql`drop schema public cascade`);
      await tx.execute(sql`create schema public`);
    }
    await inUtc(tx);
    await tx.execute(sql`create schema if not exists drizzle`);
    await tx.execute(
      sql`create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)`,
    );
    for (const migration of known.slice(0, header.migrations.length))
      for (const statement of migration.sql) if (statement.trim()) await tx.execute(sql.raw(statement));
    const [role] = await queryRows<{ superuser: boolean }>(
      tx,
      sql`select rolsuper as superuser from pg_roles where rolname = current_user`,
    );
    // Rows go in foreign-key order; as a superuser, triggers (and the checks of references inside one table)
    // are also held back, as pg_restore does, since the rows come from a consistent snapshot.
    if (role?.superuser) await tx.execute(sql`set local session_replication_role = replica`);
    const tables = new Map((await listTables(tx)).map((table) => [table.name, table]));
    let current: Table | undefined;
    let batch: string[] = [];
    let bytes = 0;
    const flush = async () => {
      if (!current || batch.length === 0) return;
      const columns = sql.raw(current.columns.map((c) => `"${c.replace(/"/g, '""')}"`).join(', '));
      await tx.execute(
        sql`insert into ${sql.raw(current.identifier)} (${columns}) overriding system value
            select ${columns} from jsonb_populate_recordset(null::${sql.raw(current.identifier)}, ${`[${batch.join(',')}]`}::jsonb)`,
      );
      batch = [];
      bytes = 0;
    };
    for await (const entry of readEntries(file)) {
      if (entry.kind === 'table') {
        await flush();
        current = tables.get(entry.table);
        if (!current) throw new OpsError(`${file} holds a table this version does not have: ${entry.table}`);
      } else if (entry.kind === 'row') {
        if (!current) throw new OpsError(`${file} is damaged: rows before any table.`);
        batch.push(entry.row);
        bytes += entry.row.length;
        if (batch.length >= BATCH_ROWS || bytes >= BATCH_BYTES) await flush();
      }
    }
    await flush();
    await resetSequences(tx);
    const differences: string[] = [];
    for (const expected of header.tables) {
      const table = tables.get(expected.table);
      const actual = table ? await fingerprint(tx, table) : { rows: 0, checksum: '' };
      if (actual.rows !== expected.rows || actual.checksum !== expected.checksum)
        differences.push(
          `${expected.table}: ${actual.rows} rows restored of ${expected.rows}, checksum ${actual.checksum === expected.checksum ? 'equal' : 'different'}`,
        );
    }
    if (differences.length > 0)
      throw new OpsError(
        `The restored data differs from the backup; nothing was restored:\n  ${differences.join('\n  ')}`,
      );
  });
  return header;
}

/** Moves every sequence (serial and identity columns) past the highest value its column holds. */
async function resetSequences(db: Db): Promise<void> {
  const sequences = await queryRows<{ sequence: string; identifier: string; column: string }>(
    db,
    sql`select pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) as sequence,
               format('%I.%I', n.nspname, c.relname) as identifier, format('%I', a.attname) as column
        from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
        where c.relkind = 'r' and n.nspname in (${sql.raw(SCHEMAS.map((s) => `'${s}'`).join(', '))})
          and a.attnum > 0 and not a.attisdropped
          and pg_get_serial_sequence(format('%I.%I', n.nspname, c.relname), a.attname) is not null`,
  );
  for (const { sequence, identifier, column } of sequences)
    await db.execute(
      sql`select setval(${sequence}, coalesce((select max(${sql.raw(column)}) from ${sql.raw(identifier)}), 0) + 1, false)`,
    );
}
