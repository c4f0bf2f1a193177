import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { loadTestSettings } from '../config';
import { openPglite, runMigrations } from '../db/client';
import { seed } from '../db/seed';
import { createAdmin } from '../test/accounts';
import { contextOn, copyPostgresTemplate, testConfig } from '../test/harness';
import { addParticipants, createCheck, rateAll } from '../test/health-checks';
import { LOOP_TABLES, loopResults, loopWithClosedRound } from '../test/loops';
import type { Jar } from '../test/requests';
import {
  checkWithParticipants,
  autosaveCounter,
  autosaveLoad,
  createServerDatabase,
  httpRequest,
  runOps,
  serverBundleMissing,
  startServer,
  type ServerProcess,
} from '../test/server-process';
import { startSmtpCapture } from '../test/smtp-capture';

/**
 * The operations commands as an operator runs them (issue 18), on the built bundles: `npm run backup` while the
 * server answers autosaves, `npm run restore` refused into a running server's database and working into an empty
 * one, and `npm run db:move` from an embedded installation to PostgreSQL, after which signing in, sessions,
 * results, loops and pending e-mails work there.
 */
const kind = loadTestSettings().kind;
const missing = serverBundleMissing('the operations commands test');
const SECRET = `ops-${randomBytes(16).toString('hex')}`;
const cleanups: (() => Promise<unknown>)[] = [];
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const server of servers) if (!server.exited()) await server.kill();
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const scratchFolder = async () => {
  const folder = await mkdtemp(path.join(tmpdir(), 'pulsecheck-ops-'));
  cleanups.push(() => rm(folder, { recursive: true, force: true }));
  return folder;
};
const emptyPostgres = async () => {
  const copy = await copyPostgresTemplate('ops_', { empty: true });
  cleanups.push(() => copy.drop());
  return copy.url;
};
const start = async (options: Parameters<typeof startServer>[0]) => {
  const server = await startServer(options);
  servers.push(server);
  return server;
};

