import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';

// The same as apps/server/src/test/server-process.ts's, which cannot be imported here (it loads Vitest).
export async function freePort(): Promise<number> {
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

/**
 * The built app on a free port with its own DATA_DIR under `work`, sending e-mail to the capture server on
 * `smtpPort`. `host` names it in APP_URL: 127.0.0.1 by default (`localhost` may resolve to ::1 first on some
 * machines); a passkey needs a domain (`localhost`), for which the server listens on both loopback addresses.
 */
export async function startApp(options: {
  work: string;
  smtpPort: number;
  host?: 'localhost';
  /** DNS_SERVERS: a DNS server the journey runs (SSO domain verification). */
  dnsServer?: string;
}) {
  const port = await freePort();
  const baseUrl = `http://${options.host ?? '127.0.0.1'}:${port}`;
  const server = spawn(process.execPath, ['apps/server/dist/main.js'], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: options.host ? '::' : '127.0.0.1',
      APP_URL: baseUrl,
      DATA_DIR: path.join(options.work, 'data'),
      DATABASE_URL: '',
      SMTP_URL: `smtp://127.0.0.1:${options.smtpPort}`,
      LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
      // Journeys sign many people up from one address; the limits themselves are tested in the API tests.
      RATE_LIMIT_MULTIPLIER: '50',
      // The journeys' identity provider runs on this machine's loopback (test/oidc-provider.ts).
      SSO_ALLOW_LOOPBACK_ISSUER: 'true',
      // The webhooks journey's receiver is an http server on this machine's loopback.
      WEBHOOKS_ALLOW_LOOPBACK: 'true',
      DNS_SERVERS: options.dnsServer ?? '',
    },
  });
  await waitForHealth(baseUrl, server);
  return {
    baseUrl,
    async stop() {
      const exited = new Promise((resolve) => server.once('exit', resolve));
      server.kill('SIGTERM');
      await exited;
    },
  };
}
