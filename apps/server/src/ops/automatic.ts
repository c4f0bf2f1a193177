import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Database } from '../db/client';
import type { DatabaseHealth } from '../db/health';
import type { Logger } from '../logger';
import { BACKUP_EXTENSION, writeBackup, type BackupHeader } from './snapshot';

/** Where the server keeps its snapshots: `DATA_DIR/backups`. */
export const backupsDir = (dataDir: string) => path.join(dataDir, 'backups');

/** `20261125T173200123Z`: sorts by time, to the millisecond. */
export const timeStamp = (date: Date) => date.toISOString().replace(/[-:.]/g, '');

/** A snapshot of the database into `DATA_DIR/backups/pulsecheck-<kind>-<time>.pcbackup`. */
export async function takeBackup(
  database: Database,
  dataDir: string,
  kind: 'auto' | 'manual' | 'before-move',
): Promise<{ file: string; header: BackupHeader }> {
  const file = path.join(
    backupsDir(dataDir),
    `pulsecheck-${kind}-${timeStamp(new Date())}${BACKUP_EXTENSION}`,
  );
  return { file, header: await writeBackup(database, file) };
}

/** The automatic snapshots, oldest first. */
async function automaticBackups(dataDir: string): Promise<string[]> {
  const names = await readdir(backupsDir(dataDir)).catch(() => []);
  return names
    .filter((name) => name.startsWith('pulsecheck-auto-') && name.endsWith(BACKUP_EXTENSION))
    .sort()
    .map((name) => path.join(backupsDir(dataDir), name));
}

const FULL_DISK_BACKUP =
  'embedded database: automatic backup not written, the disk is full; the previous backups are kept';

/** One automatic snapshot, then the oldest ones removed so that `keep` remain. */
export async function automaticBackup(database: Database, dataDir: string, keep: number) {
  const taken = await takeBackup(database, dataDir, 'auto');
  const all = await automaticBackups(dataDir);
  for (const old of all.slice(0, Math.max(0, all.length - keep))) await rm(old, { force: true });
  return taken;
}

/**
 * The embedded database's periodic snapshots (decision 0012): every `intervalMs` a snapshot into
 * `DATA_DIR/backups`, keeping the newest `keep`. The first one is due an interval after the newest one there,
 * so a server that restarts often still takes them. A no-op on PostgreSQL and with an interval of 0.
 */
export function startAutomaticBackups(
  database: Database,
  options: {
    dataDir: string;
    intervalMs: number;
    keep: number;
    logger: Logger;
    health?: Pick<DatabaseHealth, 'fault' | 'report'>;
  },
) {
  const { dataDir, intervalMs, keep, logger, health } = options;
  if (database.kind !== 'pglite' || intervalMs <= 0) return { stop: async () => {} };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const run = async () => {
    // On a full disk a snapshot would take the room the database needs to go on: none is written, and the
    // previous ones stay (the oldest are removed only after a new one is complete).
    if (health?.fault() === 'storage_full') {
      logger.error({ dir: backupsDir(dataDir) }, FULL_DISK_BACKUP);
      return;
    }
    try {
      const { file, header } = await automaticBackup(database, dataDir, keep);
      const rows = header.tables.reduce((sum, table) => sum + table.rows, 0);
      logger.info({ file, rows }, 'embedded database: automatic backup written');
    } catch (error) {
      if (health?.report(error) === 'storage_full')
        logger.error({ dir: backupsDir(dataDir) }, FULL_DISK_BACKUP);
      else logger.error({ err: error }, 'embedded database: automatic backup failed');
    }
  };
  const schedule = (delayMs: number) => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = run().then(() => schedule(intervalMs));
    }, delayMs);
    timer.unref();
  };
  void automaticBackups(dataDir).then(async (existing) => {
    const newest = existing.at(-1);
    const age = newest ? Date.now() - (await stat(newest)).mtimeMs : Infinity;
    schedule(Math.max(60_000, intervalMs - age));
  });
  return {
    /** Stops the timer and waits for a snapshot in progress. */
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
