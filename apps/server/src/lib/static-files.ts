import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { MiddlewareHandler } from 'hono';

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

/**
 * Serves the built web app: files under `root` as they are (hashed assets cached for a year), and
 * index.html for every other path so the client router can take it (the SPA fallback).
 */
export function serveWebApp(root: string): MiddlewareHandler {
  let indexHtml: Promise<string> | undefined;
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
    try {
      return c.html(await indexHtml, 200, { 'Cache-Control': 'no-cache' });
    } catch {
      indexHtml = undefined;
      return c.text('The web app is not built. Run `npm run build` first.', 503);
    }
  };
}
