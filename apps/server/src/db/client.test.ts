import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, queryRows } from './client';

const made: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pc-client-'));
  made.push(dir);
  return path.join(dir, 'data');
};
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

// Creating a PGlite database takes seconds (initdb), more on a busy machine.
describe('openDatabase (embedded)', { timeout: 120_000 }, () => {
  it('creates a new database in a child process, renames it into place, and opens it with its settings', async () => {
    const dir = dataDir();
    const database = await openDatabase({ dataDir: dir });
    try {
      const [row] = await queryRows<{ buffers: string }>(
        database.db,
        sql`select current_setting('shared_buffers') as buffers`,
      );
      expect(row?.buffers).toBe('32MB');
      expect(existsSync(path.join(dir, 'pglite', 'PG_VERSION'))).toBe(true);
      expect(existsSync(path.join(dir, 'pglite.creating'))).toBe(false);
    } finally {
      await database.close();
    }
    // A second start opens the same database.
    const again = await openDatabase({ dataDir: dir });
    await again.close();
  });

  it('replaces what an interrupted creation left behind', async () => {
    const dir = dataDir();
    mkdirSync(path.join(dir, 'pglite.creating'), { recursive: true });
    writeFileSync(path.join(dir, 'pglite.creating', 'PG_VERSION'), 'half made');
    const database = await openDatabase({ dataDir: dir });
    try {
      const [row] = await queryRows<{ one: number }>(database.db, sql`select 1 as one`);
      expect(row?.one).toBe(1);
    } finally {
      await database.close();
    }
  });
});
