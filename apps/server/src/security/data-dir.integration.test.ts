import { chmodSync, lstatSync, readdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadTestSettings } from '../config';
import { serverBundleMissing, startServer, useServerDatabase } from '../test/server-process';

/**
 * Trust item 10, on the built server: DATA_DIR (the embedded database and the generated secret) is private to
 * the server's user, and a kept secret too short to sign sessions safely stops start-up.
 */
const kind = loadTestSettings().kind;
const missing = serverBundleMissing('DATA_DIR tests');

/** Every entry under `dir` (itself included) whose mode is not 0700 for a folder or 0600 for a file. */
function notPrivate(dir: string): string[] {
  const wrong: string[] = [];
  const visit = (entry: string) => {
    const info = lstatSync(entry);
    const mode = info.mode & 0o777;
    if (info.isDirectory()) {
      if (mode !== 0o700) wrong.push(`${path.relative(dir, entry) || '.'} ${mode.toString(8)}`);
      for (const name of readdirSync(entry)) visit(path.join(entry, name));
    } else if (info.isFile() && mode !== 0o600) {
      wrong.push(`${path.relative(dir, entry)} ${mode.toString(8)}`);
    }
  };
  visit(dir);
  return wrong;
}

describe.skipIf(missing)(`DATA_DIR permissions (${kind})`, () => {
  const database = useServerDatabase();

  it('makes DATA_DIR 0700 and every file in it 0600, running and after a stop', async () => {
    // As an older version or a careless copy left it: open to everyone, with the generated secret in it.
    chmodSync(database.dataDir, 0o777);
    const secretFile = path.join(database.dataDir, 'auth-secret');
    writeFileSync(secretFile, 'kept-secret-kept-secret-kept-secret-0123456789');
    chmodSync(secretFile, 0o666);
    expect(notPrivate(database.dataDir).length).toBeGreaterThan(0);

    // No AUTH_SECRET: the server reads the one kept in DATA_DIR.
    const server = await startServer({
      dataDir: database.dataDir,
      databaseUrl: database.databaseUrl,
      authSecret: '',
    });
    try {
      expect(notPrivate(database.dataDir)).toEqual([]);
      if (kind === 'pglite') {
        // The embedded database's own files are there, and private too.
        expect(readdirSync(path.join(database.dataDir, 'pglite')).length).toBeGreaterThan(5);
      }
    } finally {
      expect(await server.stop()).toBe(0);
    }
    expect(notPrivate(database.dataDir)).toEqual([]);
  });

  it('creates a new DATA_DIR (with a new embedded database on PGlite) private from the first start', async () => {
    const parent = await mkdtemp(path.join(tmpdir(), 'pulsecheck-fresh-'));
    const dataDir = path.join(parent, 'data');
    try {
      const server = await startServer({ dataDir, databaseUrl: database.databaseUrl, authSecret: '' });
      try {
        expect(notPrivate(dataDir)).toEqual([]);
      } finally {
        expect(await server.stop()).toBe(0);
      }
      expect(notPrivate(dataDir)).toEqual([]);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });

  it('refuses to start with a kept AUTH_SECRET shorter than 32 characters, naming it', async () => {
    const parent = await mkdtemp(path.join(tmpdir(), 'pulsecheck-short-'));
    writeFileSync(path.join(parent, 'auth-secret'), 'only-20-characters!!');
    try {
      const start = startServer({
        dataDir: parent,
        databaseUrl: database.databaseUrl,
        authSecret: '',
        startTimeoutMs: 20_000,
      });
      // A server that starts anyway is stopped before the test fails, so no process outlives it.
      const started = await start.then(
        (server) => server.stop().then(() => 'started'),
        (error: unknown) => String(error),
      );
      expect(started).toMatch(/exited with 1[\s\S]*AUTH_SECRET[\s\S]*auth-secret/);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});
