import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import createClient from 'openapi-fetch';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  API_SCOPES,
  API_TOKEN_RATE_LIMIT,
  type ApiScope,
  type CreatedApiToken,
} from '@pulsecheck/shared/api-tokens/rules';
import { DEFAULT_SETTINGS } from '@pulsecheck/shared/health-checks/schemas';
import type { LoopDetail } from '@pulsecheck/shared/loops/contract';
import { apiTokens } from '../../db/schema/api-tokens';
import { flushTokenHits } from '../../auth/api-tokens';
import { addHits } from '../../lib/rate-limit';
import { queryRows } from '../../db/client';
import type { paths } from '../../test/api-schema.gen';
import { workspaces } from '../../db/schema/organizations';
import { createAdmin, signedInUser, type Admin } from '../../test/accounts';
import { useTestContext, type TestContext } from '../../test/harness';
import { addComment, addParticipants, createCheck, rateAll } from '../../test/health-checks';
import { addPeople, launchLoop } from '../../test/loops';
import { json, type ErrorJson, type Jar } from '../../test/requests';

/**
 * API tokens (issue 35): the scope each route declares (read from the OpenAPI document, which is made from the
 * same declaration `tokenGate` enforces), what a token's person may do, organisation tokens, revocation and expiry,
 * anonymity, the session-only routes, rate limits and last use.
 */

const ctx = useTestContext();

type Operation = { security?: Record<string, string[]>[]; responses: Record<string, unknown> };
type Doc = { paths: Record<string, Record<string, Operation>> };
type Route = { method: string; path: string; scope: ApiScope | null; statuses: string[] };

async function declaredRoutes(context: TestContext): Promise<Route[]> {
  const doc = await json<Doc>(await context.request('GET', '/api/openapi.json'));
  return Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      scope: (operation.security?.find((entry) => 'apiToken' in entry)?.apiToken?.[0] ??
        null) as ApiScope | null,
      statuses: Object.keys(operation.responses),
    })),
  );
}

async function createToken(
  context: TestContext,
  jar: Jar,
  scopes: readonly ApiScope[],
  options: { organization?: boolean; expiresInDays?: 30 | 90 | 365 | null } = {},
) {
  const response = await context.call(
    jar,
    'POST',
    options.organization ? '/api/organization/api-tokens' : '/api/account/api-tokens',
    {
      name: `Script ${randomUUID().slice(0, 6)}`,
      scopes,
      expiresInDays: options.expiresInDays === undefined ? 30 : options.expiresInDays,
    },
  );
  if (response.status !== 201) throw new Error(`token: ${response.status} ${await response.text()}`);
  return json<CreatedApiToken>(response);
}

const bearer = (secret: string) => ({ authorization: `Bearer ${secret}` });
const withToken = (secret: string, method: string, path: string, body?: unknown) =>
  ctx.request(method, path, { headers: bearer(secret), body });

type World = {
  admin: Admin;
  organizationId: string;
  checkId: string;
  templateId: string;
  loop: LoopDetail;
  actionItemId: string;
};

async function makeWorld(context: TestContext): Promise<World> {
  const admin = await createAdmin(context);
  const [workspace] = await context.deps.db
    .select({ organizationId: workspaces.organizationId })
    .from(workspaces)
    .where(eq(workspaces.id, admin.workspaceId));
  const check = await createCheck(context, { workspaceId: admin.workspaceId, userId: admin.userId });
  await addPeople(context, admin.workspaceId, 3);
  const launched = await launchLoop(context, admin.jar, admin.workspaceId);
  const { loop } = await json<{ loop: LoopDetail }>(
    await context.call(admin.jar, 'GET', `/api/loops/${launched.id}`),
  );
  const item = await context.call(
    admin.jar,
    'POST',
    `/api/health-checks/${check.healthCheckId}/action-items`,
    {
      description: 'Fix onboarding',
      ownerId: admin.userId,
    },
  );
  return {
    admin,
    organizationId: workspace!.organizationId,
    checkId: check.healthCheckId,
    templateId: check.templateId,
    loop,
    actionItemId: (await json<{ id: string }>(item)).id,
  };
}

