import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadTestSettings } from '../config';
import { createLogger } from '../logger';
import { useTestDatabase } from '../test/harness';
import { queryRows } from './client';
import { startEmbeddedMaintenance, vacuumWhereDue } from './maintenance';

const database = useTestDatabase();

/** PostgreSQL publishes table statistics at most once a second; tests ask for them at once. */
const flushStats = () => database.db.execute(sql`select pg_stat_force_next_flush()`);

const stats = async () => {
  await flushStats();
  const [row] = await queryRows<{ dead: number; vacuumed: boolean }>(
    database.db,
    sql`select n_dead_tup::int as dead, last_vacuum is not null as vacuumed
        from pg_stat_user_tables where relname = 'maintenance_probe'`,
  );
  return row;
};

// The embedded database only: PostgreSQL servers run their own autovacuum, and this is never started there.
describe.skipIf(loadTestSettings().kind !== 'pglite')('embedded database maintenance', () => {
  it('vacuums a table whose dead rows pass autovacuum’s threshold, and only then', async () => {
    await database.db.execute(sql`create table maintenance_probe (id int primary key, n int)`);
    await database.db.execute(sql`insert into maintenance_probe select g, 0 from generate_series(1, 2000) g`);
    await flushStats();
    await vacuumWhereDue(database);
    await flushStats();
    expect(await vacuumWhereDue(database)).not.toContain('public.maintenance_probe');

    await database.db.execute(sql`update maintenance_probe set n = n + 1`);
    expect((await stats())?.dead).toBe(2000);
    await flushStats();
    expect(await vacuumWhereDue(database)).toContain('public.maintenance_probe');
    expect(await stats()).toEqual({ dead: 0, vacuumed: true });
  });

  it('runs on its own on the embedded database and stops cleanly', async () => {
    await database.db.execute(sql`update maintenance_probe set n = n + 1`);
    const maintenance = startEmbeddedMaintenance(database, createLogger('silent'), undefined, 20);
    await expect.poll(async () => (await stats())?.dead, { timeout: 5000 }).toBe(0);
    await maintenance.stop();
  });
});
