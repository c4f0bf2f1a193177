import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadTestSettings } from '../config';
import { openPostgres, queryRows } from '../db/client';
import { mailOutbox, jobs } from '../db/schema/messaging';
import { testConfig } from '../test/harness';
import {
  APP_ROLE,
  skipWithoutPrivateCluster,
  startPrivateCluster,
  type PrivateCluster,
} from '../test/pg-cluster';
import {
  autosaveCounter,
  checkWithParticipants,
  httpRequest,
  openEventStream,
  serverBundleMissing,
  startServer,
  type ServerProcess,
} from '../test/server-process';

/**
 * Issue 31, item 1 (docs/operations.md, "What happens when…"): the built server on a PostgreSQL cluster of the
 * test's own, under autosave load, while the cluster is stopped and started again, refuses connections (too many
 * clients), and holds a statement on a lock. Every request answers within 2 s, 200 or 503 `database_unavailable`
 * with Retry-After; readiness says 503 within 1 s and liveness stays 200; within 2 s of the database's return
 * everything succeeds again, nothing acknowledged is lost, the outbox, the jobs and LISTEN resume, and the outage
 * is logged once. Runs once per `npm test` (in the embedded project: the cluster is its own either way).
 */
const PARTICIPANTS = 8;
const SECRET = testConfig().authSecret;
const FAULT_MS = 2_500;
const CHANNEL = 'pulsecheck_events';

const skip =
  loadTestSettings().kind !== 'pglite' ||
  serverBundleMissing('the database fault tests') ||
  (await skipWithoutPrivateCluster('the database fault tests'));

type Answer = {
  start: number;
  end: number;
  status: number;
  code?: string;
  retryAfter?: string;
  error?: string;
  /** What the request carried (an autosave's counter). */
  tag?: number;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Requests to `url` one after another until stopped, each timed; `every` ms apart. */
function poll(
  url: string,
  every: number,
  options: { method?: string; cookie?: string; body?: () => { value: unknown; tag: number } } = {},
) {
  const answers: Answer[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const start = Date.now();
      const body = options.body?.();
      try {
        const answer = await httpRequest(url, {
          method: options.method,
          headers: options.cookie ? { cookie: options.cookie } : {},
          body: body?.value,
          timeoutMs: 10_000,
        });
        const parsed = JSON.parse(answer.body || '{}') as { error?: { code?: string; message?: string } };
        answers.push({
          start,
          end: Date.now(),
          status: answer.status,
          code: parsed.error?.code,
          retryAfter: answer.headers['retry-after'],
          tag: body?.tag,
        });
      } catch (error) {
        answers.push({ start, end: Date.now(), status: 0, error: String(error), tag: body?.tag });
      }
      await sleep(every);
    }
  })();
  return {
    answers,
    async stop() {
      running = false;
      await loop;
    },
  };
}