/** A concrete URL of the route in the world: its ids filled in, a valid date for the routes that need one. */
function urlOf(route: Route, world: World) {
  const ids: Record<string, string> = {
    healthCheckId: world.checkId,
    workspaceId: world.admin.workspaceId,
    organizationId: world.organizationId,
    templateId: world.templateId,
    loopId: world.loop.id,
    roundId: world.loop.currentRound?.id ?? randomUUID(),
    actionItemId: world.actionItemId,
  };
  return `${route.path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? randomUUID())}?date=2099-01-01`;
}

/** An answer without the clock readings that differ between two calls a few milliseconds apart. */
const timeless = (body: unknown): unknown =>
  JSON.parse(
    JSON.stringify(body, (key, value: unknown) =>
      ['now', 'since', 'timeLeftMs'].includes(key) ? undefined : value,
    ),
  );

const needsBody = (method: string) => ['POST', 'PUT', 'PATCH'].includes(method);

describe('the scope of every route, from its declaration', () => {
  let world: World;
  let routes: Route[];
  const only = new Map<ApiScope, string>();
  const allBut = new Map<ApiScope, string>();
  let everything: string;

  beforeAll(async () => {
    world = await makeWorld(ctx);
    routes = await declaredRoutes(ctx);
    for (const scope of API_SCOPES) {
      only.set(scope, (await createToken(ctx, world.admin.jar, [scope])).secret);
      allBut.set(
        scope,
        (
          await createToken(
            ctx,
            world.admin.jar,
            API_SCOPES.filter((s) => s !== scope),
          )
        ).secret,
      );
    }
    everything = (await createToken(ctx, world.admin.jar, API_SCOPES)).secret;
  });

  it('declares a scope on the routes tokens may call, every scope on at least one', () => {
    const scoped = routes.filter((route) => route.scope);
    expect(scoped.length).toBeGreaterThan(35);
    expect(new Set(scoped.map((route) => route.scope))).toEqual(new Set(API_SCOPES));
  });

  it('refuses a token without the scope, before anything else (403 insufficient_scope)', async () => {
    for (const route of routes.filter((r) => r.scope)) {
      const response = await withToken(
        allBut.get(route.scope!)!,
        route.method,
        urlOf(route, world),
        needsBody(route.method) ? {} : undefined,
      );
      const body = await json<ErrorJson>(response);
      expect([response.status, body.error.code], `${route.method} ${route.path}`).toEqual([
        403,
        'insufficient_scope',
      ]);
      expect(response.headers.get('www-authenticate')).toContain(`scope="${route.scope}"`);
    }
  });

  it('lets a token with the scope read exactly what its person reads with a session', async () => {
    let answered = 0;
    for (const route of routes.filter((r) => r.scope && r.method === 'GET')) {
      const url = urlOf(route, world);
      const bySession = await ctx.call(world.admin.jar, 'GET', url);
      const byToken = await withToken(only.get(route.scope!)!, 'GET', url);
      expect(byToken.status, `GET ${route.path}`).toBe(bySession.status);
      if (bySession.status === 200) answered += 1;
      if (bySession.headers.get('content-type')?.includes('json'))
        expect(timeless(await byToken.json()), `GET ${route.path}`).toEqual(timeless(await bySession.json()));
    }
    // Not a comparison of refusals: the admin reads nearly all of them (the CSV of unreleased results is a 409).
    expect(answered).toBeGreaterThan(15);
  });

  it('lets a token with the scope through to its write, which answers as the document says', async () => {
    for (const route of routes.filter((r) => r.scope && r.method !== 'GET')) {
      const response = await withToken(
        only.get(route.scope!)!,
        route.method,
        urlOf(route, world),
        needsBody(route.method) ? {} : undefined,
      );
      const code = response.status >= 400 ? (await json<ErrorJson>(response)).error.code : 'ok';
      expect(['invalid_token', 'insufficient_scope', 'session_required', 'unauthenticated']).not.toContain(
        code,
      );
      expect(route.statuses, `${route.method} ${route.path} answered ${response.status}`).toContain(
        String(response.status),
      );
    }
  });

  it('refuses every token on every route that declares no scope (403 session_required), cookie or not', async () => {
    const sessionOnly = routes.filter((r) => !r.scope);
    expect(sessionOnly.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        'POST /api/login',
        'POST /api/signup',
        'GET /api/account/profile',
        'GET /api/account/security',
        'POST /api/account/api-tokens',
        'GET /api/organization/api-tokens',
      ]),
    );
    for (const route of sessionOnly) {
      const response = await ctx.request(route.method, urlOf(route, world), {
        // The person's own session cookie beside it does not count either.
        headers: { ...bearer(everything), ...world.admin.jar.header() },
        ...(needsBody(route.method) ? { body: {} } : {}),
      });
      const body = await json<ErrorJson>(response);
      expect([response.status, body.error.code], `${route.method} ${route.path}`).toEqual([
        403,
        'session_required',
      ]);
      expect(body.error.message).toMatch(/browser session/);
    }
  });
});

