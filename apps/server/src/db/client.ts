import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePostgres } from 'drizzle-orm/postgres-js';
import { migrate as migratePostgres } from 'drizzle-orm/postgres-js/migrator';
import postgres from 'postgres';
import { migrationsFolder } from './paths';

/** The Drizzle API both drivers share; features are written against this. */
export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export type Listener = (payload: string) => void;

export type Database = {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** The most connections this process opens (1 for the embedded database, which runs in process). */
  poolSize: number;
  /** How PostgreSQL lists this process's connections (pg_stat_activity.application_name). */
  applicationName: string;
  /**
   * Rows of a statement that each PostgreSQL connection prepares once and keeps (see queryRows); on the embedded
   * database, which runs in process, the same as queryRows. Only for a statement whose text never changes (values
   * go in parameters): each distinct text stays prepared on every connection for the connection's life.
   */
  queryPrepared<T>(query: SQL): Promise<T[]>;
  /**
   * A round trip to the database. A server's pool pings on a connection of its own, so that a pool busy with
   * statements that wait for a lock does not look like a database that is gone (db/health.ts).
   */
  ping: () => Promise<void>;
  /** Subscribes to a LISTEN/NOTIFY channel; the returned function unsubscribes. */
  listen(channel: string, listener: Listener): Promise<() => Promise<void>>;
  close(): Promise<void>;
};

export function openPglite(client: PGlite): Database {
  const db = drizzlePglite(client);
  return {
    kind: 'pglite',
    db,
    poolSize: 1,
    applicationName: '',
    queryPrepared: (query) => queryRows(db, query),
    ping: () => ping(db),
    listen: (channel, listener) => client.listen(channel, listener),
    close: () => client.close(),
  };
}

/**
 * How a server process names its connections, so `npm run restore` sees that servers use a database and each
 * process's /metrics finds its own connections: `pulsecheck server <random id>`.
 */
export const SERVER_APPLICATION_PREFIX = 'pulsecheck server';
const serverApplicationName = () => `${SERVER_APPLICATION_PREFIX} ${randomBytes(6).toString('hex')}`;

/**
 * How a server process's pool treats a database that fails (decision 0017): a connection attempt gives up after
 * 1.5 s; a closed connection is retried after 0.1 s, doubling to at most 0.5 s (postgres.js's own default grows to
 * 20 s, and queries waited that long after the database was back); a statement waits at most `lockTimeoutMs` for a
 * lock and runs at most `statementTimeoutMs`; `ping` uses one more connection of its own.
 */
export type ServerPoolOptions = { statementTimeoutMs: number; lockTimeoutMs: number };

export const SERVER_CONNECT_TIMEOUT_SECONDS = 1.5;
export const SERVER_LOCK_TIMEOUT_MS = 500;
const serverBackoffSeconds = (retries: number) => Math.min(0.05 * 2 ** retries, 0.5);

export function openPostgres(
  url: string,
  options: {
    max?: number;
    applicationName?: string;
    connectTimeoutSeconds?: number;
    server?: ServerPoolOptions;
  } = {},
): Database {
  const applicationName = options.applicationName ?? serverApplicationName();
  const poolSize = options.max ?? 10;
  const server = options.server;
  const client = postgres(url, {
    max: poolSize,
    onnotice: () => {},
    connection: {
      application_name: applicationName,
      ...(server && {
        statement_timeout: server.statementTimeoutMs,
        lock_timeout: server.lockTimeoutMs,
      }),
    },
    ...(options.connectTimeoutSeconds && { connect_timeout: options.connectTimeoutSeconds }),
    ...(server && { connect_timeout: SERVER_CONNECT_TIMEOUT_SECONDS, backoff: serverBackoffSeconds }),
  });
  const db = drizzlePostgres(client);
  const dialect = new PgDialect();
  const pingClient =
    server &&
    postgres(url, {
      max: 1,
      onnotice: () => {},
      connection: { application_name: applicationName },
      connect_timeout: SERVER_CONNECT_TIMEOUT_SECONDS,
      backoff: serverBackoffSeconds,
    });
  return {
    kind: 'postgres',
    db,
    poolSize,
    applicationName,
    async queryPrepared<T>(query: SQL) {
      // The client shares the value serializers and parsers Drizzle set on it, so rows come back as from queryRows.
      const { sql: text, params } = dialect.sqlToQuery(query);
      return client.unsafe<T[]>(text, params as postgres.ParameterOrJSON<never>[], { prepare: true });
    },
    async listen(channel, listener) {
      const subscription = await client.listen(channel, listener);
      return () => subscription.unlisten();
    },
    async ping() {
      if (pingClient) await pingClient`select 1`;
      else await ping(db);
    },
    async close() {
      await Promise.all([client.end({ timeout: 5 }), pingClient?.end({ timeout: 5 })]);
    },
  };
}

