// `npm start`: builds the app when its sources are newer than the last build, then serves it.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from '../apps/server/node-flags.mjs';

const root = path.resolve(import.meta.dirname, '..');
const outputs = ['apps/server/dist/main.js', 'apps/web/dist/index.html'].map((p) => path.join(root, p));
const sources = ['apps/server/src', 'apps/web/src', 'apps/web/index.html', 'packages/shared/src'].map((p) =>
  path.join(root, p),
);

function newest(entry) {
  const info = statSync(entry);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(0, ...readdirSync(entry).map((name) => newest(path.join(entry, name))));
}

const stale =
  !outputs.every(existsSync) ||
  Math.max(...sources.filter(existsSync).map(newest)) > Math.min(...outputs.map((p) => statSync(p).mtimeMs));
if (stale) {
  console.log('Building Pulsecheck...');
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawnSync(
  process.execPath,
  [...SERVER_NODE_FLAGS, path.join(root, 'apps/server/dist/main.js')],
  {
    cwd: root,
    stdio: 'inherit',
    // No NODE_ENV of our own: a local start generates its secret into DATA_DIR and lists e-mails at /dev/mail;
    // deployments set NODE_ENV=production (docs/operations.md).
    env: process.env,
  },
);
process.exit(server.status ?? 0);
