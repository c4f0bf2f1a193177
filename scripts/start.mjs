// `npm start`: builds the app when its sources are newer than the last build, then serves it.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { serverNodeFlags } from '../apps/server/node-flags.mjs';
import { buildIfStale, root } from './build-if-stale.mjs';

buildIfStale();
const server = spawnSync(
  process.execPath,
  [...serverNodeFlags(), path.join(root, 'apps/server/dist/main.js')],
  {
    cwd: root,
    stdio: 'inherit',
    // No NODE_ENV of our own: a local start generates its secret into DATA_DIR and lists e-mails at /dev/mail;
    // deployments set NODE_ENV=production (docs/operations.md).
    env: process.env,
  },
);
process.exit(server.status ?? 0);