describe('what a token may do', () => {
  let world: World;
  beforeAll(async () => {
    world = await makeWorld(ctx);
  });

  it("never does more than its person: a member's token is refused what the member is refused", async () => {
    const member = await signedInUser(ctx, { workspaceId: world.admin.workspaceId, access: 'member' });
    const { secret } = await createToken(ctx, member.jar, API_SCOPES);
    const settings = `/api/health-checks/${world.checkId}/settings`;
    const body = { ...DEFAULT_SETTINGS, minResponses: 5 };
    const bySession = await ctx.call(member.jar, 'PUT', settings, body);
    const byToken = await withToken(secret, 'PUT', settings, body);
    expect(bySession.status).toBe(403);
    expect([byToken.status, await byToken.json()]).toEqual([bySession.status, await bySession.json()]);
    // The member may not administer the workspace: rename refused for both (a token cannot even try: no scope).
    const rename = await withToken(secret, 'PATCH', `/api/workspaces/${world.admin.workspaceId}`, {
      name: 'X',
    });
    expect(rename.status).toBe(403);
    // A stranger's token does not even learn that the check exists.
    const stranger = await signedInUser(ctx);
    const strangers = await createToken(ctx, stranger.jar, API_SCOPES);
    const read = await withToken(strangers.secret, 'GET', `/api/health-checks/${world.checkId}`);
    expect(read.status).toBe(404);
    // Removed from the workspace, the member's token loses it at once, as their session does.
    await ctx.deps.db.execute(sql`delete from workspace_members where user_id = ${member.userId}`);
    expect((await withToken(secret, 'GET', `/api/health-checks/${world.checkId}`)).status).toBe(404);
  });

  it('stops working at once when revoked or expired, and its list shows scopes, creation and last use', async () => {
    const created = await createToken(ctx, world.admin.jar, ['health-checks:read']);
    expect(created.secret).toMatch(/^pc_[A-Za-z0-9_-]{43}$/);
    const path = `/api/health-checks/${world.checkId}`;
    expect((await withToken(created.secret, 'GET', path)).status).toBe(200);
    const { tokens } = await json<{ tokens: CreatedApiToken['token'][] }>(
      await ctx.call(world.admin.jar, 'GET', '/api/account/api-tokens'),
    );
    const listed = tokens.find((token) => token.id === created.token.id)!;
    expect(listed).toMatchObject({ scopes: ['health-checks:read'], kind: 'personal' });
    expect(listed.lastUsedAt).not.toBeNull();
    expect(JSON.stringify(tokens)).not.toContain(created.secret);
    // Stored hashed: the secret is nowhere in the table.
    const [row] = await ctx.deps.db.select().from(apiTokens).where(eq(apiTokens.id, created.token.id));
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(3));

    const revoke = await ctx.call(world.admin.jar, 'DELETE', `/api/account/api-tokens/${created.token.id}`);
    expect(revoke.status).toBe(200);
    const after = await withToken(created.secret, 'GET', path);
    expect([after.status, (await json<ErrorJson>(after)).error.code]).toEqual([401, 'invalid_token']);

    const expiring = await createToken(ctx, world.admin.jar, ['health-checks:read'], { expiresInDays: 30 });
    expect(new Date(expiring.token.expiresAt!).getTime()).toBeGreaterThan(Date.now() + 29 * 86_400_000);
    expect((await withToken(expiring.secret, 'GET', path)).status).toBe(200);
    await ctx.deps.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, expiring.token.id));
    expect((await withToken(expiring.secret, 'GET', path)).status).toBe(401);
    // Someone else's token cannot be revoked by id.
    const other = await signedInUser(ctx);
    const theirs = await createToken(ctx, other.jar, ['health-checks:read']);
    const refused = await ctx.call(world.admin.jar, 'DELETE', `/api/account/api-tokens/${theirs.token.id}`);
    expect(refused.status).toBe(404);
  });

  it('refuses an unknown or malformed token with 401 invalid_token, and ignores other schemes', async () => {
    const path = `/api/health-checks/${world.checkId}`;
    for (const secret of [`pc_${'A'.repeat(43)}`, 'pc_short', 'not-a-token']) {
      const response = await withToken(secret, 'GET', path);
      expect([response.status, (await json<ErrorJson>(response)).error.code]).toEqual([401, 'invalid_token']);
      expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    }
    // A proxy's Basic sign-in in front of the app leaves the session alone.
    const basic = await ctx.request('GET', path, {
      headers: { ...world.admin.jar.header(), authorization: 'Basic dXNlcjpwYXNz' },
    });
    expect(basic.status).toBe(200);
  });

  it('writes the last use at most once a minute', async () => {
    const { secret, token } = await createToken(ctx, world.admin.jar, ['health-checks:read']);
    const path = `/api/health-checks/${world.checkId}`;
    const lastUse = async () =>
      (await ctx.deps.db.select().from(apiTokens).where(eq(apiTokens.id, token.id)))[0]!.lastUsedAt;
    await withToken(secret, 'GET', path);
    const first = await lastUse();
    expect(first).not.toBeNull();
    await withToken(secret, 'GET', path);
    expect(await lastUse()).toEqual(first);
    const earlier = new Date(Date.now() - 2 * 60_000);
    await ctx.deps.db.update(apiTokens).set({ lastUsedAt: earlier }).where(eq(apiTokens.id, token.id));
    await withToken(secret, 'GET', path);
    expect((await lastUse())!.getTime()).toBeGreaterThan(earlier.getTime() + 60_000);
  });

  it('answers RateLimit headers, and 429 with Retry-After past the budget', async () => {
    const { secret, token } = await createToken(ctx, world.admin.jar, ['health-checks:read']);
    const path = `/api/health-checks/${world.checkId}`;
    const first = await withToken(secret, 'GET', path);
    expect(first.headers.get('ratelimit-limit')).toBe(String(API_TOKEN_RATE_LIMIT.max));
    expect(first.headers.get('ratelimit-remaining')).toBe(String(API_TOKEN_RATE_LIMIT.max - 1));
    expect(Number(first.headers.get('ratelimit-reset'))).toBeGreaterThan(0);
    expect(Number(first.headers.get('ratelimit-reset'))).toBeLessThanOrEqual(
      API_TOKEN_RATE_LIMIT.windowSeconds,
    );
    // The budget is one row in the database, whichever process counts: spend it there.
    await flushTokenHits(ctx.deps.db);
    await ctx.deps.db.execute(
      sql`update rate_limit set count = ${API_TOKEN_RATE_LIMIT.max} where key = ${`pc:api-token:${token.id}`}`,
    );
    const refused = await withToken(secret, 'GET', path);
    expect([refused.status, (await json<ErrorJson>(refused)).error.code]).toEqual([429, 'rate_limited']);
    expect(refused.headers.get('ratelimit-remaining')).toBe('0');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Other tokens, and the person's session, are not held back.
    const other = await createToken(ctx, world.admin.jar, ['health-checks:read']);
    expect((await withToken(other.secret, 'GET', path)).status).toBe(200);
    expect((await ctx.call(world.admin.jar, 'GET', path)).status).toBe(200);
  });

  it('adds hits written behind the requests to the shared count, exactly, whatever runs at once', async () => {
    const key = `pc:test:${randomUUID()}`;
    const other = `pc:test:${randomUUID()}`;
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        addHits(ctx.deps.db, [
          { key, n: 2, windowSeconds: 60 },
          ...(i % 4 === 0 ? [{ key: other, n: 1, windowSeconds: 60 }] : []),
        ]),
      ),
    );
    const after = await addHits(ctx.deps.db, [{ key, n: 1, windowSeconds: 60 }]);
    expect(after.get(key)).toBe(41);
    expect((await addHits(ctx.deps.db, [{ key: other, n: 0, windowSeconds: 60 }])).get(other)).toBe(5);
  });

  it("counts a token's requests in the shared row within a second, and other processes' hits against it", async () => {
    const { secret, token } = await createToken(ctx, world.admin.jar, ['health-checks:read']);
    const path = `/api/health-checks/${world.checkId}`;
    for (let i = 0; i < 3; i++) await withToken(secret, 'GET', path);
    await flushTokenHits(ctx.deps.db);
    const key = `pc:api-token:${token.id}`;
    const [row] = await queryRows<{ count: number }>(
      ctx.deps.db,
      sql`select count from rate_limit where key = ${key}`,
    );
    expect(Number(row?.count)).toBe(3);
    // Another process counted 500 of this token's requests in the same window.
    await ctx.deps.db.execute(sql`update rate_limit set count = count + 500 where key = ${key}`);
    const next = await withToken(secret, 'GET', path);
    expect(next.headers.get('ratelimit-remaining')).toBe(String(API_TOKEN_RATE_LIMIT.max - 504));
  });

  it('keeps the cross-site check for browsers and lets scripts without an Origin write', async () => {
    const { secret } = await createToken(ctx, world.admin.jar, ['action-items:write']);
    const path = `/api/health-checks/${world.checkId}/action-items`;
    const body = { description: 'From a script', ownerId: world.admin.userId };
    expect((await withToken(secret, 'POST', path, body)).status).toBe(201);
    const crossSite = await ctx.request('POST', path, {
      headers: { ...bearer(secret), origin: 'https://evil.example' },
      body,
    });
    expect(crossSite.status).toBe(403);
    const cookieCrossSite = await ctx.request('POST', path, {
      headers: { ...world.admin.jar.header(), origin: 'https://evil.example' },
      body,
    });
    expect(cookieCrossSite.status).toBe(403);
  });
});

