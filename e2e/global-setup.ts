import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startMailCapture } from './support/mail-capture';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitForHealth(url: string, server: ChildProcess, deadline = Date.now() + 60_000) {
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`The server exited with code ${server.exitCode}`);
    try {
      const response = await fetch(`${url}/api/ready`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The server did not become healthy at ${url}`);
}

/** Starts a local SMTP server that keeps every message, and the built app on a free port with a fresh DATA_DIR. */
export default async function globalSetup() {
  const work = await mkdtemp(path.join(tmpdir(), 'pulsecheck-e2e-'));
  const mail = await startMailCapture(path.join(work, 'mail'));
  const port = await freePort();
  // The server listens on 127.0.0.1 (HOST); `localhost` may resolve to ::1 first on some machines.
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['apps/server/dist/main.js'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      APP_URL: baseUrl,
      DATA_DIR: path.join(work, 'data'),
      DATABASE_URL: '',
      SMTP_URL: `smtp://127.0.0.1:${mail.port}`,
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      // Journeys sign many people up from one address; the limits themselves are tested in the API tests.
      RATE_LIMIT_MULTIPLIER: '50',
    },
  });
  await waitForHealth(baseUrl, server);
  process.env.E2E_BASE_URL = baseUrl;
  process.env.E2E_MAIL_DIR = mail.dir;

  return async () => {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    server.kill('SIGTERM');
    await exited;
    await mail.close();
    await rm(work, { recursive: true, force: true });
  };
}
