import { serve, type ServerType } from '@hono/node-server';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../app';
import type { Config } from '../config';
import { useTestContext } from '../test/harness';
import { httpRequest } from '../test/server-process';

/**
 * Issue 30, item 10: DNS rebinding. A page of evil.example whose name is rebound to 127.0.0.1 reaches the
 * loopback socket from the person's own browser, so the peer alone cannot tell "this machine". The loopback-only
 * endpoints (/dev/mail, /metrics without its token) also require a `Host` naming this machine: `localhost`,
 * `127.0.0.1`, `[::1]` or APP_URL's host; any other gets the 404 a remote peer gets. Real sockets on loopback,
 * real Host headers.
 */
const ctx = useTestContext();
const APP_HOST = 'pulse.example.org';
const TOKEN = 'metrics-token-0123456789abcdef';
const servers: ServerType[] = [];

/** The in-process app (APP_URL on APP_HOST, a METRICS_TOKEN) on a real socket bound to `hostname`. */
async function listen(hostname: string, config: Partial<Config> = {}): Promise<number> {
  const app = createApp({
    ...ctx.deps,
    config: { ...ctx.deps.config, appUrl: `https://${APP_HOST}`, metricsToken: TOKEN, ...config },
  });
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: 0, hostname }, (info: AddressInfo) => resolve(info.port));
    server.once('error', reject);
    servers.push(server);
  });
}

afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

const ENDPOINTS = [
  { path: '/dev/mail', served: 'Outgoing e-mail' },
  { path: '/metrics', served: 'pulsecheck_http_requests_total' },
];

describe.each(ENDPOINTS)('$path from this machine (loopback peer)', ({ path, served }) => {
  const get = (address: string, port: number, host: string, headers: Record<string, string> = {}) =>
    httpRequest(`http://${address}:${port}${path}`, { headers: { host, ...headers } });

  it('is refused (404) when Host names another site, as after DNS rebinding', async () => {
    const port = await listen('127.0.0.1');
    for (const host of [
      'evil.example',
      `evil.example:${port}`,
      `localhost.evil.example:${port}`,
      `127.0.0.1.evil.example:${port}`,
      `${APP_HOST}.evil.example`,
      `127.0.0.2:${port}`,
      `0.0.0.0:${port}`,
    ]) {
      const answer = await get('127.0.0.1', port, host);
      expect(answer.status, host).toBe(404);
      expect(answer.body, host).not.toContain(served);
    }
  });

  it("is served when Host is localhost, 127.0.0.1, [::1] or APP_URL's host", async () => {
    const port = await listen('127.0.0.1');
    for (const host of [
      `localhost:${port}`,
      `127.0.0.1:${port}`,
      `[::1]:${port}`,
      APP_HOST,
      `${APP_HOST}:${port}`,
    ]) {
      const answer = await get('127.0.0.1', port, host);
      expect(answer.status, host).toBe(200);
      expect(answer.body, host).toContain(served);
    }
  });
});

describe('the IPv6 loopback', () => {
  it('serves /dev/mail and /metrics to [::1] asking for [::1], and refuses another Host', async (test) => {
    const port = await listen('::1').catch(() => undefined);
    if (port === undefined) return test.skip();
    for (const path of ['/dev/mail', '/metrics']) {
      expect((await httpRequest(`http://[::1]:${port}${path}`)).status, path).toBe(200);
      const rebound = await httpRequest(`http://[::1]:${port}${path}`, { headers: { host: 'evil.example' } });
      expect(rebound.status, path).toBe(404);
    }
  });
});

describe('/metrics with its token', () => {
  it('is answered whatever the Host (a Prometheus server elsewhere), and not without the token', async () => {
    const port = await listen('127.0.0.1');
    const url = `http://127.0.0.1:${port}/metrics`;
    const host = 'metrics.internal.example';
    expect((await httpRequest(url, { headers: { host, authorization: `Bearer ${TOKEN}` } })).status).toBe(
      200,
    );
    expect((await httpRequest(url, { headers: { host } })).status).toBe(404);
  });
});
