import { spawn, type ChildProcess } from 'node:child_process';
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { loadTestSettings } from '../config';
import { openPglite, openPostgres, type Database } from '../db/client';
import { session } from '../db/schema/auth';
import { contextOn, copyPostgresTemplate, pgliteTemplate, useForAll, type TestContext } from './harness';
import { createAdmin } from './accounts';
import { addParticipant, createCheck } from './health-checks';

/**
 * The built server (`npm run build`) as a child process, for tests that need a real process: killed, restarted,
 * on a database that outlives it. Set-up goes straight into that database from the test, before the server
 * starts (the embedded database has one owner at a time).
 */
export const SERVER_BUNDLE = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
/** The operations commands (`npm run backup`, `restore`, `db:move`) as built. */
export const OPS_BUNDLE = fileURLToPath(new URL('../../dist/ops.js', import.meta.url));

/** Runs an operations command (`backup FILE`, `restore FILE`, `move URL`) with `env`; answers its exit code and output. */
export function runOps(args: string[], env: { DATA_DIR: string; DATABASE_URL?: string }) {
  return new Promise<{ code: number | null; output: string }>((resolve) => {
    const child = spawn(process.execPath, [OPS_BUNDLE, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: process.env.PATH, DATABASE_URL: '', ...env },
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('exit', (code) => resolve({ code, output }));
  });
}

/**
 * True when the built server is missing, so the tests of `what` are skipped (said loudly); on CI a missing
 * build is an error instead.
 */
export function serverBundleMissing(what: string): boolean {
  if (existsSync(SERVER_BUNDLE)) return false;
  if (loadTestSettings().ci)
    throw new Error(`${SERVER_BUNDLE} is missing: ${what} runs the built server (npm run build)`);
  console.warn(`\n!!! ${what} SKIPPED: ${SERVER_BUNDLE} is missing; run \`npm run build\` first.\n`);
  return true;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export type HttpAnswer = { status: number; body: string; headers: http.IncomingHttpHeaders };

/**
 * One HTTP request on a connection of its own (no keep-alive, so no socket to a dead process is reused), given
 * up after `timeoutMs`. Rejects on any connection error, including a connection closed mid-answer.
 */
export function httpRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: unknown; timeoutMs?: number } = {},
): Promise<HttpAnswer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: options.method ?? 'GET',
        agent: false,
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        headers: {
          connection: 'close',
          ...(payload === undefined
            ? {}
            : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) }),
          ...options.headers,
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            body: Buffer.concat(chunks).toString('utf8'),
            headers: response.headers,
          }),
        );
        response.on('close', () => {
          if (!response.complete) reject(new Error(`${url}: connection closed mid-answer`));
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

export type ServerProcess = {
  url: string;
  /** The server's process id. */
  pid: number;
  /** The last lines the server printed (stdout and stderr), for failure messages. */
  output(): string;
  /** SIGKILL: no shutdown code runs. Resolves when the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM, the graceful stop; resolves with the exit code. */
  stop(): Promise<number | null>;
  /** True once the process has exited. */
  exited(): boolean;
};

const OUTPUT_KEPT = 20_000;

/**
 * Which of `pids` holds the open TCP socket whose local end is 127.0.0.1:`port` (Linux: the socket's inode from
 * /proc/net/tcp, then each process's file descriptors); undefined when none does (or not on Linux). Tells a
 * receiver on the loopback which server process sent it a request.
 */
export function processOfLocalPort(port: number, pids: readonly number[]): number | undefined {
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  let table = '';
  try {
    table = readFileSync('/proc/net/tcp', 'utf8');
  } catch {
    return undefined;
  }
  const inode = table
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .find((fields) => fields[1] === local)?.[9];
  if (!inode || inode === '0') return undefined;
  const target = `socket:[${inode}]`;
  return pids.find((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          return readlinkSync(`/proc/${pid}/fd/${fd}`) === target;
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  });
}

type StartOptions = {
  dataDir: string;
  databaseUrl?: string;
  /** Empty: the server keeps (or generates) its secret in DATA_DIR. */
  authSecret: string;
  startTimeoutMs?: number;
  /** More variables for the server (HOST, SMTP_URL...), over the defaults below. */
  env?: Record<string, string>;
  /** Resolve once it listens (/api/health answers; its migrations may still run) instead of once it is ready. */
  untilListening?: boolean;
};

/**
 * Starts `dist/main.js` on a free port and waits until `/api/ready` answers 200 (migrations done, a database
 * round trip). Tries
 * another port when another process took the free one first.
 */
export async function startServer(options: StartOptions): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOn(await freePort(), options);
    } catch (error) {
      if (attempt >= 3 || !String(error).includes('EADDRINUSE')) throw error;
    }
  }
}

