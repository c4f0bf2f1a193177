import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { loadTestSettings } from '../config';
import { freePort } from './server-process';

const run = promisify(execFile);

/** Debian's PostgreSQL 15 programs (the `postgresql-15` package). */
export const PG_BIN = '/usr/lib/postgresql/15/bin';

/**
 * Why a PostgreSQL cluster of its own cannot be made here (undefined when it can): the fault tests stop, stall and
 * restart it, which they may not do to a shared server. initdb and postgres refuse to run as root, so as root they
 * run as the `postgres` user; as any other user, as that user.
 */
export async function privateClusterMissing(): Promise<string | undefined> {
  if (!existsSync(path.join(PG_BIN, 'initdb'))) return `${PG_BIN}/initdb is missing (Debian's postgresql-15)`;
  if (userInfo().uid === 0) {
    const found = await run('id', ['-u', 'postgres']).catch(() => undefined);
    if (!found) return 'running as root and there is no `postgres` user to run PostgreSQL as';
  }
  return undefined;
}

/**
 * Skips (loudly) the tests of `what` when no private cluster can run, and on CI fails instead, as for the built
 * server (server-process.ts serverBundleMissing).
 */
export async function skipWithoutPrivateCluster(what: string): Promise<boolean> {
  const reason = await privateClusterMissing();
  if (!reason) return false;
  if (loadTestSettings().ci) throw new Error(`${what} needs a PostgreSQL cluster of its own: ${reason}`);
  console.warn(`\n!!! ${what} SKIPPED: ${reason}.\n`);
  return true;
}

export type PrivateCluster = {
  port: number;
  /** A database `name` owned by the application role, and its URL (as that role, not a superuser). */
  createDatabase(name: string): Promise<string>;
  /** The superuser's URL of `database`. */
  superuserUrl(database?: string): string;
  /** `pg_ctl stop -m fast`: connections are ended, new ones refused. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops the cluster and deletes its folder. */
  remove(): Promise<void>;
};

/** The application role: not a superuser, so the connection limits count it as they count any client. */
export const APP_ROLE = 'pulsecheck_app';

/**
 * A PostgreSQL cluster of the test's own, in a temporary folder, listening on a free loopback port (no Unix socket
 * outside that folder): `remove()` stops it and deletes the folder. `settings` become `-c` options of the server.
 */
export async function startPrivateCluster(settings: Record<string, string> = {}): Promise<PrivateCluster> {
  const root = await mkdtemp(path.join(tmpdir(), 'pulsecheck-pg-'));
  const asPostgres = userInfo().uid === 0;
  if (asPostgres) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    await chown(root, Number(stdout.trim()), Number(group.trim()));
  }
  const exec = (program: string, args: string[]) =>
    asPostgres
      ? run('runuser', ['-u', 'postgres', '--', path.join(PG_BIN, program), ...args])
      : run(path.join(PG_BIN, program), args);
  const data = path.join(root, 'data');
  const port = await freePort();
  const options = Object.entries({
    port: String(port),
    listen_addresses: '127.0.0.1',
    unix_socket_directories: root,
    fsync: 'off',
    full_page_writes: 'off',
    ...settings,
  })
    .map(([name, value]) => `-c ${name}=${value}`)
    .join(' ');
  await exec('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
  const start = async () => {
    await exec('pg_ctl', [
      'start',
      '-D',
      data,
      '-w',
      '-t',
      '30',
      '-l',
      path.join(root, 'log'),
      '-o',
      options,
    ]);
  };
  const stop = async () => {
    await exec('pg_ctl', ['stop', '-D', data, '-m', 'fast', '-w', '-t', '30']);
  };
  await start();
  const superuserUrl = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  const psql = (sql: string) =>
    run('psql', ['-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', superuserUrl(), '-c', sql], {
      env: { ...process.env, PATH: `${PG_BIN}:${process.env.PATH}` },
    });
  await psql(`create role ${APP_ROLE} login`);
  return {
    port,
    superuserUrl,
    async createDatabase(name) {
      await psql(`create database "${name}" owner ${APP_ROLE}`);
      return `postgres://${APP_ROLE}@127.0.0.1:${port}/${name}`;
    },
    stop,
    start,
    async remove() {
      await stop().catch(() => {});
      await rm(root, { recursive: true, force: true });
    },
  };
}
