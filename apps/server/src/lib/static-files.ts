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
import {
  ENTRY_PART,
  matchRoutePattern,
  MESSAGE_PARTS_ELEMENT,
  type MessageParts,
  messagePartUrl,
} from '@pulsecheck/shared/i18n/message-parts';
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

/** index.html with `<link rel="modulepreload">` for `files` before `</head>` (the build already lists the entry's). */
export function withModulePreloads(html: string, files: readonly string[]): string {
  if (files.length === 0 || !html.includes('</head>')) return html;
  const links = files.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`).join('\n    ');
  return html.replace('</head>', `  ${links}\n  </head>`);
}

/**
 * `.vite/message-parts.json`, written by the web build (apps/web/vite-messages.ts): where each language's
 * catalogue parts are and which part each URL pattern loads. Missing or malformed, the page carries no map
 * and the app says so.
 */
async function readMessageParts(root: string): Promise<MessageParts | null> {
  const text = await readFile(path.join(root, '.vite/message-parts.json'), 'utf8').catch(() => null);
  try {
    const parsed: unknown = text === null ? null : JSON.parse(text);
    if (typeof parsed !== 'object' || parsed === null) return null;
    const dir: unknown = Reflect.get(parsed, 'dir');
    if (typeof dir !== 'string' || !/^assets\/[\w-]+$/.test(dir)) return null;
    const names = (record: unknown, isKey: (key: string) => boolean) => {
      const found: Record<string, string> = {};
      if (typeof record === 'object' && record !== null)
        for (const [key, name] of Object.entries(record))
          if (isKey(key) && typeof name === 'string' && /^[\w-]+$/.test(name)) found[key] = name;
      return found;
    };
    return {
      dir,
      routes: names(Reflect.get(parsed, 'routes'), (pattern) => pattern.startsWith('/')),
      modules: names(Reflect.get(parsed, 'modules'), (module) => /^\w+$/.test(module)),
    };
  } catch {
    return null;
  }
}

/**
 * index.html with the map of the catalogue's parts (the app loads each page's words by it) and the two parts
 * this page needs in `locale` preloaded with the entry: what every page says, and what this URL's screens say.
 */
export function withMessageParts(
  html: string,
  parts: MessageParts | null,
  locale: Locale,
  pattern: string,
): string {
  if (!parts || !html.includes('</head>')) return html;
  const names = [ENTRY_PART, parts.routes[pattern]].filter((name) => name !== undefined);
  const links = names.map(
    (name) => `<link rel="preload" as="fetch" crossorigin href="${messagePartUrl(parts, locale, name)}">`,
  );
  const map = JSON.stringify(parts).replace(/</g, '\\u003c');
  const script = `<script type="application/json" id="${MESSAGE_PARTS_ELEMENT}">${map}</script>`;
  return html.replace('</head>', `  ${[...links, script].join('\n    ')}\n  </head>`);
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
 * index.html in `locale`: `<html lang dir data-language>` (the app starts in it, with no English first) and its
 * description in it.
 */
export function withLanguage(html: string, locale: Locale): string {
  const description = translatorFor(locale).t('page.description');
  return html
    .replace(
      /<html lang="[^"]*">/,
      `<html lang="${locale}" dir="${textDirection(locale)}" data-language="${locale}">`,
    )
    .replace(
      /(<meta\s+name="description"\s+content=")[^"]*(")/,
      `$1${description.replace(/[&"<>]/g, (ch) => `&#${ch.charCodeAt(0)};`)}$2`,
    );
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
  let messageParts: Promise<MessageParts | null> | undefined;
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
    messageParts ??= readMessageParts(root);
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
        withMessageParts(
          withModulePreloads(html, preloads[pattern] ?? []),
          await messageParts,
          locale,
          pattern,
        ),
        locale,
      );
      pages.set(`${locale} ${pattern}`, page);
    }
    return c.html(page, 200, { 'Cache-Control': 'no-cache', Vary: 'Cookie, Accept-Language' });
  };
}
