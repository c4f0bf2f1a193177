// Builds the app when its sources are newer than the last build (`npm start` and the operations commands).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '..');
const outputs = ['apps/server/dist/main.js', 'apps/server/dist/ops.js', 'apps/web/dist/index.html'].map((p) =>
  path.join(root, p),
);
const sources = ['apps/server/src', 'apps/web/src', 'apps/web/index.html', 'packages/shared/src'].map((p) =>
  path.join(root, p),
);

function newest(entry) {
  const info = statSync(entry);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(0, ...readdirSync(entry).map((name) => newest(path.join(entry, name))));
}

export function buildIfStale() {
  const stale =
    !outputs.every(existsSync) ||
    Math.max(...sources.filter(existsSync).map(newest)) >
      Math.min(...outputs.map((p) => statSync(p).mtimeMs));
  if (!stale) return;
  console.log('Building Pulsecheck...');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
