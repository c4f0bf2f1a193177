import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import type { Config } from '../config';
import { loadTestSettings } from '../config';
import { useAdmin } from '../test/accounts';
import { useTestContext } from '../test/harness';
import { latestMail, linkIn } from '../test/mail';
import {
  httpRequest,
  serverBundleMissing,
  startServer,
  useServerDatabase,
  type ServerProcess,
} from '../test/server-process';

/**
 * Trust item 5: /dev/mail lists every e-mail, reset links included. It must exist only on a local installation
 * (outside production, without SMTP_URL) and answer only clients on this machine, judged by the TCP peer.
 * Every connection stays on the loopback range: a peer from elsewhere is given to the in-process app as the
 * socket's remote address (what @hono/node-server reports for a real connection), and which addresses the
 * server accepts is shown with 127.0.0.2, which reaches a socket bound to 0.0.0.0 but not one bound to 127.0.0.1.
 */
const ctx = useTestContext();
const admin = useAdmin(ctx);
let resetLink: string;
const servers: ServerType[] = [];

/** The in-process app with `config` changes on a real socket bound to `hostname`; answers its port. */
async function listen(config: Partial<Config>, hostname: string): Promise<number> {
  const app = createApp({ ...ctx.deps, config: { ...ctx.deps.config, ...config } });
  return new Promise((resolve) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname }, (info: AddressInfo) => resolve(info.port));
    servers.push(server);
  });
}

/** The reset link's secret part (its query), which no page but the listing may show. */
const resetQuery = () => new URL(resetLink).search.slice(1).split('&')[0] ?? resetLink;

const page = (host: string, port: number, headers: Record<string, string> = {}) =>
  httpRequest(`http://${host}:${port}/dev/mail?to=${encodeURIComponent(admin.email)}`, { headers });

beforeAll(async () => {
  await ctx.request('POST', '/api/password/forgot', { body: { email: admin.email } });
  resetLink = linkIn((await latestMail(ctx, admin.email, 'Reset')).text);
});
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

describe('/dev/mail on a local installation (no SMTP_URL, not production)', () => {
  it('lists outgoing e-mails with their links to a client on this machine', async () => {
    const port = await listen({}, '0.0.0.0');
    const answer = await page('127.0.0.1', port);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('Reset your Pulsecheck password');
    expect(answer.body).toContain(resetLink.replace(/&/g, '&#38;'));
  });

  it('answers 404 to a peer on another address, whatever X-Forwarded-For claims', async () => {
    const app = createApp(ctx.deps);
    const peer = (remoteAddress: string) => ({
      incoming: { socket: { remoteAddress, remotePort: 40_000, remoteFamily: 'IPv4' } },
    });
    const spoofs: Record<string, string>[] = [
      {},
      { 'x-forwarded-for': '127.0.0.1' },
      { 'x-real-ip': '127.0.0.1' },
    ];
    for (const headers of spoofs) {
      const answer = await app.request('/dev/mail', { headers }, peer('203.0.113.7'));
      expect(answer.status).toBe(404);
      expect(await answer.text()).not.toContain(resetQuery());
    }
    // The same request from a loopback peer is answered: the peer alone decides.
    expect((await app.request('/dev/mail', {}, peer('127.0.0.1'))).status).toBe(200);
  });
});

describe('/dev/mail elsewhere', () => {
  it.each([
    ['SMTP_URL is set', { smtpUrl: 'smtp://127.0.0.1:2525' }],
    ['in production', { env: 'production' as const }],
  ])('does not exist when %s, not even for this machine', async (_, config) => {
    const port = await listen(config, '127.0.0.1');
    const answer = await page('127.0.0.1', port);
    expect(answer.body).not.toContain('Outgoing e-mail');
    expect(answer.body).not.toContain(resetQuery());
  });
});

const missing = serverBundleMissing('HOST tests');

describe.skipIf(missing)(`the listening address, HOST (${loadTestSettings().kind})`, () => {
  const database = useServerDatabase();
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.stop();
  });
  const portOf = (url: string) => Number(new URL(url).port);
  const start = async (env: Record<string, string>) => {
    await server?.stop();
    server = await startServer({
      dataDir: database.dataDir,
      databaseUrl: database.databaseUrl,
      authSecret: 'host-test-secret-host-test-secret-0123456789',
      env,
    });
    return server;
  };

  it('is 127.0.0.1 by default: nothing but this address is answered', async () => {
    const { url } = await start({});
    expect((await httpRequest(`${url}/api/health`)).status).toBe(200);
    await expect(httpRequest(`http://127.0.0.2:${portOf(url)}/api/health`)).rejects.toThrow(/ECONNREFUSED/);
  });

  it('HOST=0.0.0.0 accepts connections on every address', async () => {
    const { url } = await start({ HOST: '0.0.0.0' });
    expect((await httpRequest(`http://127.0.0.2:${portOf(url)}/api/health`)).status).toBe(200);
    const local = await httpRequest(`${url}/dev/mail`);
    expect(local.status).toBe(200);
    expect(local.body).toContain('Outgoing e-mail');
  });
});
