import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIVE_EVENT, topics } from '@pulsecheck/shared/realtime/topics';
import { SYSTEM_MESSAGES } from '@pulsecheck/shared/system/contract';
import { sql } from 'drizzle-orm';
import { createApp, startingApp } from '../../app';
import { loadTestSettings } from '../../config';
import { jobs, mailOutbox } from '../../db/schema/messaging';
import { createAdmin } from '../../test/accounts';
import { readEventStream } from '../../test/events';
import { createCheck } from '../../test/health-checks';
import { openPostgres } from '../../db/client';
import { createDatabaseHealth } from '../../db/health';
import { useTestContext } from '../../test/harness';
import { freePort } from '../../test/server-process';
import { english } from '../../test/requests';

const ctx = useTestContext();

/** Prometheus' promtool (Debian's `prometheus` package): CI installs it; elsewhere its test is skipped, loudly. */
function promtoolMissing(): boolean {
  if (spawnSync('promtool', ['--version']).status === 0) return false;
  if (loadTestSettings().ci) throw new Error('promtool is missing: apt-get install -y prometheus');
  console.warn(
    '\n!!! `promtool check metrics` SKIPPED: promtool is missing (apt-get install -y prometheus).\n',
  );
  return true;
}

/**
 * The app on a PostgreSQL database that refuses every connection (a loopback port nobody listens on): real
 * ECONNREFUSED, on either test project.
 */
async function onUnreachableDatabase() {
  const database = openPostgres(`postgres://nobody@127.0.0.1:${await freePort()}/none`, {
    server: { statementTimeoutMs: 0, lockTimeoutMs: 1000 },
  });
  const health = createDatabaseHealth({ ping: database.ping, logger: ctx.deps.logger });
  const app = createApp({ ...ctx.deps, database, db: database.db, health });
  return {
    app,
    close: async () => {
      health.stop();
      await database.close();
    },
  };
}

const timed = async (answer: Response | Promise<Response>) => {
  const started = performance.now();
  const response = await answer;
  return { response, ms: performance.now() - started, body: (await response.json()) as unknown };
};

