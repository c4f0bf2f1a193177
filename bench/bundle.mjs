// bundle: gzipped JavaScript that each route group loads first, read from the production build: the entry with
// everything it imports statically (the `<script>` and Vite's own preloads in index.html), plus the files the
// server lists as `<link rel="modulepreload">` for the route's URL (`.vite/route-preloads.json`: the screens of
// every layout on the way to the page, and their static imports). That is what a browser opening the URL
// downloads before the page can paint. With it, the page's words (English here; the others weigh about as much):
// the catalogue's part every page loads and the URL's part, which the server preloads with the entry (decision
// 0027).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { result } from './report.mjs';

const dist = path.join(import.meta.dirname, '../apps/web/dist');

/** Route groups and the URL pattern (as in `apps/web/src/app/route-modules.ts`) of the page that opens each. */
const GROUPS = {
  landing: '/',
  auth: '/login',
  participant: '/health-check/:healthCheckId/voting',
  // The admin dashboard, inside the admin layout (its navigation, notification bell and workspace switcher).
  admin: '/admin/dashboard',
  // The page people open from a loop round's e-mail: it should paint as fast as participation.
  'loop-answer': '/loop-answer/:token',
  // A check's results in the admin layout (shown, no target: its Lighthouse score is the target).
  results: '/admin/health-check/:healthCheckId/results',
};
const TARGET_KIB = { landing: 150, auth: 150, participant: 150, admin: 150, 'loop-answer': 150 };

/** Files (under dist) of each group's first load. */
export function firstLoadFiles(pattern) {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
  const preloads = JSON.parse(readFileSync(path.join(dist, '.vite/route-preloads.json'), 'utf8'));
  const byFile = new Map(Object.values(manifest).map((chunk) => [chunk.file, chunk]));
  const closure = (chunk, seen) => {
    if (!chunk || seen.has(chunk.file)) return;
    seen.add(chunk.file);
    for (const imported of chunk.imports ?? []) closure(manifest[imported], seen);
  };
  const files = new Set();
  closure(
    Object.values(manifest).find((chunk) => chunk.isEntry),
    files,
  );
  if (!preloads[pattern]) return null;
  for (const file of preloads[pattern]) closure(byFile.get(file) ?? { file }, files);
  return [...[...files].filter((file) => file.endsWith('.js')), ...messageFiles(pattern)];
}

/** The page's words in English: the part every page loads and its URL's part (apps/web/vite-messages.ts). */
function messageFiles(pattern) {
  const parts = JSON.parse(readFileSync(path.join(dist, '.vite/message-parts.json'), 'utf8'));
  return ['entry', parts.routes[pattern]].filter(Boolean).map((name) => `${parts.dir}/en/${name}.json`);
}

export async function benchBundle() {
  const gz = (file) => gzipSync(readFileSync(path.join(dist, file))).length;
  const results = [];
  for (const [group, pattern] of Object.entries(GROUPS)) {
    const files = firstLoadFiles(pattern);
    if (!files) {
      results.push(
        result({
          name: 'bundle',
          metric: `${group} initial JS (missing route: ${pattern})`,
          value: 0,
          target: { min: 1 },
        }),
      );
      continue;
    }
    const kib = files.reduce((sum, file) => sum + gz(file), 0) / 1024;
    console.log(`  ${group} (${pattern}): ${files.length} files, ${kib.toFixed(1)} KiB`);
    results.push(
      result({
        name: 'bundle',
        metric: `${group} initial JS gzipped`,
        unit: 'KiB',
        value: kib,
        target: TARGET_KIB[group] ? { max: TARGET_KIB[group] } : null,
      }),
    );
  }
  return results;
}
