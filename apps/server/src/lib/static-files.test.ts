import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { matchRoutePattern } from '@pulsecheck/shared/i18n/message-parts';
import { serveWebApp, withMessageParts, withModulePreloads } from './static-files';

const INDEX = `<!doctype html>
<html>
  <head>
    <script type="module" crossorigin src="/assets/index-1.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>`;

function webDir(preloads?: unknown) {
  const root = mkdtempSync(path.join(tmpdir(), 'pc-static-'));
  mkdirSync(path.join(root, 'assets'));
  mkdirSync(path.join(root, '.vite'));
  writeFileSync(path.join(root, 'index.html'), INDEX);
  writeFileSync(path.join(root, 'assets', 'index-1.js'), 'console.log(1)');
  if (preloads !== undefined) {
    writeFileSync(
      path.join(root, '.vite', 'route-preloads.json'),
      typeof preloads === 'string' ? preloads : JSON.stringify(preloads),
    );
  }
  return root;
}

const appFor = (root: string) => new Hono().use('*', serveWebApp(root));
const preloadsIn = (html: string) =>
  [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

describe('matchRoutePattern', () => {
  const patterns = [
    '/',
    '/login',
    '/health-check/:id',
    '/health-check/:id/voting',
    '/admin/:section',
    '/admin/x',
  ];

  it('matches literal segments (any case) and one segment per parameter', () => {
    expect(matchRoutePattern(patterns, '/')).toBe('/');
    expect(matchRoutePattern(patterns, '/Login/')).toBe('/login');
    expect(matchRoutePattern(patterns, '/health-check/abc')).toBe('/health-check/:id');
    expect(matchRoutePattern(patterns, '/health-check/abc/voting')).toBe('/health-check/:id/voting');
  });

  it('prefers the pattern with more literal segments', () => {
    expect(matchRoutePattern(patterns, '/admin/x')).toBe('/admin/x');
    expect(matchRoutePattern(patterns, '/admin/y')).toBe('/admin/:section');
  });

  it('returns null when nothing matches', () => {
    expect(matchRoutePattern(patterns, '/health-check/abc/voting/more')).toBeNull();
    expect(matchRoutePattern(patterns, '/unknown')).toBeNull();
  });
});

describe('withModulePreloads', () => {
  it('adds one modulepreload link per file before </head>, and nothing else', () => {
    const html = withModulePreloads(INDEX, ['assets/a.js', 'assets/b.js']);
    expect(preloadsIn(html)).toEqual(['/assets/a.js', '/assets/b.js']);
    expect(html.indexOf('/assets/b.js')).toBeLessThan(html.indexOf('</head>'));
    expect(html.replace(/\s*<link rel="modulepreload"[^>]*>/g, '').replace(/\s+/g, '')).toBe(
      INDEX.replace(/\s+/g, ''),
    );
  });

  it('leaves the page alone without files', () => {
    expect(withModulePreloads(INDEX, [])).toBe(INDEX);
  });
});

describe('withMessageParts', () => {
  const parts = {
    dir: 'assets/messages-abc',
    routes: { '/': 'p1', '/login': 'p2' },
    modules: { voting: 'p3' },
  };

  it("preloads what every page says and the URL's part in the page's language, and carries the map", () => {
    const html = withMessageParts(INDEX, parts, 'de', '/login');
    const links = [...html.matchAll(/<link rel="preload" as="fetch" crossorigin href="([^"]+)">/g)].map(
      (m) => m[1],
    );
    expect(links).toEqual(['/assets/messages-abc/de/entry.json', '/assets/messages-abc/de/p2.json']);
    const map = /<script type="application\/json" id="message-parts">(.*?)<\/script>/.exec(html)?.[1];
    expect(JSON.parse(map ?? 'null')).toEqual(parts);
  });

  it('preloads only the common part for a URL without screens of its own, and nothing without a map', () => {
    expect(withMessageParts(INDEX, parts, 'en', '').match(/rel="preload"/g)).toHaveLength(1);
    expect(withMessageParts(INDEX, null, 'en', '/')).toBe(INDEX);
  });
});

describe('serveWebApp: index.html with the screen code of the URL', () => {
  const preloads = {
    '/': ['assets/landing-1.js'],
    '/health-check/:healthCheckId/voting': ['assets/participation-1.js', 'assets/rules-1.js'],
  };

  it('lists the chunks of the screen the URL opens as modulepreload links', async () => {
    const app = appFor(webDir(preloads));
    const voting = await app.request('/health-check/4f1c/voting');
    expect(voting.status).toBe(200);
    expect(voting.headers.get('content-type')).toContain('text/html');
    expect(voting.headers.get('cache-control')).toBe('no-cache');
    expect(preloadsIn(await voting.text())).toEqual(['/assets/participation-1.js', '/assets/rules-1.js']);
    expect(preloadsIn(await (await app.request('/')).text())).toEqual(['/assets/landing-1.js']);
  });

  it('serves the plain index.html for URLs no screen claims', async () => {
    const app = appFor(webDir(preloads));
    const response = await app.request('/no/such/screen');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(INDEX);
  });

  it('adds no inline script: the page stays within a script-src self policy', async () => {
    const html = await (await appFor(webDir(preloads)).request('/')).text();
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toContain('src=');
      expect(body).toBe('');
    }
  });

  it('works without the preload list, and ignores a malformed one or unsafe file names', async () => {
    expect(await (await appFor(webDir()).request('/')).text()).toBe(INDEX);
    expect(await (await appFor(webDir('not json')).request('/')).text()).toBe(INDEX);
    const odd = appFor(webDir({ '/': ['assets/ok.js', 'assets/"><script>x</script>.js', 42] }));
    expect(preloadsIn(await (await odd.request('/')).text())).toEqual(['/assets/ok.js']);
  });

  it('still serves the files themselves', async () => {
    const response = await appFor(webDir(preloads)).request('/assets/index-1.js');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('console.log(1)');
  });
});
