// `npm run backup`, `npm run restore`, `npm run db:move`: builds if needed, then runs apps/server/dist/ops.js
// from the project root (where `npm start` runs, so DATA_DIR means the same folder).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { buildIfStale, root } from './build-if-stale.mjs';

buildIfStale();
const run = spawnSync(
  process.execPath,
  ['--enable-source-maps', path.join(root, 'apps/server/dist/ops.js'), ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit', env: process.env },
);
process.exit(run.status ?? 1);
