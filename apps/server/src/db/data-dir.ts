import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';

export const DATA_DIR_MODE = 0o700;
export const DATA_FILE_MODE = 0o600;

/**
 * Makes DATA_DIR private to the server's user: the folder and every folder in it 0700, every file 0600
 * (symbolic links are left alone, never followed). The embedded database writes some files with modes of its
 * own whatever the umask (PGlite's file system chmods 0666 files when it unpacks a new database, 0644 ones
 * for files opened with fopen), so main.ts runs this after opening and migrating, and again after closing; in
 * between, the 0700 folder keeps other users from reaching anything inside.
 */
export function secureDataDir(dataDir: string): void {
  mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE });
  const visit = (entry: string) => {
    const info = lstatSync(entry, { throwIfNoEntry: false });
    if (!info || info.isSymbolicLink()) return;
    if (info.isDirectory()) {
      if ((info.mode & 0o777) !== DATA_DIR_MODE) goneIsFine(() => chmodSync(entry, DATA_DIR_MODE));
      for (const name of goneIsFine(() => readdirSync(entry)) ?? []) visit(path.join(entry, name));
    } else if (info.isFile() && (info.mode & 0o777) !== DATA_FILE_MODE) {
      goneIsFine(() => chmodSync(entry, DATA_FILE_MODE));
    }
  };
  visit(dataDir);
}

/** Runs `action`; a file the running database removed in the meantime is not an error. */
function goneIsFine<T>(action: () => T): T | undefined {
  try {
    return action();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
