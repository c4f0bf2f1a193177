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
        return c.body(Readable.toWeb(createReadStream(file)) as ReadableStream, 200, {
          'Content-Type': type,
          'Content-Length': String(info.size),
          'Cache-Control': cache,
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
