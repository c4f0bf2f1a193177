import { LOOP_CATALOGUE } from '@pulsecheck/shared/loops/catalogue';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { topics, LIVE_EVENT } from '@pulsecheck/shared/realtime/topics';
import { sql } from 'drizzle-orm';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTestSettings } from '../config';
import { GLOBAL_TEMPLATE_ID } from '../db/catalogue';
import { openPostgres, queryRows, type Database } from '../db/client';
import { migrationsFolder } from '../db/paths';
import { createAdmin, signedInUser } from '../test/accounts';
import { contextOn, copyPostgresTemplate, testConfig, type TestContext } from '../test/harness';
import { addParticipants, createCheck } from '../test/health-checks';
import {
  addSignedInParticipants,
  autosaveCounter,
  autosaveLoad,
  httpRequest,
  openEventStream,
  serverBundleMissing,
  startServer,
  type ServerProcess,
} from '../test/server-process';
import { startSmtpCapture } from '../test/smtp-capture';

/**
 * Several processes on one PostgreSQL database (issue 18, docs/operations.md "Scale"): three built server
 * processes started at once on one empty database, behind nothing but their ports, with one AUTH_SECRET. The
 * PostgreSQL project runs it (`npm test` with TEST_DATABASE_URL, as CI does); it needs a server database.
 */
const kind = loadTestSettings().kind;
const missing = kind !== 'postgres' || serverBundleMissing('the several-processes test');
const SECRET = `several-${randomBytes(16).toString('hex')}`;
const NEW_ADDRESS = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;

