// Starts the built Pulsecheck server for a benchmark and sets up an admin, a launched check and
// participants through the real HTTP API (e-mail links are read from /dev/mail, as a local user would).
import { spawn } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serverNodeFlags } from '../apps/server/node-flags.mjs';

const root = path.join(import.meta.dirname, '..');
export const GLOBAL_TEMPLATE_ID = '00000000-0000-4000-8000-000000000001';

export async function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

// The data folders made here go when the benchmark process ends (an embedded run leaves hundreds of MB).
const madeDirs = [];
process.on('exit', () => {
  for (const dir of madeDirs) rmSync(dir, { recursive: true, force: true });
});
const tempDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'pc-bench-'));
  madeDirs.push(dir);
  return dir;
};

/**
 * Spawns the built server on a free port with the settings of a local benchmark run (the Node flags `npm start`
 * gives it, e-mails to /dev/mail, errors only in the log) on `port`, or a free one; `env` adds to them. Answers the
 * process and its URL.
 */
export async function spawnServer({ port, databaseUrl = '', dataDir, secret = '', nodeArgs = [], env = {} }) {
  port ??= await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    [
      ...serverNodeFlags({ DATABASE_URL: databaseUrl }),
      ...nodeArgs,
      path.join(root, 'apps/server/dist/main.js'),
    ],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env,
        NODE_ENV: 'development',
        PORT: String(port),
        HOST: '127.0.0.1',
        APP_URL: url,
        DATA_DIR: dataDir,
        DATABASE_URL: databaseUrl,
        AUTH_SECRET: secret,
        SMTP_URL: '',
        LOG_LEVEL: 'error',
        ...env,
      },
    },
  );
  return { child, url };
}

export async function startApp({ databaseUrl = '', dataDir = tempDir(), secret = '', nodeArgs = [] } = {}) {
  const { child, url } = await spawnServer({
    databaseUrl,
    dataDir,
    secret,
    nodeArgs,
    env: { RATE_LIMIT_MULTIPLIER: '1000' },
  });
  for (let i = 0; i < 240; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/api/ready`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    dataDir,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGTERM');
      }),
  };
}

const cookieOf = (response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .filter((c) => !c.endsWith('='))
    .join('; ');

export async function call(url, method, pathname, { body, cookie } = {}) {
  const response = await fetch(`${url}${pathname}`, {
    method,
    redirect: 'manual',
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(cookie ? { cookie } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (response.status >= 400)
    throw new Error(`${method} ${pathname}: ${response.status} ${await response.text()}`);
  return response;
}

/** Follows the verification link of the newest e-mail to `email` (from /dev/mail); returns the session cookie. */
async function verify(url, email) {
  for (let i = 0; i < 50; i++) {
    const html = await (await fetch(`${url}/dev/mail?to=${encodeURIComponent(email)}`)).text();
    const link = /href="([^"]*verify-email[^"]*)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
    if (link) return cookieOf(await call(url, 'GET', new URL(link).pathname + new URL(link).search));
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no verification e-mail for ${email}`);
}

