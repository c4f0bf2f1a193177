import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The server package root, found from this file whether it runs from src/ or the bundled dist/. */
function serverRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'drizzle.config.ts'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('Cannot find the server package root');
    dir = parent;
  }
  return dir;
}

export const serverDir = serverRoot();
export const migrationsFolder = path.join(serverDir, 'src/db/migrations');
export const webDistDir = path.join(serverDir, '../web/dist');
