// The server's entry: reads the configuration, secures the data folder, and opens the database while the rest of
// the server (server.ts, a file of its own in the build) loads: part of opening the embedded database is waiting
// (its WebAssembly compiling on V8's threads, its files being read), and the server's code loads meanwhile
// (decision 0015, addendum).
import { existsSync } from 'node:fs';
import { ConfigError, loadConfig } from './config';
import { openDatabase } from './db/client';
import { secureDataDir } from './db/data-dir';

async function main() {
  // Everything this process writes (the embedded database, the generated secret) is for its own user only.
  process.umask(0o077);
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // DATA_DIR holds the embedded database and the generated secret: 0700, files 0600 (db/data-dir.ts).
  if (!config.databaseUrl || existsSync(config.dataDir)) secureDataDir(config.dataDir);
  // Until the server listens, its event loop may have nothing to wait for but promises (the embedded database's
  // WebAssembly compiles on V8's threads). Node then blocks until every V8 background task has finished, the
  // optimising compiler's work on that WebAssembly included: half a second or more on two cores. This timer keeps
  // the loop alive through the start (bench/README, start-up).
  const holdOpen = setInterval(() => {}, 60_000);
  try {
    const [database, { startServer }] = await Promise.all([openDatabase(config), import('./server')]);
    await startServer(config, database);
  } finally {
    clearInterval(holdOpen);
  }
}

main().catch((error: unknown) => {
  console.error('Pulsecheck failed to start:', error);
  process.exit(1);
});