export async function setUpCheck(url, { participants: count = 1, minResponses = 1 } = {}) {
  const stamp = Date.now().toString(36);
  const admin = `bench-admin-${stamp}@example.com`;
  await call(url, 'POST', '/api/signup', {
    body: {
      fullName: 'Bench Admin',
      email: admin,
      password: 'bench-password-1',
      confirmPassword: 'bench-password-1',
      companyName: 'Bench Co',
      companySize: '11-50',
      role: 'Admin',
      acceptTerms: true,
    },
  });
  const adminCookie = await verify(url, admin);
  await call(url, 'POST', '/api/onboarding/setup', { cookie: adminCookie });
  const me = await (await call(url, 'GET', '/api/me', { cookie: adminCookie })).json();
  const template = await (
    await call(url, 'GET', `/api/templates/${GLOBAL_TEMPLATE_ID}`, { cookie: adminCookie })
  ).json();
  const componentIds = (template.components ?? template.template?.components ?? []).map((c) => c.id);
  const launch = await (
    await call(url, 'POST', '/api/health-checks', {
      cookie: adminCookie,
      body: {
        workspaceId: me.user.activeWorkspaceId,
        templateId: GLOBAL_TEMPLATE_ID,
        title: 'Benchmark check',
        description: '',
        settings: {
          minResponses,
          allowAnonymous: true,
          enableComments: true,
          votesPerPerson: 5,
          showResultsAfterVoting: true,
        },
        enabledComponentIds: componentIds,
        teamEmails: [],
        launchKey: `bench-${stamp}`,
      },
    })
  ).json();
  const participation = [];
  for (let i = 0; i < count; i++) {
    const email = `bench-p${i}-${stamp}@example.com`;
    await call(url, 'POST', '/api/signup/participant', {
      body: { fullName: `Participant ${i}`, email, password: 'bench-password-1', healthCheckId: launch.id },
    });
    const cookie = await verify(url, email);
    const joined = await (await call(url, 'POST', `/api/health-checks/${launch.id}/join`, { cookie })).json();
    participation.push({ cookie, participantId: joined.participantId });
  }
  const view = await (
    await call(url, 'GET', `/api/health-checks/${launch.id}/participation`, {
      cookie: participation[0]?.cookie ?? adminCookie,
    })
  ).json();
  const checkComponentIds = (view.components ?? []).map((c) => c.id);
  return { healthCheckId: launch.id, adminCookie, participation, componentIds: checkComponentIds };
}

/**
 * Adds `count` participants to a launched check straight in the database, with their workspace memberships and
 * sessions (signing up that many people over HTTP would mostly measure password hashing), and returns their
 * session cookies, signed with the server's AUTH_SECRET exactly as better-auth signs them. `database` is a
 * PostgreSQL URL, or the embedded database's folder while no server has it open.
 */
export async function addParticipants({ database, healthCheckId, secret, count }) {
  const query = await openQuery(database);
  const stamp = randomBytes(3).toString('hex');
  const tokens = Array.from({ length: count }, () => randomBytes(24).toString('base64url'));
  const user = `'bench-' || $1 || '-' || g`;
  const series = 'from generate_series(1, $2::int) g';
  await query(
    `insert into "user" (id, name, email, email_verified)
     select ${user}, 'Bench ' || g, ${user} || '@example.com', true ${series}`,
    [stamp, count],
  );
  await query(
    `insert into workspace_members (workspace_id, user_id, access)
     select (select workspace_id from health_checks where id = $3), ${user}, 'participant' ${series}`,
    [stamp, count, healthCheckId],
  );
  const participants = await query(
    `insert into participants (health_check_id, user_id)
     select $3, ${user} ${series} returning id, user_id`,
    [stamp, count, healthCheckId],
  );
  await query(
    `insert into session (id, token, user_id, expires_at)
     select 'bench-s-' || $1 || '-' || g, ($3::text[])[g], ${user}, now() + interval '30 days' ${series}`,
    [stamp, count, tokens],
  );
  await query.close();
  const idOf = new Map(participants.map((p) => [p.user_id, p.id]));
  return tokens.map((token, i) => {
    const signature = createHmac('sha256', secret).update(token).digest('base64');
    return {
      cookie: `better-auth.session_token=${encodeURIComponent(`${token}.${signature}`)}`,
      participantId: idOf.get(`bench-${stamp}-${i + 1}`),
    };
  });
}

/** `query(text, params)` → rows, on PostgreSQL (a URL) or the embedded database (a folder). */
export async function openQuery(database) {
  if (database.startsWith('postgres')) {
    const { default: postgres } = await import('postgres');
    const sql = postgres(database, { max: 1, onnotice: () => {} });
    const query = (text, params) => sql.unsafe(text, params);
    query.close = () => sql.end();
    return query;
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(database);
  const query = async (text, params) => (await db.query(text, params)).rows;
  query.close = () => db.close();
  return query;
}