describe.skipIf(missing)(`npm run backup and restore with a running server (${kind})`, () => {
  it('backs up while autosaves keep being answered, refuses to restore under the running server, and restores into an empty database', async () => {
    const data = await createServerDatabase();
    cleanups.push(() => data.drop());
    const { check, participants, componentId } = await checkWithParticipants(data, {
      count: 10,
      secret: SECRET,
    });
    const server = await start({ dataDir: data.dataDir, databaseUrl: data.databaseUrl, authSecret: SECRET });
    const env = { DATA_DIR: data.dataDir, DATABASE_URL: data.databaseUrl ?? '' };
    const load = autosaveLoad({
      healthCheckId: check.healthCheckId,
      componentId,
      participants,
      target: () => server.url,
    });
    const folder = await scratchFolder();
    const file = path.join(folder, 'running.pcbackup');
    let backup;
    try {
      await load.waitForAnswers(50);
      const before = load.answered();
      backup = await runOps(['backup', file], env);
      // Answers went on during the backup and after it.
      await load.waitForAnswers(50);
      expect(load.answered()).toBeGreaterThan(before + 50);
    } finally {
      await load.stop();
    }
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toMatch(/^Backup written to .*running\.pcbackup: \d+ tables, \d+ rows\.$/m);
    expect(load.failures).toEqual([]);

    const refused = await runOps(['restore', file, '--force'], env);
    expect(refused.code).toBe(1);
    expect(refused.output).toMatch(
      kind === 'pglite'
        ? /A Pulsecheck server \(process \d+, http:\/\/127\.0\.0\.1:\d+\) is running on .*; stop it before you restore into it\. Nothing was changed\./
        : /Pulsecheck servers are connected to .* \(\d+ connections\); stop them before you restore\. Nothing was changed\./,
    );
    expect((await httpRequest(`${server.url}/api/health`)).status).toBe(200);
    expect(await server.stop()).toBe(0);

    // Into an empty database: a new folder, or a new PostgreSQL database.
    const target = {
      DATA_DIR: await scratchFolder(),
      DATABASE_URL: kind === 'postgres' ? await emptyPostgres() : '',
    };
    const restored = await runOps(['restore', file], target);
    expect(restored.code, restored.output).toBe(0);
    expect(restored.output).toMatch(/every table's row count and checksum verified/);
    const again = await runOps(['restore', file], target);
    expect(again.code).toBe(1);
    expect(again.output).toMatch(/nothing was restored \(pass --force to replace it\)/);

    const copy = await start({
      dataDir: target.DATA_DIR,
      databaseUrl: target.DATABASE_URL || undefined,
      authSecret: SECRET,
    });
    // The sessions and the autosaves of the snapshot are there: each participant's counter was saved.
    for (const { cookie } of participants) {
      const answer = await httpRequest(`${copy.url}/api/health-checks/${check.healthCheckId}/participation`, {
        headers: { cookie },
      });
      expect(answer.status, answer.body).toBe(200);
      const view = JSON.parse(answer.body) as {
        participant: { responses: { comments?: Record<string, string> } | null } | null;
      };
      expect(autosaveCounter(view.participant?.responses?.comments?.[componentId])).toBeGreaterThan(0);
    }
    expect(await copy.stop()).toBe(0);
  }, 120_000);
});

describe.skipIf(missing || kind !== 'postgres')('npm run db:move (embedded to PostgreSQL)', () => {
  it('copies every table, verifies it, prints DATABASE_URL, and sign-in, sessions, results, loops and pending e-mails work on PostgreSQL', async () => {
    // An embedded installation with an admin (password and session), a check with results and a pending e-mail.
    const dataDir = await scratchFolder();
    const embedded = openPglite(await PGlite.create(path.join(dataDir, 'pglite')));
    await runMigrations(embedded);
    await seed(embedded.db);
    const setup = await contextOn(embedded, { config: testConfig({ authSecret: SECRET }) });
    const admin = await createAdmin(setup);
    const check = await createCheck(setup, admin, { phase: 'summarize', componentCount: 3 });
    const people = await addParticipants(setup, check, 3, { status: 'completed' });
    await rateAll(setup, check, people, () => 'fire-warning');
    // A loop with a closed round (answers, counts, personal links, the ledger) and its pending jobs.
    const loop = await loopWithClosedRound(setup, admin);
    const loopBefore = await loopResults(setup, loop);
    const forgot = await setup.request('POST', '/api/password/forgot', { body: { email: admin.email } });
    expect(forgot.status).toBe(200);
    await setup.close();

    const unreachable = await runOps(['move', 'postgres://postgres@127.0.0.1:1/nowhere'], {
      DATA_DIR: dataDir,
    });
    expect(unreachable.code).toBe(1);
    expect(unreachable.output).toMatch(
      /^Cannot reach the PostgreSQL database postgres:\/\/postgres@127\.0\.0\.1:1\/nowhere: .+\. Nothing was written\.$/m,
    );

    const url = await emptyPostgres();
    const moved = await runOps(['move', url], { DATA_DIR: dataDir });
    expect(moved.code, moved.output).toBe(0);
    expect(moved.output).toContain(`\nDATABASE_URL=${url}\n`);
    for (const table of [
      'public.user',
      'public.session',
      'public.health_check_ratings',
      'public.mail_outbox',
      ...LOOP_TABLES,
    ])
      expect(moved.output).toMatch(
        new RegExp(`${table.replace('.', '\\.')} +[1-9]\\d* rows +checksum [0-9a-f]{32} ok`),
      );
    expect(
      readdirSync(path.join(dataDir, 'backups')).some((name) => name.startsWith('pulsecheck-before-move-')),
    ).toBe(true);

    const notEmpty = await runOps(['move', url], { DATA_DIR: dataDir });
    expect(notEmpty.code).toBe(1);
    expect(notEmpty.output).toMatch(/is not empty; move into an empty database\. Nothing was written\./);

    const smtp = await startSmtpCapture();
    cleanups.push(() => smtp.close());
    // DATA_DIR stays (its auth-secret is not used here: AUTH_SECRET is the installation's secret).
    const server = await start({
      dataDir,
      databaseUrl: url,
      authSecret: SECRET,
      env: { SMTP_URL: smtp.url },
    });
    const cookie = admin.jar.header().cookie ?? '';
    const me = await httpRequest(`${server.url}/api/me`, { headers: { cookie } });
    expect(me.status, me.body).toBe(200);
    const login = await httpRequest(`${server.url}/api/login`, {
      method: 'POST',
      body: { email: admin.email, password: admin.password },
    });
    expect(login.status, login.body).toBe(200);
    const results = await httpRequest(`${server.url}/api/health-checks/${check.healthCheckId}/results`, {
      headers: { cookie },
    });
    expect(results.status, results.body).toBe(200);
    const figures = JSON.parse(results.body) as { components: { fireWarning: number }[] };
    expect(figures.components.map((c) => c.fireWarning)).toEqual([3, 3, 3]);
    // The loop's results and insights read the same on PostgreSQL.
    const overHttp = {
      call: (jar: Jar, method: string, route: string) =>
        fetch(`${server.url}${route}`, { method, headers: jar.header() }),
    };
    expect(await loopResults(overHttp, loop)).toEqual(loopBefore);
    // The reset e-mail that was pending in the embedded outbox goes out from PostgreSQL.
    const sent = await smtp.waitFor(1, (mail) => mail.to.includes(admin.email.toLowerCase()));
    expect(sent).toHaveLength(1);
    expect(await server.stop()).toBe(0);
    expect(existsSync(path.join(dataDir, 'server.json'))).toBe(false);
  }, 120_000);
});
