import { sql, type SQL } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { loadTestSettings } from '../config';
import { copyPostgresTemplate, openEmptyDatabase } from '../test/harness';
import { openPostgres, queryRows } from './client';

/** A statement with the kinds of values the hot path sends and reads: a JSON parameter, numbers, a timestamp. */
const probe = (n: number): SQL =>
  sql`select x.n, x.votes, ${n}::int * 2 as doubled, '2026-11-28T10:00:00Z'::timestamptz as at
      from jsonb_to_recordset(${JSON.stringify([{ n, votes: { a: 'healthy' } }])}::jsonb) as x(n int, votes jsonb)`;

describe(`queryPrepared (${loadTestSettings().kind})`, () => {
  it('answers the rows queryRows answers, with the same value types', async () => {
    const database = await openEmptyDatabase();
    try {
      for (const n of [1, 2]) {
        const prepared = await database.queryPrepared(probe(n));
        expect(prepared).toEqual(await queryRows(database.db, probe(n)));
        expect(prepared).toEqual([expect.objectContaining({ n, votes: { a: 'healthy' }, doubled: n * 2 })]);
      }
    } finally {
      await database.drop();
    }
  });

  it.skipIf(loadTestSettings().kind !== 'postgres')(
    'prepares a statement once on a PostgreSQL connection, where queryRows prepares nothing',
    async () => {
      const copy = await copyPostgresTemplate('prepared_');
      // One connection, so the session that prepared is the session asked.
      const database = openPostgres(copy.url, { max: 1 });
      const kept = () =>
        queryRows<{ count: number }>(
          database.db,
          sql`select count(*)::int as count from pg_prepared_statements where statement like '%jsonb_to_recordset%'`,
        ).then(([row]) => row?.count);
      try {
        await queryRows(database.db, probe(1));
        expect(await kept()).toBe(0);
        for (const n of [1, 2, 3]) await database.queryPrepared(probe(n));
        expect(await kept()).toBe(1);

        // A migration that changes the columns a kept statement answers: PostgreSQL refuses the old plan once
        // ('cached plan must not change result type') and postgres.js prepares the statement again.
        await queryRows(database.db, sql`create table prepared_probe (id int)`);
        await queryRows(database.db, sql`insert into prepared_probe values (1)`);
        const all = sql`select * from prepared_probe where id = ${1}`;
        expect(await database.queryPrepared(all)).toEqual([{ id: 1 }]);
        await queryRows(database.db, sql`alter table prepared_probe add column note text default 'added'`);
        expect(await database.queryPrepared(all)).toEqual([{ id: 1, note: 'added' }]);
      } finally {
        await database.close();
        await copy.drop();
      }
    },
  );
});