describe.skipIf(skip)('PostgreSQL faults under load (a cluster of its own)', () => {
  let cluster: PrivateCluster;
  let server: ServerProcess;
  let dataDir: string;
  let setup: Awaited<ReturnType<typeof checkWithParticipants>>;
  let databaseUrl: string;
  const acked: number[] = [];
  const sent: number[] = [];

  beforeAll(async () => {
    // 20 connections, 3 of them for superusers: 17 for the application's role.
    cluster = await startPrivateCluster({ max_connections: '20', superuser_reserved_connections: '3' });
    databaseUrl = await cluster.createDatabase('pulsecheck');
    dataDir = await mkdtemp(path.join(tmpdir(), 'pulsecheck-faults-'));
    server = await startServer({ dataDir, databaseUrl, authSecret: SECRET, env: { LOG_LEVEL: 'warn' } });
    setup = await checkWithParticipants(
      {
        kind: 'postgres',
        dataDir,
        databaseUrl,
        open: () => Promise.resolve(openPostgres(databaseUrl, { max: 2 })),
        drop: () => Promise.resolve(),
      },
      { count: PARTICIPANTS, secret: SECRET },
    );
  }, 120_000);

  afterAll(async () => {
    if (server && !server.exited()) await server.kill();
    await cluster?.remove();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  /**
   * Autosave load, readiness and liveness polled, through `fault` (which resolves when the fault is in place,
   * and answers a function that ends it); answers the timings.
   */
  async function underLoad(fault: () => Promise<() => Promise<void>>) {
    const { check, participants, componentId } = setup;
    const autosaves = participants.map((participant, i) =>
      poll(`${server.url}/api/health-checks/${check.healthCheckId}/responses`, 20, {
        method: 'PUT',
        cookie: participant.cookie,
        body: () => {
          const tag = (sent[i] = (sent[i] ?? 0) + 1);
          return {
            tag,
            value: {
              votes: { [componentId]: 'healthy' },
              comments: { [componentId]: `autosave ${tag}` },
              last_component_index: 0,
            },
          };
        },
      }),
    );
    const ready = poll(`${server.url}/api/ready`, 50);
    const health = poll(`${server.url}/api/health`, 100);
    await sleep(700);
    const faultStart = Date.now();
    const end = await fault();
    const inPlace = Date.now();
    await sleep(FAULT_MS);
    const endStart = Date.now();
    await end();
    const back = Date.now();
    await sleep(3_000);
    await Promise.all([...autosaves, ready, health].map((p) => p.stop()));
    autosaves.forEach((p, i) => {
      for (const answer of p.answers)
        if (answer.status === 200) acked[i] = Math.max(acked[i] ?? 0, answer.tag ?? 0);
    });
    const saves = autosaves.flatMap((p) => p.answers);
    return { saves, ready: ready.answers, health: health.answers, faultStart, inPlace, endStart, back };
  }

  /** The rules every fault must keep; answers the figures for the log and the operations guide. */
  function expectFailFast(run: Awaited<ReturnType<typeof underLoad>>, label: string) {
    const slow = run.saves.filter((a) => a.end - a.start >= 2_000);
    expect(slow, `${label}: answers slower than 2 s`).toEqual([]);
    const wrong = run.saves.filter(
      (a) =>
        a.status !== 200 && !(a.status === 503 && a.code === 'database_unavailable' && a.retryAfter === '5'),
    );
    expect(wrong, `${label}: answers other than 200 or 503 database_unavailable with Retry-After`).toEqual(
      [],
    );
    const afterReturn = run.saves.filter((a) => a.start >= run.back + 2_000 && a.status !== 200);
    expect(afterReturn, `${label}: failures later than 2 s after the database's return`).toEqual([]);
    expect(
      run.health.filter((a) => a.status !== 200),
      `${label}: liveness`,
    ).toEqual([]);
    const firstOk = run.saves.find((a) => a.start >= run.back && a.status === 200);
    const refused = run.saves.filter((a) => a.status === 503);
    const figures = {
      refused: refused.length,
      slowestRefusalMs: Math.max(0, ...refused.map((a) => a.end - a.start)),
      firstSuccessAfterReturnMs: firstOk ? firstOk.end - run.back : undefined,
    };
    console.info(`database fault (${label}):`, JSON.stringify(figures));
    return figures;
  }

  async function storedCounters() {
    const database = openPostgres(databaseUrl, { max: 1 });
    try {
      const rows = await queryRows<{ id: string; comment: string | null }>(
        database.db,
        sql`select id, responses->'comments'->>${setup.componentId} as comment
            from participants where health_check_id = ${setup.check.healthCheckId}`,
      );
      const stored = new Map(rows.map((row) => [row.id, autosaveCounter(row.comment)]));
      return setup.participants.map((p) => stored.get(p.participantId) ?? 0);
    } finally {
      await database.close();
    }
  }

  it('stopped and started again: 503 at once, readiness 503 within 1 s, back within 2 s, background work resumes', async () => {
    const stream = await openEventStream(server.url, {
      cookie: setup.admin.jar.header().cookie ?? '',
      topics: [`user:${setup.admin.userId}`],
    });
    const admin = openPostgres(cluster.superuserUrl('pulsecheck'), { max: 1 });
    let outboxId = '';
    let jobId = '';
    try {
      await stream.waitFor('ready');
      const run = await underLoad(async () => {
        // Work that comes due while the database is away: an e-mail and a job (of a kind nobody handles, so
        // that its attempt is visible).
        const [mail] = await admin.db
          .insert(mailOutbox)
          .values({
            kind: 'fault-test',
            to: 'someone@example.com',
            subject: 'Sent after the outage',
            html: '<p>hi</p>',
            text: 'hi',
            nextAttemptAt: new Date(Date.now() + 500),
          })
          .returning({ id: mailOutbox.id });
        const [job] = await admin.db
          .insert(jobs)
          .values({ kind: 'fault-test', payload: {}, runAt: new Date(Date.now() + 500) })
          .returning({ id: jobs.id });
        outboxId = mail?.id ?? '';
        jobId = job?.id ?? '';
        await cluster.stop();
        return () => cluster.start();
      });
      const figures = expectFailFast(run, 'stopped');
      // Nothing can succeed while the cluster is down.
      expect(
        run.saves.filter((a) => a.start >= run.inPlace && a.end < run.endStart && a.status === 200),
      ).toEqual([]);
      expect(figures.refused).toBeGreaterThan(0);
      const firstNotReady = run.ready.find((a) => a.start >= run.faultStart && a.status === 503);
      expect(firstNotReady, 'readiness never said 503').toBeDefined();
      expect((firstNotReady?.end ?? Infinity) - run.inPlace, 'readiness 503 later than 1 s').toBeLessThan(
        1_000,
      );
      expect(run.ready.filter((a) => a.start >= run.back + 2_000 && a.status !== 200)).toEqual([]);

      // Background work and LISTEN resume by themselves.
      const reopened = openPostgres(databaseUrl, { max: 1 });
      try {
        await expect
          .poll(
            async () =>
              (
                await queryRows<{ status: string }>(
                  reopened.db,
                  sql`select status from mail_outbox where id = ${outboxId}`,
                )
              )[0]?.status,
            { timeout: 5_000, interval: 100 },
          )
          .toBe('sent');
        await expect
          .poll(
            async () =>
              (
                await queryRows<{ attempts: number }>(
                  reopened.db,
                  sql`select attempts from jobs where id = ${jobId}`,
                )
              )[0]?.attempts,
            { timeout: 7_000, interval: 100 },
          )
          .toBeGreaterThan(0);
        const event = JSON.stringify({ topic: `user:${setup.admin.userId}`, type: 'fault-test' });
        const deadline = Date.now() + 3_000;
        while (!stream.events.some((e) => e.type === 'fault-test') && Date.now() < deadline) {
          await reopened.db.execute(sql`select pg_notify(${CHANNEL}, ${event})`);
          await sleep(100);
        }
        expect(
          stream.events.map((e) => e.type),
          'the stream opened before the outage hears events after it',
        ).toContain('fault-test');
      } finally {
        await reopened.close();
      }
    } finally {
      stream.close();
      await admin.close();
    }
  }, 60_000);

  it('refusing connections (too many clients): 503 at once, back within 2 s of a free slot', async () => {
    const superuser = postgres(cluster.superuserUrl('pulsecheck'), { max: 1, onnotice: () => {} });
    const hogs: postgres.Sql[] = [];
    try {
      await superuser.unsafe(`create role hog login`);
      const run = await underLoad(async () => {
        // The server's role may not connect while its connections end and the others take every free slot.
        await superuser.unsafe(`alter role ${APP_ROLE} connection limit 0`);
        await superuser`select pg_terminate_backend(pid) from pg_stat_activity where usename = ${APP_ROLE}`;
        for (;;) {
          const hog = postgres(cluster.superuserUrl('pulsecheck').replace('postgres@', 'hog@'), {
            max: 1,
            onnotice: () => {},
          });
          try {
            await hog`select 1`;
            hogs.push(hog);
          } catch (error) {
            await hog.end({ timeout: 1 });
            // too_many_connections: 'sorry, too many clients already' or 'remaining connection slots are reserved'.
            expect((error as { code?: string }).code).toBe('53300');
            break;
          }
        }
        await superuser.unsafe(`alter role ${APP_ROLE} connection limit -1`);
        return async () => {
          await Promise.all(hogs.splice(0).map((hog) => hog.end({ timeout: 1 })));
        };
      });
      expectFailFast(run, 'too many clients');
      expect(
        run.saves.filter((a) => a.start >= run.inPlace && a.end < run.endStart && a.status === 200),
      ).toEqual([]);
    } finally {
      await Promise.all(hogs.map((hog) => hog.end({ timeout: 1 })));
      await superuser.end({ timeout: 1 });
    }
  }, 60_000);

  it('a statement held by a lock: 503 after the lock timeout (0.5 s), within 2 s, then 200 again', async () => {
    const superuser = postgres(cluster.superuserUrl('pulsecheck'), { max: 1, onnotice: () => {} });
    try {
      let release: () => void = () => {};
      let holding: Promise<unknown> = Promise.resolve();
      const run = await underLoad(async () => {
        let locked!: () => void;
        const inPlace = new Promise<void>((resolve) => (locked = resolve));
        holding = superuser.begin(async (tx) => {
          await tx`lock table participants in access exclusive mode`;
          locked();
          await new Promise<void>((resolve) => (release = resolve));
        });
        await inPlace;
        return async () => {
          release();
          await holding;
        };
      });
      const figures = expectFailFast(run, 'lock held');
      expect(figures.refused).toBeGreaterThan(0);
      // The database answers all along: readiness stays 200 (documented).
      expect(run.ready.filter((a) => a.status !== 200)).toEqual([]);
    } finally {
      await superuser.end({ timeout: 1 });
    }
  }, 60_000);

  it('kept every acknowledged autosave, and logged each outage once', async () => {
    const stored = await storedCounters();
    stored.forEach((value, i) => {
      expect(value, `participant ${i}`).toBeGreaterThanOrEqual(acked[i] ?? 0);
      expect(value, `participant ${i}`).toBeLessThanOrEqual(sent[i] ?? 0);
    });
    expect(acked.every((value) => value > 0)).toBe(true);
    const output = server.output();
    expect(output.match(/database unreachable: requests/g) ?? [], output).toHaveLength(2);
    expect(output.match(/database reachable again/g) ?? [], output).toHaveLength(2);
    expect(output).not.toContain('run failed');
    expect(await server.stop()).toBe(0);
  });
});