async function startOn(port: number, options: StartOptions): Promise<ServerProcess> {
  const url = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(process.execPath, [SERVER_BUNDLE], {
    stdio: ['ignore', 'pipe', 'pipe'],
    // Only what the server reads, so nothing of the test runner's environment (NODE_ENV=test) leaks in.
    env: {
      NODE_ENV: 'development',
      PORT: String(port),
      APP_URL: url,
      DATA_DIR: options.dataDir,
      DATABASE_URL: options.databaseUrl ?? '',
      AUTH_SECRET: options.authSecret,
      SMTP_URL: '',
      LOG_LEVEL: 'error',
      RATE_LIMIT_MULTIPLIER: '1000',
      ...options.env,
    },
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEPT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exitCode: number | null = null;
  let hasExited = false;
  const exit = new Promise<void>((resolve) => {
    child.once('exit', (code) => {
      exitCode = code;
      hasExited = true;
      resolve();
    });
  });
  const withTimeout = async (what: string, ms: number) => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`server did not ${what} within ${ms} ms`)), ms);
    });
    try {
      await Promise.race([exit, late]);
    } finally {
      clearTimeout(timer);
    }
  };
  const server: ServerProcess = {
    url,
    pid: child.pid ?? 0,
    output: () => output,
    exited: () => hasExited,
    async kill() {
      if (!hasExited) child.kill('SIGKILL');
      await withTimeout('die after SIGKILL', 10_000);
    },
    async stop() {
      if (!hasExited) child.kill('SIGTERM');
      await withTimeout('stop after SIGTERM', 15_000);
      return exitCode;
    },
  };

  const deadline = Date.now() + (options.startTimeoutMs ?? 45_000);
  for (;;) {
    if (hasExited) throw new Error(`server exited with ${String(exitCode)} while starting:\n${output}`);
    const probe = options.untilListening ? '/api/health' : '/api/ready';
    const healthy = await httpRequest(`${url}${probe}`, { timeoutMs: 2_000 }).then(
      (answer) => answer.status === 200,
      () => false,
    );
    if (healthy) return server;
    if (Date.now() > deadline) {
      await server.kill();
      throw new Error(`server not healthy within the start timeout:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** A database for a server process: a folder for the embedded database, or a scratch database on PostgreSQL. */
export type ServerDatabase = {
  kind: 'pglite' | 'postgres';
  dataDir: string;
  /** Set for PostgreSQL. */
  databaseUrl: string | undefined;
  /** Opens it from the test; close it before a server starts on the embedded database. */
  open(): Promise<Database>;
  drop(): Promise<void>;
};

/** A fresh copy of the migrated and seeded test template, on the test project's kind, for a server process. */
export async function createServerDatabase(): Promise<ServerDatabase> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pulsecheck-server-'));
  const removeDataDir = () => rm(dataDir, { recursive: true, force: true });
  if (loadTestSettings().kind === 'pglite') {
    // Where the server opens it (db/client.ts openDatabase).
    const folder = path.join(dataDir, 'pglite');
    const first = await PGlite.create(folder, { loadDataDir: await pgliteTemplate() });
    await first.close();
    return {
      kind: 'pglite',
      dataDir,
      databaseUrl: undefined,
      open: async () => openPglite(await PGlite.create(folder)),
      drop: removeDataDir,
    };
  }
  const copy = await copyPostgresTemplate('srv_');
  return {
    kind: 'postgres',
    dataDir,
    databaseUrl: copy.url,
    open: () => Promise.resolve(openPostgres(copy.url, { max: 2 })),
    async drop() {
      try {
        await copy.drop();
      } finally {
        await removeDataDir();
      }
    },
  };
}

/** A server database for the tests of this file (or `describe` block), dropped after them. */
export const useServerDatabase = () => useForAll(createServerDatabase, (database) => database.drop());

/**
 * On a server database before its server starts: an admin, a check of theirs and `count` signed-in participants
 * (cookies signed with `secret`), as the autosave tests need them.
 */
export async function checkWithParticipants(
  data: ServerDatabase,
  options: { count: number; secret: string },
) {
  const setup = await contextOn(await data.open());
  try {
    const admin = await createAdmin(setup);
    const check = await createCheck(setup, admin);
    const participants = await addSignedInParticipants(setup, {
      healthCheckId: check.healthCheckId,
      workspaceId: admin.workspaceId,
      ...options,
    });
    return { admin, check, participants, componentId: check.componentIds[0] as string };
  } finally {
    await setup.close();
  }
}

/** The session cookie of `token` as better-auth signs it with `secret` (HMAC-SHA256, base64). */
export function sessionCookie(token: string, secret: string): string {
  const signature = createHmac('sha256', secret).update(token).digest('base64');
  return `better-auth.session_token=${encodeURIComponent(`${token}.${signature}`)}`;
}

/**
 * `count` participants of the check (participant members of its workspace), each with a session of its own;
 * returns their cookies, signed with `secret` (the AUTH_SECRET the server will run with).
 */
export async function addSignedInParticipants(
  ctx: TestContext,
  options: { healthCheckId: string; workspaceId: string; count: number; secret: string },
) {
  const people = [];
  for (let i = 0; i < options.count; i++) {
    const person = await addParticipant(ctx, options, { status: 'pending', name: `Participant ${i}` });
    const token = randomBytes(24).toString('base64url');
    await ctx.deps.db.insert(session).values({
      id: randomUUID(),
      token,
      userId: person.userId,
      expiresAt: new Date(Date.now() + 24 * 3600 * 1000),
    });
    people.push({ participantId: person.participantId, cookie: sessionCookie(token, options.secret) });
  }
  return people;
}

type AutosaveOptions = {
  healthCheckId: string;
  componentId: string;
  participants: { cookie: string }[];
  /** The server participant `i` sends its next autosave to. */
  target: (i: number) => string;
};

/**
 * Autosave load as browsers make it: each participant saves a rising counter (in a comment), one request at a
 * time, until `stop()`. `acked[i]` is the highest counter answered 2xx, `sent[i]` the highest sent; every
 * failed request is listed with the server it went to.
 */
export function autosaveLoad(options: AutosaveOptions) {
  const sent = options.participants.map(() => 0);
  const acked = options.participants.map(() => 0);
  const failures: { url: string; error: string }[] = [];
  let running = true;
  let answered = 0;
  const worker = async (i: number) => {
    const { cookie } = options.participants[i] as { cookie: string };
    while (running) {
      const url = options.target(i);
      const counter = (sent[i] = (sent[i] ?? 0) + 1);
      try {
        const answer = await httpRequest(`${url}/api/health-checks/${options.healthCheckId}/responses`, {
          method: 'PUT',
          headers: { cookie },
          body: {
            votes: { [options.componentId]: 'healthy' },
            comments: { [options.componentId]: `autosave ${counter}` },
            last_component_index: 0,
          },
        });
        if (answer.status === 200) {
          acked[i] = counter;
          answered++;
        } else failures.push({ url, error: `${answer.status} ${answer.body}` });
      } catch (error) {
        failures.push({ url, error: String(error) });
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };
  const workers = Promise.all(options.participants.map((_, i) => worker(i)));
  return {
    sent,
    acked,
    failures,
    answered: () => answered,
    /** Resolves once `count` more autosaves have been answered (or rejects after `timeoutMs`). */
    async waitForAnswers(count: number, timeoutMs = 20_000) {
      const target = answered + count;
      const deadline = Date.now() + timeoutMs;
      while (answered < target) {
        if (Date.now() > deadline) throw new Error(`only ${answered} autosaves answered, ${target} awaited`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async stop() {
      running = false;
      await workers;
    },
  };
}

/** The number in a stored autosave comment (`autosave 12` → 12), 0 for anything else. */
export const autosaveCounter = (text: unknown) => {
  const match = typeof text === 'string' ? /^autosave (\d+)$/.exec(text) : null;
  return match ? Number(match[1]) : 0;
};

/**
 * A live event stream (GET /api/events) of a server process, read as it comes: `waitFor(type)` resolves when an
 * event of that type has arrived (with the time it arrived), `close()` ends it.
 */
export async function openEventStream(url: string, options: { cookie: string; topics: string[] }) {
  const query = options.topics.map((topic) => `topic=${encodeURIComponent(topic)}`).join('&');
  const controller = new AbortController();
  const events: { type: string; at: number }[] = [];
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = http.get(
      `${url}/api/events?${query}`,
      { agent: false, signal: controller.signal, headers: { cookie: options.cookie } },
      resolve,
    );
    request.on('error', reject);
  });
  if (response.statusCode !== 200) throw new Error(`event stream answered ${response.statusCode}`);
  let text = '';
  response.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
    let end;
    while ((end = text.indexOf('\n\n')) >= 0) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (data) events.push({ type: (JSON.parse(data) as { type: string }).type, at: Date.now() });
    }
  });
  response.on('error', () => {});
  return {
    events,
    async waitFor(type: string, timeoutMs = 5_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const event = events.find((e) => e.type === type);
        if (event) return event;
        if (Date.now() > deadline) throw new Error(`no ${type} event within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    close: () => controller.abort(),
  };
}