describe('organisation tokens', () => {
  it('act as an organisation admin of their organisation only, limited by scopes, and outlive their maker', async () => {
    const world = await makeWorld(ctx);
    const otherOrg = await makeWorld(ctx);
    const appointed = await signedInUser(ctx, { workspaceId: world.admin.workspaceId, access: 'member' });
    const { members } = await json<{ members: { id: string; userId: string | null }[] }>(
      await ctx.call(world.admin.jar, 'GET', `/api/workspaces/${world.admin.workspaceId}/members`),
    );
    const memberId = members.find((m) => m.userId === appointed.userId)!.id;
    // A member who is not an organisation admin may not make one.
    const refused = await ctx.call(appointed.jar, 'POST', '/api/organization/api-tokens', {
      name: 'Nope',
      scopes: ['insights:read'],
      expiresInDays: null,
    });
    expect(refused.status).toBe(403);
    const appoint = await ctx.call(
      world.admin.jar,
      'PUT',
      `/api/workspaces/${world.admin.workspaceId}/members/${memberId}/organization-admin`,
      { organizationAdmin: true },
    );
    expect(appoint.status).toBe(200);
    const { secret, token } = await createToken(
      ctx,
      appointed.jar,
      ['insights:read', 'members:read', 'health-checks:write', 'results:read'],
      { organization: true, expiresInDays: null },
    );
    expect(token).toMatchObject({ kind: 'organization', expiresAt: null, createdBy: appointed.userId });

    const insights = `/api/organizations/${world.organizationId}/insights`;
    expect((await withToken(secret, 'GET', insights)).status).toBe(200);
    expect(
      (await withToken(secret, 'GET', `/api/organizations/${otherOrg.organizationId}/insights`)).status,
    ).toBe(404);
    // Organisation-admin rights: no workspace's people, no launching, no other organisation's checks.
    expect(
      (await withToken(secret, 'GET', `/api/workspaces/${world.admin.workspaceId}/members`)).status,
    ).toBe(404);
    const launch = await withToken(secret, 'POST', '/api/health-checks', {
      workspaceId: world.admin.workspaceId,
    });
    expect(launch.status).toBeGreaterThanOrEqual(400);
    expect(launch.status).not.toBe(201);
    expect((await withToken(secret, 'GET', `/api/health-checks/${otherOrg.checkId}/results`)).status).toBe(
      404,
    );
    // Limited by its scopes.
    expect((await withToken(secret, 'GET', `/api/loops/${world.loop.id}/insights`)).status).not.toBe(200);
    const list = await json<{ tokens: { id: string }[] }>(
      await ctx.call(world.admin.jar, 'GET', '/api/organization/api-tokens'),
    );
    expect(list.tokens.map((t) => t.id)).toContain(token.id);

    // Its maker leaves the workspace (and with it the organisation admin role): the token goes on working.
    const remove = await ctx.call(
      world.admin.jar,
      'DELETE',
      `/api/workspaces/${world.admin.workspaceId}/members/${memberId}`,
    );
    expect(remove.status).toBe(200);
    expect((await withToken(secret, 'GET', insights)).status).toBe(200);
    // The owner revokes it: refused at once.
    const revoke = await ctx.call(world.admin.jar, 'DELETE', `/api/organization/api-tokens/${token.id}`);
    expect(revoke.status).toBe(200);
    expect((await withToken(secret, 'GET', insights)).status).toBe(401);
  });
});