describe.skipIf(missing)('three server processes on one PostgreSQL database', () => {
  let servers: ServerProcess[] = [];
  let database: Database;
  let setup: TestContext;
  let smtp: Awaited<ReturnType<typeof startSmtpCapture>>;
  const cleanups: (() => Promise<unknown>)[] = [];
  const pick = () => servers[Math.floor(Math.random() * servers.length)] as ServerProcess;

  beforeAll(async () => {
    const copy = await copyPostgresTemplate('several_', { empty: true });
    cleanups.push(() => copy.drop());
    smtp = await startSmtpCapture();
    cleanups.push(() => smtp.close());
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pulsecheck-several-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    // All three at once on the empty database: they race for the migrations and the seed.
    servers = await Promise.all(
      [1, 2, 3].map(() =>
        startServer({
          dataDir,
          databaseUrl: copy.url,
          authSecret: SECRET,
          startTimeoutMs: 90_000,
          // One proxy in front (the test writes X-Forwarded-For), and the real rate limits.
          env: { SMTP_URL: smtp.url, TRUST_PROXY: '1', RATE_LIMIT_MULTIPLIER: '1' },
        }),
      ),
    );
    database = openPostgres(copy.url, { max: 2, applicationName: 'pulsecheck test' });
    setup = await contextOn(database, { config: testConfig({ authSecret: SECRET }) });
    cleanups.push(() => setup.close());
  }, 120_000);

  afterAll(async () => {
    for (const server of servers) if (!server.exited()) await server.kill();
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  it('ran the migrations and the seed once (no duplicate catalogue or schedule rows)', async () => {
    const [counts] = await queryRows<{
      migrations: number;
      globals: number;
      components: number;
      keys: number;
    }>(
      database.db,
      sql`select (select count(*)::int from drizzle.__drizzle_migrations) as migrations,
                 (select count(*)::int from templates where is_global) as globals,
                 (select count(*)::int from health_check_components where template_id = ${GLOBAL_TEMPLATE_ID}) as components,
                 (select count(*)::int from (select unique_key from jobs where unique_key is not null
                   group by unique_key having count(*) > 1) duplicates) as keys`,
    );
    expect(counts).toEqual({
      migrations: readMigrationFiles({ migrationsFolder }).length,
      // The health-check catalogue and the loop catalogue's templates.
      globals: 1 + LOOP_CATALOGUE.length,
      components: 29,
      keys: 0,
    });
  });

  it('accepts a session made on one process on the others, and a logout on one ends it everywhere', async () => {
    const person = await signedInUser(setup);
    const [a, b, c] = servers as [ServerProcess, ServerProcess, ServerProcess];
    const login = await httpRequest(`${a.url}/api/login`, {
      method: 'POST',
      headers: { 'x-forwarded-for': NEW_ADDRESS() },
      body: { email: person.email, password: 'correct-horse-battery' },
    });
    expect(login.status, login.body).toBe(200);
    const cookie = [login.headers['set-cookie'] ?? []]
      .flat()
      .map((header) => header.split(';')[0])
      .join('; ');
    for (const server of servers)
      expect((await httpRequest(`${server.url}/api/me`, { headers: { cookie } })).status).toBe(200);
    expect((await httpRequest(`${b.url}/api/logout`, { method: 'POST', headers: { cookie } })).status).toBe(
      200,
    );
    for (const server of [a, c])
      expect((await httpRequest(`${server.url}/api/me`, { headers: { cookie } })).status).toBe(401);
  });

  it('delivers a live event caused on one process to a stream open on another within 2 s', async () => {
    const admin = await createAdmin(setup);
    const check = await createCheck(setup, admin);
    await addParticipants(setup, check, 3, { status: 'completed' });
    const cookie = admin.jar.header().cookie ?? '';
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const stream = await openEventStream(b.url, {
      cookie,
      topics: [topics.healthCheck(check.healthCheckId)],
    });
    try {
      await stream.waitFor(LIVE_EVENT.ready);
      const caused = Date.now();
      const moved = await httpRequest(`${a.url}/api/health-checks/${check.healthCheckId}/phase`, {
        method: 'POST',
        headers: { cookie },
        body: { to: 'vote' },
      });
      expect(moved.status, moved.body).toBe(200);
      const event = await stream.waitFor(LIVE_EVENT.healthCheckChanged, 2_000);
      expect(event.at - caused).toBeLessThan(2_000);
    } finally {
      stream.close();
    }
  });

  it('sends N e-mails caused through random processes exactly once each', async () => {
    const N = 12;
    const people = [];
    for (let i = 0; i < N; i++) people.push(await signedInUser(setup));
    await Promise.all(
      people.map(async (person) => {
        const answer = await httpRequest(`${pick().url}/api/password/forgot`, {
          method: 'POST',
          headers: { 'x-forwarded-for': NEW_ADDRESS() },
          body: { email: person.email },
        });
        expect(answer.status, answer.body).toBe(200);
      }),
    );
    const addresses = new Set(people.map((person) => person.email.toLowerCase()));
    const isReset = (mail: { to: string[] }) => mail.to.some((to) => addresses.has(to));
    await smtp.waitFor(N, isReset);
    // Time for a duplicate to show up, had two processes claimed the same e-mail.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const received = smtp.mails.filter(isReset).flatMap((mail) => mail.to);
    expect(received.sort()).toEqual([...addresses].sort());
  });

  it('counts rate limits across processes', async () => {
    const address = NEW_ADDRESS();
    const attempt = (server: ServerProcess, i: number) =>
      httpRequest(`${server.url}/api/login`, {
        method: 'POST',
        headers: { 'x-forwarded-for': address },
        body: {
          email: `nobody-${i}-${randomBytes(3).toString('hex')}@example.com`,
          password: 'wrong-password',
        },
      });
    // The sign-in limit is 10 per address in 5 minutes: ten failures spread over the three processes...
    for (let i = 0; i < 10; i++) expect((await attempt(servers[i % 3] as ServerProcess, i)).status).toBe(401);
    // ...and the eleventh is refused by any of them.
    for (const server of servers) expect((await attempt(server, 99)).status).toBe(429);
  });

  it('answers /metrics to this machine without a token', async () => {
    const answer = await httpRequest(`${pick().url}/metrics`);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('pulsecheck_http_requests_total');
  });

  it('keeps an idle kept-alive connection open longer than a load balancer does (65 s, not 5 as by default)', async () => {
    const answer = await httpRequest(`${pick().url}/api/health`, { headers: { connection: 'keep-alive' } });
    expect(answer.status).toBe(200);
    expect(answer.headers['keep-alive']).toBe('timeout=65');
  });

  it('loses no acknowledged autosave when one process is killed with SIGKILL, and the others keep answering', async () => {
    const admin = await createAdmin(setup);
    const check = await createCheck(setup, admin);
    const participants = await addSignedInParticipants(setup, {
      healthCheckId: check.healthCheckId,
      workspaceId: admin.workspaceId,
      count: 30,
      secret: SECRET,
    });
    const componentId = check.componentIds[0] as string;
    const [a, b, c] = servers as [ServerProcess, ServerProcess, ServerProcess];
    let killed = false;
    const load = autosaveLoad({
      healthCheckId: check.healthCheckId,
      componentId,
      participants,
      // Spread over the three; once c is gone, its participants go to the others (as a proxy would send them).
      target: (i) => (killed ? [a, b] : [a, b, c])[i % (killed ? 2 : 3)]!.url,
    });
    try {
      await load.waitForAnswers(300);
      await c.kill();
      killed = true;
      await load.waitForAnswers(300);
    } finally {
      await load.stop();
    }
    expect(load.failures.filter((failure) => failure.url !== c.url)).toEqual([]);
    const rows = await queryRows<{ id: string; comment: string | null }>(
      database.db,
      sql`select id, responses->'comments'->>${componentId} as comment
          from participants where health_check_id = ${check.healthCheckId}`,
    );
    const stored = new Map(rows.map((row) => [row.id, autosaveCounter(row.comment)]));
    const lost = participants.flatMap((p, i) =>
      (stored.get(p.participantId) ?? 0) < (load.acked[i] ?? 0) ? [`participant ${i}`] : [],
    );
    expect(lost, 'acknowledged autosaves lost').toEqual([]);
    expect(load.acked.every((counter) => counter > 0)).toBe(true);
    for (const server of [a, b]) expect((await httpRequest(`${server.url}/api/ready`)).status).toBe(200);
  }, 60_000);
});