describe('GET /api/health', () => {
  it('answers ok: liveness, whatever the state of the database', async () => {
    const response = await ctx.request('GET', '/api/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    const unreachable = await onUnreachableDatabase();
    try {
      const { response: down, body } = await timed(unreachable.app.request('/api/health'));
      expect(down.status).toBe(200);
      expect(body).toEqual({ status: 'ok' });
    } finally {
      await unreachable.close();
    }
  });
});

describe('GET /api/ready', () => {
  it('answers ready once migrations have run and the database answers, 503 within a second when it does not', async () => {
    const response = await ctx.request('GET', '/api/ready');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ready' });
    const unreachable = await onUnreachableDatabase();
    try {
      const refused = await timed(unreachable.app.request('/api/ready'));
      expect(refused.response.status).toBe(503);
      expect(refused.ms).toBeLessThan(1000);
      expect(refused.response.headers.get('retry-after')).toBe('5');
      expect(refused.body).toEqual({
        error: { code: 'database_unavailable', message: english(SYSTEM_MESSAGES.databaseUnavailable) },
      });
    } finally {
      await unreachable.close();
    }
  });

  it('answers 503 while the process starts (migrations running), everywhere but the liveness probe', async () => {
    const starting = startingApp();
    expect((await starting.request('/api/health')).status).toBe(200);
    for (const path of ['/api/ready', '/api/me', '/admin/dashboard']) {
      const response = await starting.request(path);
      expect(response.status, path).toBe(503);
      expect(response.headers.get('retry-after')).toBe('5');
      expect(await response.json()).toEqual({
        error: { code: 'unavailable', message: english(SYSTEM_MESSAGES.starting) },
      });
    }
  });
});

describe('a database that cannot serve', () => {
  it('answers every request that needs it 503 database_unavailable with Retry-After, at once', async () => {
    const admin = await createAdmin(ctx);
    const unreachable = await onUnreachableDatabase();
    try {
      // The first request finds out (the connection is refused); the next ones are answered without trying.
      for (const [method, path] of [
        ['GET', '/api/me'],
        ['GET', '/api/dashboard'],
        ['POST', '/api/auth/logout'],
      ] as const) {
        const { response, ms, body } = await timed(
          unreachable.app.request(path, {
            method,
            headers: { ...admin.jar.header(), origin: ctx.deps.config.appUrl },
          }),
        );
        expect(response.status, path).toBe(503);
        expect(ms, path).toBeLessThan(2000);
        expect(response.headers.get('retry-after'), path).toBe('5');
        expect(body, path).toEqual({
          error: { code: 'database_unavailable', message: english(SYSTEM_MESSAGES.databaseUnavailable) },
        });
      }
    } finally {
      await unreachable.close();
    }
  });

  it("refuses writes with 507 storage_full while the embedded database's disk is short of room; reads go on", async () => {
    const admin = await createAdmin(ctx);
    const dir = mkdtempSync(path.join(tmpdir(), 'pulsecheck-full-'));
    // No disk has this much room: the real free space of `dir` is read and found short.
    const health = createDatabaseHealth({
      ping: ctx.deps.database.ping,
      logger: ctx.deps.logger,
      storageDir: dir,
      reserveBytes: Number.MAX_SAFE_INTEGER,
    });
    try {
      const app = createApp({ ...ctx.deps, health });
      await expect.poll(() => health.fault()).toBe('storage_full');
      const headers = {
        ...admin.jar.header(),
        origin: ctx.deps.config.appUrl,
        'content-type': 'application/json',
      };
      const read = await app.request('/api/me', { headers });
      expect(read.status).toBe(200);
      const write = await app.request('/api/account/profile', {
        method: 'PUT',
        headers,
        body: JSON.stringify({ name: 'Renamed' }),
      });
      expect(write.status).toBe(507);
      expect(await write.json()).toEqual({
        error: { code: 'storage_full', message: english(SYSTEM_MESSAGES.storageFull) },
      });
      const ready = await app.request('/api/ready');
      expect(ready.status).toBe(503);
      expect(await ready.json()).toEqual({
        error: { code: 'storage_full', message: english(SYSTEM_MESSAGES.storageFull) },
      });
      expect((await app.request('/api/health')).status).toBe(200);
    } finally {
      health.stop();
    }
  });
});

describe('GET /metrics', () => {
  const token = 'metrics-token-0123456789abcdef';
  const scrape = async (app: ReturnType<typeof createApp>, authorization?: string) =>
    app.request('/metrics', { headers: authorization ? { authorization } : {} });
  /** The value of the sample `line` starts with (`name{labels}`), or undefined. */
  const sample = (text: string, series: string) =>
    text
      .split('\n')
      .find((line) => line.startsWith(`${series} `))
      ?.split(' ')[1];

  it('is a 404 for others than this machine without the bearer token of METRICS_TOKEN', async () => {
    const app = createApp({ ...ctx.deps, config: { ...ctx.deps.config, metricsToken: token } });
    expect((await scrape(app)).status).toBe(404);
    expect((await scrape(app, 'Bearer wrong-token-0123456789abc')).status).toBe(404);
    expect((await scrape(createApp(ctx.deps), `Bearer ${token}`)).status).toBe(404);
    const allowed = await scrape(app, `Bearer ${token}`);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('content-type')).toContain('text/plain');
  });

  it('counts requests by route pattern, and reads the outbox, jobs, streams, pool and memory', async () => {
    const app = createApp({ ...ctx.deps, config: { ...ctx.deps.config, metricsToken: token } });
    const admin = await createAdmin(ctx);
    const check = await createCheck(ctx, admin);
    for (let i = 0; i < 3; i++) {
      const response = await app.request(`/api/health-checks/${check.healthCheckId}/results`, {
        headers: admin.jar.header(),
      });
      expect(response.status).toBe(200);
    }
    await app.request('/api/health-checks/00000000-0000-4000-8000-000000000999/results', {
      headers: admin.jar.header(),
    });
    await ctx.deps.db.execute(sql`update mail_outbox set status = 'sent' where status = 'pending'`);
    await ctx.deps.db.insert(mailOutbox).values({
      kind: 'test',
      to: 'someone@example.com',
      subject: 'Waiting',
      html: '<p>Waiting</p>',
      text: 'Waiting',
      createdAt: new Date(Date.now() - 120_000),
    });
    await ctx.deps.db.execute(sql`update jobs set status = 'done' where status = 'pending'`);
    await ctx.deps.db.insert(jobs).values({ kind: 'test', runAt: new Date(Date.now() - 60_000) });
    const stream = readEventStream(
      await app.request(`/api/events?topic=${topics.user(admin.userId)}`, { headers: admin.jar.header() }),
    );
    await stream.waitFor(LIVE_EVENT.ready);

    const text = await (await scrape(app, `Bearer ${token}`)).text();
    const route = '/api/health-checks/:healthCheckId/results';
    expect(sample(text, `pulsecheck_http_requests_total{method="GET",route="${route}",status="200"}`)).toBe(
      '3',
    );
    expect(sample(text, `pulsecheck_http_requests_total{method="GET",route="${route}",status="404"}`)).toBe(
      '1',
    );
    expect(text).not.toContain(check.healthCheckId);
    expect(
      sample(text, `pulsecheck_http_request_duration_seconds_count{method="GET",route="${route}"}`),
    ).toBe('4');
    expect(sample(text, 'pulsecheck_live_streams')).toBe('1');
    expect(sample(text, 'pulsecheck_outbox_pending')).toBe('1');
    expect(Number(sample(text, 'pulsecheck_outbox_oldest_pending_age_seconds'))).toBeGreaterThanOrEqual(119);
    expect(sample(text, 'pulsecheck_jobs_due')).toBe('1');
    expect(Number(sample(text, 'pulsecheck_job_lag_seconds'))).toBeGreaterThanOrEqual(59);
    expect(Number(sample(text, 'pulsecheck_db_pool_size'))).toBeGreaterThan(0);
    expect(Number(sample(text, 'pulsecheck_db_connections{state="active"}'))).toBeGreaterThan(0);
    expect(Number(sample(text, 'process_resident_memory_bytes'))).toBeGreaterThan(0);
    await stream.ended(100);
    await ctx.deps.db.execute(sql`delete from jobs where kind = 'test'`);
  });

  it.skipIf(promtoolMissing())("passes `promtool check metrics` (Prometheus' own linter)", async () => {
    const app = createApp({ ...ctx.deps, config: { ...ctx.deps.config, metricsToken: token } });
    // A request first, so the labelled series have samples too.
    await app.request('/api/health');
    const text = await (await scrape(app, `Bearer ${token}`)).text();
    const check = spawnSync('promtool', ['check', 'metrics'], { input: text, encoding: 'utf8' });
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);
  });
});

