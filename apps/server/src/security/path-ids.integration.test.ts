import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdmin } from '../test/accounts';
import { createTestContext, type TestContext } from '../test/harness';

/**
 * Issue "One home for each rule": every id in a path is declared one way (lib/params.ts) and a malformed one gets
 * one answer, 404 with the id's not-found message, whatever the route; never a 400 on some routes and a 404 on
 * others, never a database error.
 */

let ctx: TestContext;
let admin: Awaited<ReturnType<typeof createAdmin>>;

beforeAll(async () => {
  ctx = await createTestContext();
  admin = await createAdmin(ctx);
});
afterAll(async () => {
  await ctx.close();
});

type OpenApi = { paths: Record<string, Record<string, unknown>> };

describe('ids in paths', () => {
  it('answers a malformed id with 404 not_found on every route that takes one', async () => {
    const doc = (await (await ctx.request('GET', '/api/openapi.json')).json()) as OpenApi;
    const routes = Object.entries(doc.paths)
      .filter(([path]) => /\{\w*[iI]d\}/.test(path))
      .flatMap(([path, methods]) => Object.keys(methods).map((method) => ({ method, path })));
    expect(routes.length).toBeGreaterThan(20);
    for (const { method, path } of routes) {
      // A valid query, so only the id can be wrong (the follow-up calendar needs a date).
      const url = `${path.replace(/\{(\w*[iI]d)\}/g, 'not-a-uuid').replace(/\{\w+\}/g, 'x'.repeat(20))}?date=2030-01-01`;
      const response = await ctx.request(method.toUpperCase(), url, {
        headers: admin.jar.header(),
        ...(['post', 'put', 'patch'].includes(method) ? { body: {} } : {}),
      });
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect([response.status, body.error.code], `${method} ${path}`).toEqual([404, 'not_found']);
      expect(body.error.message, `${method} ${path}`).toMatch(/not found/i);
    }
  });
});
