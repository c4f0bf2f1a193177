import { auditRetentionJobHandlers, scheduleAuditRetention } from './audit/retention';
import { randomBytes } from 'node:crypto';
import { Server as HttpServer } from 'node:http';
import { serve } from '@hono/node-server';
import { createApp, startingApp } from './app';
import type { Config } from './config';
import { runMigrations, type Database } from './db/client';
import { createDatabaseHealth, faultOf } from './db/health';
import { secureDataDir } from './db/data-dir';
import { startEmbeddedMaintenance } from './db/maintenance';
import { seed } from './db/seed';
import { createAuth } from './auth/auth';
import { notificationJobHandlers, startNotificationSchedule } from './features/account/notification-jobs';
import { createLogger } from './logger';
import { startJobWorker, type JobHandler } from './jobs/queue';
import { createMailer } from './mail/mailer';
import { createSender, startOutboxWorker } from './mail/outbox';
import { mailRetentionJobHandlers, scheduleMailRetention } from './mail/retention';
import { createRealtime } from './realtime/bus';
import { FOLLOW_UP_JOB, sendFollowUp } from './features/results/service';
import { loopJobHandlers } from './features/loops/rounds';
import { ssoJobHandlers, startSsoDomainSchedule } from './features/sso/domains';
import { startAutomaticBackups } from './ops/automatic';
import { startWebhookWorker } from './webhooks/delivery';
import { startTrackerPolls, trackerJobHandlers } from './trackers/sync';
import { removeServerFile, writeServerFile } from './ops/server-file';

/** How long an idle kept-alive connection stays open (see where it is set). */
const KEEP_ALIVE_MS = 65_000;

/**
 * The server on an open database (main.ts opened it while this module loaded): listens at once (/api/health answers
 * and everything else says it is starting), runs the migrations and the seed, then starts the workers and the app.
 */
export async function startServer(config: Config, database: Database) {
  const logger = createLogger(config.logLevel);
  const embedded = !config.databaseUrl;
  // Once in several runs of the fault tests, a query of postgres.js whose connection the stopping database closed
  // was rejected with nobody listening, and Node ends the process for that. A lost connection is no reason to
  // stop serving (the database health answers 503 and recovers): such a rejection is logged; any other still
  // ends the process.
  process.on('unhandledRejection', (reason) => {
    if (faultOf(reason) !== 'unreachable') throw reason;
    logger.warn({ err: reason }, 'a database query failed with nobody waiting for it (connection lost)');
  });
  // On the embedded database only this process may open it: `npm run backup` asks it, with this token.
  const backupToken = embedded ? randomBytes(32).toString('base64url') : undefined;
  // Listening from the start: /api/health answers (liveness) and /api/ready says 503 until the migrations, which
  // may wait for another process's, have run; every other request gets 503 meanwhile.
  let fetch = startingApp().fetch;
  // HOST is a deliberate choice: 127.0.0.1 by default (this machine only), 0.0.0.0 or :: for other machines.
  const server = serve(
    { fetch: (request, env) => fetch(request, env), port: config.port, hostname: config.host },
    (info) => {
      logger.info({ host: config.host, port: info.port, url: config.appUrl }, 'Pulsecheck is listening');
      if (backupToken) {
        const local = /^(0\.0\.0\.0|::|\[?::\]?)$/.test(config.host) ? '127.0.0.1' : config.host;
        const host = local.includes(':') ? `[${local}]` : local;
        writeServerFile(config.dataDir, { url: `http://${host}:${info.port}`, token: backupToken });
      }
    },
  );
  // An idle kept-alive connection stays open 65 s (Node's default is 5): longer than a load balancer's idle timeout
  // (60 s on common ones) and than a busy client leaves one unused, so nobody sends a request on a connection the
  // server is closing that very moment and gets it reset (bench `participants`: ECONNRESET at 2,000 participants).
  if (server instanceof HttpServer) {
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    server.headersTimeout = KEEP_ALIVE_MS + 1000;
  }
  await runMigrations(database, config.databaseUrl);
  await seed(database.db);
  if (embedded) secureDataDir(config.dataDir);
  logger.info({ database: database.kind }, 'database ready');

  const db = database.db;
  // Whether the database serves: requests fail fast while it does not, and background work waits for it.
  const health = createDatabaseHealth({
    ping: database.ping,
    logger,
    storageDir: embedded ? config.dataDir : undefined,
  });
  const outbox = startOutboxWorker({
    db,
    logger,
    health,
    send: createSender({ smtpUrl: config.smtpUrl, from: config.mailFrom, logger }),
  });
  const mailer = createMailer(db, { kick: outbox.kick, disabled: config.mailDisabled });
  if (config.mailDisabled) {
    logger.warn('MAIL_DISABLED=true: no e-mail is sent; each is recorded as failed and the screens say so');
  }
  const auth = createAuth({ config, db, mailer });
  const realtime = createRealtime(database, logger);
  await realtime.start();
  const deps = { config, database, db, health, logger, auth, mailer, realtime, backupToken };
  // Scheduled work by kind; each feature adds the handlers of its jobs here.
  const jobHandlers: Record<string, JobHandler> = {
    ...notificationJobHandlers(deps),
    [FOLLOW_UP_JOB]: (payload) => sendFollowUp(deps, payload),
    ...loopJobHandlers(deps),
    ...mailRetentionJobHandlers(deps),
    ...ssoJobHandlers(deps),
    ...trackerJobHandlers(deps),
    ...auditRetentionJobHandlers(deps),
  };
  await startNotificationSchedule(db);
  await scheduleMailRetention(db);
  await startSsoDomainSchedule(db);
  await startTrackerPolls(db);
  await scheduleAuditRetention(db);
  const jobs = startJobWorker({ db, logger, health, handlers: jobHandlers });
  const webhooks = startWebhookWorker({ db, logger, health, mailer, config });
  if (config.allowLoopbackWebhooks)
    logger.warn(
      'WEBHOOKS_ALLOW_LOOPBACK=true: webhooks may call this machine over http (tests and local trials)',
    );
  const maintenance = startEmbeddedMaintenance(database, logger, health);
  const backups = startAutomaticBackups(database, {
    dataDir: config.dataDir,
    intervalMs: config.backupIntervalMs,
    keep: config.backupKeep,
    logger,
    health,
  });
  fetch = createApp(deps).fetch;
  logger.info('ready');

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    outbox.stop();
    jobs.stop();
    webhooks.stop();
    health.stop();
    // Unlisten before the pool closes, or the pending UNLISTEN fails on a destroyed connection.
    const unlistened = realtime.stop().catch((error: unknown) => {
      logger.warn({ err: error }, 'realtime: unlisten failed');
    });
    server.close(() => {
      void Promise.all([unlistened, maintenance.stop(), backups.stop()]).then(() =>
        database
          .close()
          // Files the embedded database wrote with modes of its own while running.
          .then(() => {
            if (!embedded) return;
            removeServerFile(config.dataDir);
            secureDataDir(config.dataDir);
          })
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
