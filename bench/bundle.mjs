// bundle: gzipped JavaScript that each route group loads first, read from the production build's manifest.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { result } from './report.mjs';

const dist = path.join(import.meta.dirname, '../apps/web/dist');

/** Route groups and the screen module that opens each one. */
const GROUPS = {
  landing: 'src/features/landing/landing-page.tsx',
  auth: 'src/features/auth/login-page.tsx',
  participant: 'src/features/participation/participation-page.tsx',
  admin: 'src/features/dashboard/dashboard-page.tsx',
  // The page people open from a loop round's e-mail: it should paint as fast as participation.
  'loop-answer': 'src/features/loops/answer-page.tsx',
};
const TARGET_KIB = { landing: 150, participant: 150, 'loop-answer': 150 };

export async function benchBundle() {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
  const gz = (file) => gzipSync(readFileSync(path.join(dist, file))).length;
  const closure = (key, seen) => {
    const chunk = manifest[key];
    if (!chunk || seen.has(chunk.file)) return;
    seen.add(chunk.file);
    for (const imported of chunk.imports ?? []) closure(imported, seen);
  };
  const results = [];
  for (const [group, module] of Object.entries(GROUPS)) {
    const key = Object.keys(manifest).find((k) => k.endsWith(module));
    if (!key) {
      results.push(
        result({
          name: 'bundle',
          metric: `${group} initial JS (missing: ${module})`,
          value: 0,
          target: { min: 1 },
        }),
      );
      continue;
    }
    const files = new Set();
    closure(
      Object.keys(manifest).find((k) => manifest[k] === entry),
      files,
    );
    closure(key, files);
    const kib = [...files].filter((f) => f.endsWith('.js')).reduce((sum, f) => sum + gz(f), 0) / 1024;
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
