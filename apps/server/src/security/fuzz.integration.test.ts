import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../db/client';
import { GLOBAL_TEMPLATE_ID } from '../db/catalogue';
import { createAdmin, joinedParticipant, validSignup } from '../test/accounts';
import { useTestContext } from '../test/harness';
import { createCheck } from '../test/health-checks';
import { followLink, latestMail, linkIn } from '../test/mail';
import { uniqueEmail } from '../test/unique';

/**
 * Hostile input for every API route of the OpenAPI document (so a new route is fuzzed without anyone listing
 * it): random and malicious path ids, query strings and JSON bodies, signed out and as an admin. No answer may be
 * a 5xx, every 4xx must carry a message, and rejected requests must leave the data as it was.
 */
const ctx = useTestContext();
let adminCookie: Record<string, string>;
type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  additionalProperties?: JsonSchema | boolean;
};
type Route = { method: string; path: string; body?: JsonSchema };
type OpenApiDoc = {
  paths: Record<
    string,
    Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>
  >;
  components?: { schemas?: Record<string, JsonSchema> };
};
let doc: OpenApiDoc;
let routes: Route[];
/** Ids that exist: the admin's workspace, a check with its components, a participant, the catalogue. */
let realIds: string[];

const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
// Tables whose changes on refused requests are the point: attempt counters.
const IGNORED_TABLES = new Set(['rate_limit', '__drizzle_migrations']);

beforeAll(async () => {
  const admin = await createAdmin(ctx);
  adminCookie = admin.jar.header();
  const check = await createCheck(ctx, admin);
  const participant = await joinedParticipant(ctx, check.healthCheckId);
  realIds = [
    admin.workspaceId,
    admin.userId,
    check.healthCheckId,
    participant.participantId,
    GLOBAL_TEMPLATE_ID,
  ];
  realIds.push(...check.componentIds);
  doc = (await (await ctx.request('GET', '/api/openapi.json')).json()) as OpenApiDoc;
  routes = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      body: operation.requestBody?.content?.['application/json']?.schema,
    })),
  );
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
            // Signing out would leave every later run signed out.
            headers: signedIn && route.path !== '/api/logout' ? adminCookie : {},
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

/**
 * A body shaped like the route's request schema, so it passes the outer validation and reaches the handler,
 * with hostile text (NUL, markup, quotes, huge strings) and existing ids where strings go.
 */
function shapedBody(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (!schema || depth > 6) return jsonValue;
  if (schema.$ref)
    return shapedBody(doc.components?.schemas?.[schema.$ref.split('/').at(-1) ?? ''], depth + 1);
  const variants = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (variants) return fc.oneof(...variants.map((v) => shapedBody(v, depth + 1)));
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...schema.enum) }, hostileString);
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties = schema.properties ?? {};
      if (Object.keys(properties).length === 0 && typeof schema.additionalProperties === 'object')
        return fc.dictionary(
          fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...realIds) }, hostileString),
          shapedBody(schema.additionalProperties, depth + 1),
          { maxKeys: 4 },
        );
      const record = Object.fromEntries(
        Object.entries(properties).map(([k, v]) => [k, shapedBody(v, depth + 1)]),
      );
      return fc.record(record, { requiredKeys: (schema.required ?? []).filter((k) => k in properties) });
    }
    case 'array':
      return fc.array(shapedBody(schema.items, depth + 1), { maxLength: 4 });
    case 'integer':
    case 'number':
      return fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: schema.minimum ?? -5, max: schema.maximum ?? 1_000 }) },
        fc.integer(),
      );
    case 'boolean':
      return fc.boolean();
    case 'string':
      if (schema.format === 'uuid')
        return fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...realIds) }, fc.uuid());
      if (schema.format === 'email')
        return fc.oneof({ weight: 3, arbitrary: fc.emailAddress() }, hostileString);
      if (schema.format === 'date' || schema.format === 'date-time')
        return fc
          .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
          .map((d) => (schema.format === 'date' ? d.toISOString().slice(0, 10) : d.toISOString()));
      return fc.oneof(
        hostileString,
        fc.string({ minLength: 1, maxLength: Math.min(schema.maxLength ?? 60, 60) }),
        fc.constantFrom(...realIds),
      );
    default:
      return jsonValue;
  }
}

describe('fuzzing every route with well-formed bodies and existing ids', () => {
  it('never answers 5xx and always explains a 4xx, however deep the request gets', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Signing out would leave every later run signed out.
        fc
          .constantFrom(...routes.filter((r) => r.path !== '/api/logout'))
          .chain((route) =>
            fc.tuple(fc.constant(route), fc.constantFrom(...realIds), shapedBody(route.body)),
          ),
        async ([route, id, body]) => {
          const path = route.path.replace(/\{[^}]+\}/g, id);
          const response = await ctx.request(route.method, path, {
            body: route.body ? body : undefined,
            headers: adminCookie,
          });
          if (route.path === '/api/events' && response.status === 200) await response.body?.cancel();
          expect(
            response.status,
            `${route.method} ${path} ${JSON.stringify(body)?.slice(0, 300)}`,
          ).toBeLessThan(500);
          if (response.status >= 400) {
            const answer = (await response.json()) as { error?: { message?: string } };
            expect(answer.error?.message, `${route.method} ${path}`).toBeTruthy();
          }
        },
      ),
      {
        numRuns: Number(process.env.FUZZ_SHAPED_RUNS ?? 3_000),
        seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31),
      },
    );
  }, 600_000);
});

describe('fuzzing the sign-up token of verification links', () => {
  it('no forged or mangled sign-up token picks a password: a contested account keeps none, and nothing 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(hostileString, async (forged) => {
        const email = uniqueEmail('contested');
        for (const password of ['first-password', 'second-password']) {
          const response = await ctx.request('POST', '/api/signup', {
            body: validSignup({ email, password, confirmPassword: password }),
          });
          expect(response.status).toBe(201);
        }
        const link = new URL(linkIn((await latestMail(ctx, email, 'Verify')).text));
        link.searchParams.set('signup', forged);
        const { response } = await followLink(ctx, link.toString());
        expect(response.status, forged).toBe(302);
        for (const password of ['first-password', 'second-password']) {
          const login = await ctx.request('POST', '/api/login', { body: { email, password } });
          expect(login.status, forged).toBe(401);
        }
      }),
      {
        numRuns: Number(process.env.FUZZ_SIGNUP_RUNS ?? 25),
        seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31),
      },
    );
  }, 600_000);
});
