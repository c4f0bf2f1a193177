import { existsSync } from 'node:fs';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { ConfigError, loadConfig } from './config';
import { openDatabase, runMigrations } from './db/client';
import { secureDataDir } from './db/data-dir';
import { startEmbeddedMaintenance } from './db/maintenance';
import { seed } from './db/seed';
import { createAuth } from './auth/auth';
import { notificationJobHandlers, startNotificationSchedule } from './features/account/notification-jobs';
import { createLogger } from './logger';
import { startJobWorker, type JobHandler } from './jobs/queue';
import { createMailer } from './mail/mailer';
import { createSender, startOutboxWorker } from './mail/outbox';
import { createRealtime } from './realtime/bus';
import { FOLLOW_UP_JOB, sendFollowUp } from './features/results/service';
import { loopJobHandlers } from './features/loops/rounds';

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
  const logger = createLogger(config.logLevel);
  // DATA_DIR holds the embedded database and the generated secret: 0700, files 0600 (db/data-dir.ts).
  const embedded = !config.databaseUrl;
  if (embedded || existsSync(config.dataDir)) secureDataDir(config.dataDir);
  const database = await openDatabase(config);
  await runMigrations(database, config.databaseUrl);
  await seed(database.db);
  if (embedded) secureDataDir(config.dataDir);
  logger.info({ database: database.kind }, 'database ready');

  const db = database.db;
  const outbox = startOutboxWorker({
    db,
    logger,
    send: createSender({ smtpUrl: config.smtpUrl, from: config.mailFrom, logger }),
  });
  const mailer = createMailer(db, { kick: outbox.kick, disabled: config.mailDisabled });
  if (config.mailDisabled) {
    logger.warn('MAIL_DISABLED=true: no e-mail is sent; each is recorded as failed and the screens say so');
  }
  const auth = createAuth({ config, db, mailer });
  const realtime = createRealtime(database, logger);
  await realtime.start();
  const deps = { config, database, db, logger, auth, mailer, realtime };
  // Scheduled work by kind; each feature adds the handlers of its jobs here.
  const jobHandlers: Record<string, JobHandler> = {
    ...notificationJobHandlers(deps),
    [FOLLOW_UP_JOB]: (payload) => sendFollowUp(deps, payload),
    ...loopJobHandlers(deps),
  };
  await startNotificationSchedule(db);
  const jobs = startJobWorker({ db, logger, handlers: jobHandlers });
  const maintenance = startEmbeddedMaintenance(database, logger);
  const app = createApp(deps);
  // HOST is a deliberate choice: 127.0.0.1 by default (this machine only), 0.0.0.0 or :: for other machines.
  const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
    logger.info({ host: config.host, port: info.port, url: config.appUrl }, 'Pulsecheck is listening');
  });

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    outbox.stop();
    jobs.stop();
    // Unlisten before the pool closes, or the pending UNLISTEN fails on a destroyed connection.
    const unlistened = realtime.stop().catch((error: unknown) => {
      logger.warn({ err: error }, 'realtime: unlisten failed');
    });
    server.close(() => {
      void Promise.all([unlistened, maintenance.stop()]).then(() =>
        database
          .close()
          // Files the embedded database wrote with modes of its own while running.
          .then(() => embedded && secureDataDir(config.dataDir))
          .then(() => process.exit(0))
          .catch((error: unknown) => {
            logger.error({ err: error }, 'closing the database failed');
            process.exit(1);
          }),
      );
    });
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));
}

main().catch((error: unknown) => {
  console.error('Pulsecheck failed to start:', error);
  process.exit(1);
});
