import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../app';
import { type TestContext, useTestContext } from '../../test/harness';

const ctx = useTestContext();

describe('GET /api/health', () => {
  it('answers ok after a database round trip', async () => {
    const response = await ctx.request('GET', '/api/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('answers 503 when the database does not answer', async () => {
    const broken = createApp({
      ...ctx.deps,
      db: {
        execute: () => Promise.reject(new Error('connection refused')),
      } as unknown as TestContext['deps']['db'],
    });
    const response = await broken.request('/api/health');
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ error: { code: 'unavailable' } });
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
