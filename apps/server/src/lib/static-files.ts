import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import {
  DEFAULT_LANGUAGE,
  isLanguage,
  isPseudoLocale,
  LANGUAGE_COOKIE,
  LANGUAGES,
  type Locale,
  negotiateLanguage,
  textDirection,
} from '@pulsecheck/shared/i18n/languages';
import { translatorFor } from './i18n';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

/** The Brotli or gzip copy written at build time (apps/web/precompress.mjs), when the browser accepts it. */
async function precompressed(file: string, acceptEncoding: string) {
  for (const [encoding, extension] of [
    ['br', '.br'],
    ['gzip', '.gz'],
  ] as const) {
    if (!acceptEncoding.includes(encoding)) continue;
    const info = await stat(file + extension).catch(() => null);
    if (info?.isFile()) return { encoding, file: file + extension, size: info.size };
  }
  return null;
}

/** URL pattern (`/health-check/:healthCheckId/voting`) → the JavaScript files its screens load first. */
type RoutePreloads = Record<string, string[]>;

const ASSET_FILE = /^[\w./-]+\.js$/;

/**
 * `.vite/route-preloads.json`, written by the web build (apps/web/vite.config.ts from
 * apps/web/src/app/route-modules.ts). Missing or malformed, there are simply no hints.
 */
async function readRoutePreloads(root: string): Promise<RoutePreloads> {
  const text = await readFile(path.join(root, '.vite/route-preloads.json'), 'utf8').catch(() => null);
  if (text === null) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null) return {};
    const preloads: RoutePreloads = {};
    for (const [pattern, files] of Object.entries(parsed)) {
      if (!pattern.startsWith('/') || !Array.isArray(files)) continue;
      preloads[pattern] = files.filter(
        (file): file is string => typeof file === 'string' && ASSET_FILE.test(file),
      );
    }
    return preloads;
  } catch {
    return {};
  }
}

const segments = (value: string) => value.split('/').filter(Boolean);

/**
 * The pattern of `preloads` that matches `urlPath` (`:name` matches one segment, the rest literally and without
 * regard to case, as the client router does); the most specific one (most literal segments) when several do.
 */
export function matchRoutePattern(patterns: Iterable<string>, urlPath: string): string | null {
  const parts = segments(urlPath);
  let best: { pattern: string; literal: number } | null = null;
  for (const pattern of patterns) {
    const expected = segments(pattern);
    if (expected.length !== parts.length) continue;
    let literal = 0;
    const matches = expected.every((segment, i) => {
      if (segment.startsWith(':')) return true;
      literal += 1;
      return segment.toLowerCase() === parts[i]?.toLowerCase();
    });
    if (matches && (!best || literal > best.literal)) best = { pattern, literal };
  }
  return best?.pattern ?? null;
}

/** index.html with `<link rel="modulepreload">` for `files` before `</head>` (the build already lists the entry's). */
export function withModulePreloads(html: string, files: readonly string[]): string {
  if (files.length === 0 || !html.includes('</head>')) return html;
  const links = files.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('\n    ');
  return html.replace('</head>', `  ${links}\n  </head>`);
}

/** Locale → the file of the web's catalogue in it, from the build's manifest (`virtual:messages/<locale>`). */
async function readCatalogueFiles(root: string): Promise<Partial<Record<Locale, string>>> {
  const text = await readFile(path.join(root, '.vite/manifest.json'), 'utf8').catch(() => null);
  const files: Partial<Record<Locale, string>> = {};
  try {
    const manifest: unknown = text === null ? {} : JSON.parse(text);
    if (typeof manifest !== 'object' || manifest === null) return files;
    for (const [source, chunk] of Object.entries(manifest)) {
      const locale = /^virtual:messages\/(.+)$/.exec(source)?.[1];
      const file: unknown = typeof chunk === 'object' && chunk !== null ? Reflect.get(chunk, 'file') : null;
      if ((isLanguage(locale) || isPseudoLocale(locale)) && typeof file === 'string' && ASSET_FILE.test(file))
        files[locale] = file;
    }
  } catch {
    // No manifest: the app loads its catalogue itself, a round trip later.
  }
  return files;
}