describe('anonymity through the API', () => {
  it('gives a token exactly what the session of its person gets for an anonymous check', async () => {
    const admin = await createAdmin(ctx);
    const check = await createCheck(
      ctx,
      { workspaceId: admin.workspaceId, userId: admin.userId },
      { phase: 'plan', settings: { allowAnonymous: true, enableComments: true, minResponses: 3 } },
    );
    const people = await addParticipants(ctx, check, 3);
    const ratings = await rateAll(
      ctx,
      check,
      people,
      (i, j) => (['healthy', 'needs-improvement', 'fire-warning'] as const)[(i + j) % 3]!,
    );
    const first = people[0]!;
    await addComment(ctx, {
      participantId: first.participantId,
      ratingId: ratings.get(`${first.participantId}:${check.componentIds[0]}`)!,
      content: 'Said anonymously',
    });
    const path = `/api/health-checks/${check.healthCheckId}/results`;
    const bySession = await ctx.call(admin.jar, 'GET', path);
    const { secret } = await createToken(ctx, admin.jar, ['results:read']);
    const byToken = await withToken(secret, 'GET', path);
    expect(bySession.status).toBe(200);
    const sessionBody: unknown = await bySession.json();
    expect(await byToken.json()).toEqual(sessionBody);
    const text = JSON.stringify(sessionBody);
    expect(text).toContain('Said anonymously');
    for (const person of people) {
      expect(text).not.toContain(person.name);
      expect(text).not.toContain(person.email);
    }
    // The CSV too.
    const csvBySession = await ctx.call(admin.jar, 'GET', `${path}/csv`);
    const csvByToken = await withToken(secret, 'GET', `${path}/csv`);
    expect(await csvByToken.text()).toBe(await csvBySession.text());
  });
});

