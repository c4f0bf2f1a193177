// For the benchmarks that time an endpoint against its SQL in one process: the app built here on a fresh database
// (embedded, or the PostgreSQL database `databaseUrl`), migrated and seeded, with an admin signed in (no
// organisation yet: each benchmark makes the one it needs).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createApp } from '../apps/server/src/app';
import { createAuth } from '../apps/server/src/auth/auth';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase, runMigrations } from '../apps/server/src/db/client';
import { createDatabaseHealth } from '../apps/server/src/db/health';
import { seed } from '../apps/server/src/db/seed';
import { createLogger } from '../apps/server/src/logger';
import { createMailer } from '../apps/server/src/mail/mailer';
import { createRealtime } from '../apps/server/src/realtime/bus';

export async function inProcessApp(label: string, databaseUrl?: string, env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `pc-bench-${label}-`));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...env,
  });
  const database = await openDatabase(config);
  await runMigrations(database, config.databaseUrl);
  await seed(database.db);
  const db = database.db;
  const logger = createLogger('silent');
  const mailer = createMailer(db);
  const auth = createAuth({ config, db, mailer });
  const realtime = createRealtime(database, logger);
  const health = createDatabaseHealth({ ping: database.ping, logger });
  const app = createApp({ config, database, db, health, logger, auth, mailer, realtime });

  await auth.api.signUpEmail({
    body: { name: 'Bench Admin', email: 'bench@example.com', password: 'bench-password-1' },
  });
  await db.execute(sql`update "user" set email_verified = true, setup_status = 'completed'`);
  const signIn = await auth.api.signInEmail({
    body: { email: 'bench@example.com', password: 'bench-password-1' },
    returnHeaders: true,
  });
  /** The session's cookies as `name=value` pairs. */
  const cookies = signIn.headers.getSetCookie().map((c) => c.split(';')[0]!);
  return {
    db,
    app,
    cookies,
    cookie: cookies.join('; '),
    adminId: signIn.response.user.id,
    close: async () => {
      health.stop();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The median times of `runs`, their calls interleaved (a, b, …, a, b, …) `rounds` times after one call each to warm
 * up, so that other work on the machine weighs on each alike.
 */
export async function medians(runs: (() => Promise<unknown>)[], rounds = 30) {
  for (const run of runs) await run();
  const times = runs.map(() => [] as number[]);
  for (let i = 0; i < rounds; i++)
    for (const [index, run] of runs.entries()) {
      const start = performance.now();
      await run();
      times[index]!.push(performance.now() - start);
    }
  return times.map((list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)]!);
}