describe('API surface', () => {
  it('answers unknown API paths with a JSON 404', async () => {
    const response = await ctx.request('GET', '/api/does-not-exist');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toMatchObject({ error: { code: 'not_found' } });
  });

  it('keeps API answers, errors included, out of browser and proxy caches', async () => {
    for (const [path, status] of [
      ['/api/health', 200],
      ['/api/me', 401],
      ['/api/notifications', 401],
    ] as const) {
      const response = await ctx.request('GET', path);
      expect(response.status).toBe(status);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('describes its routes in the OpenAPI document', async () => {
    const response = await ctx.request('GET', '/api/openapi.json');
    expect(response.status).toBe(200);
    const doc = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/api/health']).toBeDefined();
  });

  it('sends security headers', async () => {
    const response = await ctx.request('GET', '/api/health');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses a JSON body over 1 MiB with 413 before reading it', async () => {
    const response = await ctx.request('POST', '/api/login', {
      body: { email: 'a@example.com', password: 'x'.repeat(1024 * 1024) },
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { message: 'Request body too large' } });
    // A declared length is refused without reading the body.
    const declared = await ctx.request('POST', '/api/login', {
      body: { email: 'a@example.com', password: 'x' },
      headers: { 'content-length': String(1024 * 1024 + 1) },
    });
    expect(declared.status).toBe(413);
  });
});

describe('web app serving', () => {
  const webDir = mkdtempSync(path.join(tmpdir(), 'pc-web-'));
  mkdirSync(path.join(webDir, 'assets'));
  writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>Pulsecheck</title>');
  writeFileSync(path.join(webDir, 'assets', 'app-123.js'), 'console.log(1)');

  it('falls back to index.html for every non-API path', async () => {
    const app = createApp(ctx.deps, { webDir });
    for (const route of ['/', '/admin/dashboard', '/health-check/abc/voting']) {
      const response = await app.request(route);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('<title>Pulsecheck</title>');
    }
  });

  it('serves hashed assets with a long cache life', async () => {
    const app = createApp(ctx.deps, { webDir });
    const response = await app.request('/assets/app-123.js');
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toContain('immutable');
  });
});

describe('cross-site writes', () => {
  it('refuses a write whose Origin is another site, and allows our own', async () => {
    const evil = await ctx.request('POST', '/api/logout', { headers: { origin: 'https://evil.example' } });
    expect(evil.status).toBe(403);
    const crossSite = await ctx.request('POST', '/api/logout', {
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.status).toBe(403);
    const own = await ctx.request('POST', '/api/logout', { headers: { origin: 'http://localhost:3000' } });
    expect(own.status).toBe(200);
  });
});

describe('compressed assets', () => {
  it('sends the Brotli copy of an asset to a browser that accepts it, and the plain file otherwise', async () => {
    const webDir = mkdtempSync(path.join(tmpdir(), 'pc-web-br-'));
    mkdirSync(path.join(webDir, 'assets'));
    writeFileSync(path.join(webDir, 'index.html'), '<!doctype html>');
    writeFileSync(path.join(webDir, 'assets', 'app.js'), 'console.log("plain")');
    writeFileSync(path.join(webDir, 'assets', 'app.js.br'), 'brotli-bytes');
    const app = createApp(ctx.deps, { webDir });
    const compressed = await app.request('/assets/app.js', {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(compressed.headers.get('content-encoding')).toBe('br');
    expect(compressed.headers.get('content-type')).toContain('text/javascript');
    expect(compressed.headers.get('vary')).toBe('Accept-Encoding');
    const plain = await app.request('/assets/app.js');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(await plain.text()).toBe('console.log("plain")');
  });
});