/**
 * The embedded database's settings beyond PGlite's own: 32 MB of shared buffers instead of PostgreSQL's 128 MB.
 * PGlite holds its buffers resident from the start, so each MB here is about 1.4 MB of the server's memory; pages
 * beyond them come from the operating system's file cache (decision 0015 has the memory and the speed figures).
 */
export const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];

/** Opens the configured database: PostgreSQL at `databaseUrl`, or the embedded one under `dataDir`. */
export async function openDatabase(options: {
  databaseUrl?: string;
  dataDir: string;
  /** DATABASE_STATEMENT_TIMEOUT_MS (0: none). */
  statementTimeoutMs?: number;
}): Promise<Database> {
  if (options.databaseUrl)
    return openPostgres(options.databaseUrl, {
      server: { statementTimeoutMs: options.statementTimeoutMs ?? 0, lockTimeoutMs: SERVER_LOCK_TIMEOUT_MS },
    });
  // PGlite creates only the last folder of its path.
  mkdirSync(options.dataDir, { recursive: true });
  const folder = path.join(options.dataDir, 'pglite');
  if (!existsSync(folder)) await createPgliteFolder(folder);
  return openPglite(await PGlite.create(folder, { startParams: PGLITE_START_PARAMS }));
}

/**
 * Creates a brand-new embedded database in a short-lived child process. PGlite's initdb grows the WebAssembly
 * heap to about 800 MB, which a process never gives back: created in the server's own process, that memory
 * would stay for the server's whole life (decision 0015). Opening the finished folder takes about 300 MB.
 * The database is made beside its folder and renamed into place, so an interrupted start leaves no half-made one.
 */
async function createPgliteFolder(folder: string): Promise<void> {
  const draft = `${folder}.creating`;
  rmSync(draft, { recursive: true, force: true });
  const pglite = JSON.stringify(import.meta.resolve('@electric-sql/pglite'));
  const script = `const { PGlite } = await import(${pglite}); await (await PGlite.create(process.argv[1])).close();`;
  await new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--input-type=module', '-e', script, draft], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0
        ? resolve()
        : reject(new Error(`Creating the embedded database in ${folder} failed (exit ${code})`)),
    );
  });
  renameSync(draft, folder);
}

/** Applies pending migrations. On a server, an advisory lock keeps two starting processes from racing. */
export async function runMigrations(database: Database, databaseUrl?: string): Promise<void> {
  if (database.kind === 'pglite') {
    await migratePglite(database.db as unknown as Parameters<typeof migratePglite>[0], { migrationsFolder });
    return;
  }
  if (!databaseUrl) throw new Error('runMigrations needs the database URL for PostgreSQL');
  const client = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  try {
    await client`select pg_advisory_lock(7261001)`;
    await migratePostgres(drizzlePostgres(client), { migrationsFolder });
    await client`select pg_advisory_unlock(7261001)`;
  } finally {
    await client.end({ timeout: 5 });
  }
}

/**
 * Rows of a raw SQL query, whichever driver runs it (PGlite answers `{ rows }`, postgres.js an array). On
 * PostgreSQL a query with parameters takes two round trips: postgres.js first asks the server for the parameters'
 * types, then sends them, and the server parses and plans the statement every time. A hot statement whose text
 * never changes goes through `database.queryPrepared` instead: one round trip, and the plan is kept (decision 0005,
 * addendum).
 */
export async function queryRows<T>(db: Db, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  if (Array.isArray(result)) return result as T[];
  return (result as { rows: T[] }).rows;
}

/**
 * A named WITH query: a part of one statement that another module owns (an outbox insert, a bell), so that work
 * which must happen together is one statement, not a transaction of several.
 */
export type WithQuery = { name: string; query: SQL };

/** `with name as (query), …` of the parts. */
export const withClause = (parts: WithQuery[]) =>
  sql`with ${sql.join(
    parts.map((part) => sql`${sql.identifier(part.name)} as (${part.query})`),
    sql`, `,
  )}`;

/**
 * The row count of each part, as a column named after it, for the statement's own select list: PostgreSQL skips a
 * WITH query nothing reads (a pg_notify in it would never run), and drops a column of a subquery that nothing
 * selects, so the counts must be among the columns the statement answers.
 */
export const countsOf = (parts: WithQuery[]) =>
  sql.join(
    parts.map(
      (part) => sql`(select count(*) from ${sql.identifier(part.name)})::int as ${sql.identifier(part.name)}`,
    ),
    sql`, `,
  );

export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}

/** The first row a select finds, or undefined: `await first(db.select(…).from(…).where(…))`. */
export async function first<T>(query: { limit(count: number): PromiseLike<T[]> }): Promise<T | undefined> {
  const [row] = await query.limit(1);
  return row;
}
