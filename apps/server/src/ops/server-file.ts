import { timingSafeEqual } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * `DATA_DIR/server.json`: written by a server running on the embedded database while it runs (0600, in the 0700
 * DATA_DIR), so `npm run backup` can ask it for a snapshot (only the server's own user can read the token) and
 * `npm run restore` and `npm run db:move` can refuse to touch a database a server has open.
 */
export type ServerFile = { pid: number; url: string; token: string };

const fileIn = (dataDir: string) => path.join(dataDir, 'server.json');

export function writeServerFile(dataDir: string, server: { url: string; token: string }): ServerFile {
  const info: ServerFile = { pid: process.pid, ...server };
  writeFileSync(fileIn(dataDir), JSON.stringify(info), { mode: 0o600 });
  return info;
}

export function removeServerFile(dataDir: string): void {
  rmSync(fileIn(dataDir), { force: true });
}

/** The server running on `dataDir`, or undefined (no file, or one left by a process that is gone). */
export function runningServer(dataDir: string): ServerFile | undefined {
  let info: ServerFile;
  try {
    info = JSON.parse(readFileSync(fileIn(dataDir), 'utf8')) as ServerFile;
  } catch {
    return undefined;
  }
  try {
    process.kill(info.pid, 0);
    return info;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? info : undefined;
  }
}

/** Whether `header` is `Bearer <token>`, compared in constant time. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.replace(/^Bearer /, '') ?? '');
  const expected = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
