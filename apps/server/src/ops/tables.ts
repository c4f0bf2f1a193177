import { sql } from 'drizzle-orm';
import { queryRows, type Db } from '../db/client';

/**
 * The tables of the database as its own catalogue lists them (never a hand-kept list, so tables that later
 * migrations add are covered): every ordinary table of the `public` schema and drizzle's migration journal.
 * Backups, the move to PostgreSQL, their checksums and the deletion tests all read them from here.
 */
export type Table = {
  /** `schema.name`, as written in backup files and messages. */
  name: string;
  /** The quoted identifier, for SQL. */
  identifier: string;
  /** Columns a row is written with (generated columns are left out: the database computes them). */
  columns: string[];
};

export const SCHEMAS = ['public', 'drizzle'] as const;
const schemaList = sql.raw(SCHEMAS.map((schema) => `'${schema}'`).join(', '));

/**
 * The tables, each after every table it references (so rows can be inserted in this order with their foreign
 * keys checked). A reference cycle cannot be ordered and is an error naming the tables.
 */
export async function listTables(db: Db): Promise<Table[]> {
  const rows = await queryRows<{ oid: number; name: string; identifier: string; columns: string[] }>(
    db,
    sql`select c.oid::int as oid,
               n.nspname || '.' || c.relname as name,
               format('%I.%I', n.nspname, c.relname) as identifier,
               array(select a.attname::text from pg_attribute a
                     where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped and a.attgenerated = ''
                     order by a.attnum) as columns
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where c.relkind = 'r' and not c.relispartition and n.nspname in (${schemaList})
        order by n.nspname, c.relname`,
  );
  const references = await queryRows<{ from: number; to: number }>(
    db,
    sql`select conrelid::int as "from", confrelid::int as "to" from pg_constraint
        where contype = 'f' and conrelid <> confrelid`,
  );
  const byOid = new Map(rows.map((row) => [row.oid, row]));
  const needs = new Map(rows.map((row) => [row.oid, new Set<number>()]));
  for (const { from, to } of references) if (byOid.has(to)) needs.get(from)?.add(to);
  const ordered: Table[] = [];
  const placed = new Set<number>();
  while (placed.size < rows.length) {
    const ready = rows.filter(
      (row) => !placed.has(row.oid) && [...(needs.get(row.oid) ?? [])].every((oid) => placed.has(oid)),
    );
    if (ready.length === 0) {
      const left = rows.filter((row) => !placed.has(row.oid)).map((row) => row.name);
      throw new Error(`The foreign keys of these tables form a cycle: ${left.join(', ')}`);
    }
    for (const row of ready) {
      placed.add(row.oid);
      ordered.push({ name: row.name, identifier: row.identifier, columns: row.columns });
    }
  }
  return ordered;
}

export type Fingerprint = { rows: number; checksum: string };

/**
 * Row count and checksum of a table: the MD5 of its rows' MD5s in order, each row as its JSON text (in UTC, so
 * the same rows give the same checksum on the embedded database and on a PostgreSQL server). Call it inside a
 * transaction that has run `SET LOCAL timezone = 'UTC'` (`inUtc`).
 */
export async function fingerprint(db: Db, table: Table): Promise<Fingerprint> {
  const [row] = await queryRows<{ rows: number; checksum: string }>(
    db,
    sql`select count(*)::int as rows, md5(coalesce(string_agg(h, '' order by h), '')) as checksum
        from (select md5(to_jsonb(t)::text) as h from ${sql.raw(table.identifier)} t) rows`,
  );
  return { rows: row?.rows ?? 0, checksum: row?.checksum ?? '' };
}

/** Row counts of every table, by name. */
export async function rowCounts(db: Db): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of await listTables(db)) {
    const [row] = await queryRows<{ rows: number }>(
      db,
      sql`select count(*)::int as rows from ${sql.raw(table.identifier)}`,
    );
    counts[table.name] = row?.rows ?? 0;
  }
  return counts;
}

/** Makes JSON text of timestamps the same on every server: UTC for the rest of the transaction. */
export const inUtc = (db: Db) => db.execute(sql`set local timezone = 'UTC'`);
