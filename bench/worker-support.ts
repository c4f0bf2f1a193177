// What the in-process benchmark workers share (results-worker.ts, loop-insights-worker.ts): the app on a fresh,
// migrated and seeded database with a signed-in admin, and the median of repeated runs.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createApp } from '../apps/server/src/app';
import { createAuth } from '../apps/server/src/auth/auth';
import { loadConfig } from '../apps/server/src/config';
import { openDatabase, runMigrations } from '../apps/server/src/db/client';
import { seed } from '../apps/server/src/db/seed';
import { createLogger } from '../apps/server/src/logger';
import { createMailer } from '../apps/server/src/mail/mailer';
import { createRealtime } from '../apps/server/src/realtime/bus';

/** The app in this process on a fresh database (PostgreSQL at `databaseUrl`, else embedded), and an admin's cookie. */
export async function benchApp(databaseUrl: string | undefined, label: string) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `pc-bench-${label}-`));
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const database = await openDatabase(config);
  await runMigrations(database, config.databaseUrl);
  await seed(database.db);
  const db = database.db;
  const logger = createLogger('silent');
  const mailer = createMailer(db);
  const auth = createAuth({ config, db, mailer });
  const realtime = createRealtime(database, logger);
  const app = createApp({ config, database, db, logger, auth, mailer, realtime });

  await auth.api.signUpEmail({
    body: { name: 'Bench Admin', email: 'bench@example.com', password: 'bench-password-1' },
  });
  await db.execute(sql`update "user" set email_verified = true, setup_status = 'completed'`);
  const signIn = await auth.api.signInEmail({
    body: { email: 'bench@example.com', password: 'bench-password-1' },
    returnHeaders: true,
  });
  const cookie = signIn.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return {
    db,
    app,
    cookie,
    adminId: signIn.response.user.id,
    close: async () => {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The median time of `runs` calls, after one to warm up. */
export async function median(run: () => Promise<unknown>, runs = 30) {
  await run();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/**
 * The median times of `a` and `b`, their runs interleaved (a, b, a, b, …), so that a change of the machine's load
 * during the measurement weighs on both alike.
 */
export async function pairedMedians(a: () => Promise<unknown>, b: () => Promise<unknown>, runs = 30) {
  await a();
  await b();
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < runs; i++) {
    for (const [index, run] of [a, b].entries()) {
      const start = performance.now();
      await run();
      times[index]!.push(performance.now() - start);
    }
  }
  const median = (list: number[]) => list.sort((x, y) => x - y)[Math.floor(list.length / 2)]!;
  return [median(times[0]), median(times[1])] as const;
}
