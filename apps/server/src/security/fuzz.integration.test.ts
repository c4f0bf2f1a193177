import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { createTestContext, type TestContext } from '../test/harness';
import { createAdmin } from '../test/factories';

/**
 * Hostile input for every API route of the OpenAPI document (so a new route is fuzzed without anyone listing
 * it): random and malicious path ids, query strings and JSON bodies, signed out and as an admin. No answer may be
 * a 5xx, every 4xx must carry a message, and rejected requests must leave the data as it was.
 */
let ctx: TestContext;
let adminCookie: Record<string, string>;
type Route = { method: string; path: string };
let routes: Route[];

const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
// Tables whose changes on refused requests are the point: attempt counters.
const IGNORED_TABLES = new Set(['rate_limit', '__drizzle_migrations']);

beforeAll(async () => {
  ctx = await createTestContext();
  adminCookie = (await createAdmin(ctx)).jar.header();
  const doc = (await (await ctx.request('GET', '/api/openapi.json')).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  routes = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })),
  );
});
afterAll(async () => {
  await ctx.close();
});

async function fingerprint(): Promise<Record<string, string>> {
  const tables = await queryRows<{ table_name: string }>(
    ctx.deps.db,
    sql`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
  );
  const result: Record<string, string> = {};
  for (const { table_name } of tables) {
    if (IGNORED_TABLES.has(table_name)) continue;
    const [row] = await queryRows<{ digest: string | null }>(
      ctx.deps.db,
      sql.raw(
        `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from "${table_name}" t`,
      ),
    );
    result[table_name] = row?.digest ?? '';
  }
  return result;
}

const hostileString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    "' or 1=1 --",
    '"; drop table "user"; --',
    '../../etc/passwd',
    '%00',
    '<script>alert(1)</script>',
    '${7*7}',
    '\u0000',
    'null',
    '-1',
    '00000000-0000-0000-0000-000000000000',
    '00000000-0000-4000-8000-000000000001',
    'x'.repeat(5000),
  ),
  fc.uuid(),
);
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    hostileString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(
      fc.oneof(hostileString, fc.constantFrom('__proto__', 'constructor', 'email', 'password')),
      tie('value'),
      {
        maxKeys: 5,
      },
    ),
  ),
})).value;

describe('fuzzing every route', () => {
  it('never answers 5xx, always explains a 4xx, and changes nothing when it refuses', async () => {
    expect(routes.length).toBeGreaterThan(5);
    const before = await fingerprint();
    let writesAccepted = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: routes.length - 1 }),
        hostileString,
        fc.dictionary(fc.string({ maxLength: 10 }), hostileString, { maxKeys: 3 }),
        fc.option(jsonValue, { nil: undefined }),
        fc.boolean(),
        async (index, id, query, body, signedIn) => {
          const route = routes[index]!;
          const path = route.path.replace(/\{[^}]+\}/g, encodeURIComponent(id));
          const search = new URLSearchParams(query).toString();
          const response = await ctx.request(route.method, `${path}${search ? `?${search}` : ''}`, {
            body: route.method === 'GET' || route.method === 'HEAD' ? undefined : body,
            headers: signedIn ? adminCookie : {},
          });
          if (route.path === '/api/events' && response.status === 200) await response.body?.cancel();
          expect(response.status, `${route.method} ${path}`).toBeLessThan(500);
          if (response.status >= 400) {
            const answer = (await response.json()) as { error?: { message?: string } };
            expect(answer.error?.message, `${route.method} ${path}`).toBeTruthy();
          } else if (route.method !== 'GET') {
            writesAccepted += 1;
          }
        },
      ),
      { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31) },
    );
    if (writesAccepted === 0) expect(await fingerprint()).toEqual(before);
  }, 600_000);
});