/**
 * The language a page is written in: the visitor's choice (the cookie), else the best of the browser's
 * `Accept-Language`, else English. Pseudo-locales only where `pseudo` allows them (outside production).
 */
export function pageLocale(
  cookie: string | undefined,
  acceptLanguage: string | undefined,
  pseudo: boolean,
): Locale {
  if (isLanguage(cookie) || (pseudo && isPseudoLocale(cookie))) return cookie;
  return negotiateLanguage(acceptLanguage, LANGUAGES) ?? DEFAULT_LANGUAGE;
}

/**
 * index.html in `locale`: `<html lang dir data-language>` (the app starts in it, with no English first), its
 * description in it, and its catalogue's file preloaded with the entry.
 */
export function withLanguage(html: string, locale: Locale, catalogueFile: string | undefined): string {
  const description = translatorFor(locale).t('page.description');
  const page = html
    .replace(
      /<html lang="[^"]*">/,
      `<html lang="${locale}" dir="${textDirection(locale)}" data-language="${locale}">`,
    )
    .replace(
      /(<meta\s+name="description"\s+content=")[^"]*(")/,
      `$1${description.replace(/[&"<>]/g, (ch) => `&#${ch.charCodeAt(0)};`)}$2`,
    );
  return catalogueFile ? withModulePreloads(page, [catalogueFile]) : page;
}

/**
 * Serves the built web app: files under `root` as they are (hashed assets cached for a year), and
 * index.html for every other path so the client router can take it (the SPA fallback). That index.html names
 * the code of the screen the URL opens as `modulepreload` links, so the browser fetches it in parallel with
 * the entry rather than after the entry has run and asked for it.
 */
export function serveWebApp(root: string, options: { pseudoLocales?: boolean } = {}): MiddlewareHandler {
  let indexHtml: Promise<string> | undefined;
  let routePreloads: Promise<RoutePreloads> | undefined;
  let catalogueFiles: Promise<Partial<Record<Locale, string>>> | undefined;
  /** The page for each pattern ('' for URLs that match none) and language, built once. */
  const pages = new Map<string, string>();
  return async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
    const relative = path.normalize(decodeURIComponent(c.req.path)).replace(/^([/\\])+/, '');
    const file = path.join(root, relative);
    if (relative && file.startsWith(root + path.sep)) {
      const info = await stat(file).catch(() => null);
      if (info?.isFile()) {
        const type = CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream';
        const cache = relative.startsWith('assets/')
          ? 'public, max-age=31536000, immutable'
          : 'public, max-age=3600';
        const encoded = await precompressed(file, c.req.header('accept-encoding') ?? '');
        const served = encoded ?? { file, size: info.size };
        return c.body(Readable.toWeb(createReadStream(served.file)) as ReadableStream, 200, {
          'Content-Type': type,
          'Content-Length': String(served.size),
          'Cache-Control': cache,
          Vary: 'Accept-Encoding',
          ...(encoded ? { 'Content-Encoding': encoded.encoding } : {}),
        });
      }
      if (relative.startsWith('assets/')) return c.text('Not found', 404);
    }
    indexHtml ??= readFile(path.join(root, 'index.html'), 'utf8');
    routePreloads ??= readRoutePreloads(root);
    catalogueFiles ??= readCatalogueFiles(root);
    let html: string;
    try {
      html = await indexHtml;
    } catch {
      indexHtml = undefined;
      routePreloads = undefined;
      return c.text('The web app is not built. Run `npm run build` first.', 503);
    }
    const preloads = await routePreloads;
    const pattern = matchRoutePattern(Object.keys(preloads), c.req.path) ?? '';
    const locale = pageLocale(
      getCookie(c, LANGUAGE_COOKIE),
      c.req.header('accept-language'),
      options.pseudoLocales ?? false,
    );
    let page = pages.get(`${locale} ${pattern}`);
    if (page === undefined) {
      page = withLanguage(
        withModulePreloads(html, preloads[pattern] ?? []),
        locale,
        (await catalogueFiles)[locale],
      );
      pages.set(`${locale} ${pattern}`, page);
    }
    return c.html(page, 200, { 'Cache-Control': 'no-cache', Vary: 'Cookie, Accept-Language' });
  };
}
