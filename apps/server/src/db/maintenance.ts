import { sql } from 'drizzle-orm';
import type { Logger } from '../logger';
import { queryRows, type Database } from './client';
import type { DatabaseHealth } from './health';

/**
 * PGlite runs PostgreSQL in single-user mode, where autovacuum never runs: the dead rows of every update (an
 * autosave rewrites its participant's row) pile up, and the visibility map that index-only scans rely on is
 * never set. This does autovacuum's job for the embedded database, with autovacuum's default thresholds, and
 * answers the tables it vacuumed or analyzed. PostgreSQL servers keep their own autovacuum.
 */
export async function vacuumWhereDue(database: Database): Promise<string[]> {
  const due = await queryRows<{ name: string; vacuum: boolean }>(
    database.db,
    sql`select format('%I.%I', schemaname, relname) as name,
               (n_dead_tup > 50 + 0.2 * n_live_tup or n_ins_since_vacuum > 1000 + 0.2 * n_live_tup) as vacuum
        from pg_stat_user_tables
        where n_dead_tup > 50 + 0.2 * n_live_tup
           or n_ins_since_vacuum > 1000 + 0.2 * n_live_tup
           or n_mod_since_analyze > 50 + 0.1 * n_live_tup`,
  );
  for (const table of due) {
    await database.db.execute(sql.raw(`${table.vacuum ? 'vacuum (analyze)' : 'analyze'} ${table.name}`));
  }
  return due.map((table) => table.name);
}

/** Runs `vacuumWhereDue` every `intervalMs` on the embedded database; a no-op on PostgreSQL. */
export function startEmbeddedMaintenance(
  database: Database,
  logger: Logger,
  health?: Pick<DatabaseHealth, 'fault'>,
  intervalMs = 60_000,
) {
  if (database.kind !== 'pglite') return { stop: async () => {} };
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    // A vacuum writes to the log too: none while the disk is full.
    if (health?.fault()) return;
    running = vacuumWhereDue(database)
      .then((tables) => {
        if (tables.length > 0) logger.debug({ tables }, 'embedded database: vacuumed');
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'embedded database: vacuum failed'));
  }, intervalMs);
  timer.unref();
  return {
    /** Stops the timer and waits for a vacuum in progress. */
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