describe('the generated client', () => {
  it('calls the API with a token through openapi-fetch and the types generated from the document', async () => {
    const world = await makeWorld(ctx);
    const { secret } = await createToken(ctx, world.admin.jar, ['health-checks:read', 'action-items:read']);
    const client = createClient<paths>({
      baseUrl: 'http://localhost:3000',
      headers: { Authorization: `Bearer ${secret}` },
      fetch: (request) => Promise.resolve(ctx.app.request(request)),
    });
    const check = await client.GET('/api/health-checks/{healthCheckId}', {
      params: { path: { healthCheckId: world.checkId } },
    });
    expect(check.response.status).toBe(200);
    expect(check.response.headers.get('ratelimit-limit')).toBe(String(API_TOKEN_RATE_LIMIT.max));
    const items = await client.GET('/api/health-checks/{healthCheckId}/action-items', {
      params: { path: { healthCheckId: world.checkId } },
    });
    expect(items.data?.actionItems.map((item) => item.description)).toEqual(['Fix onboarding']);
    // Typed errors too: a scope the token lacks.
    const members = await client.GET('/api/workspaces/{workspaceId}/members', {
      params: { path: { workspaceId: world.admin.workspaceId } },
    });
    expect(members.error?.error.code).toBe('insufficient_scope');
  });
});
