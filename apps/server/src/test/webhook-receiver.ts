import { readFile, writeFile, mkdtemp } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** A delivery a webhook receiver got: its raw body, headers and when. */
export type Received = {
  url: string;
  body: string;
  headers: IncomingHttpHeaders;
  at: number;
  /** The sender's port on the loopback (its socket is open while the request is answered). */
  peerPort: number;
};
/** How the receiver answers a request: a status, after a delay. */
export type Reply = { status: number; delayMs?: number };

/**
 * A real HTTP server on a loopback port that receives webhooks (features/webhooks tests): records every request and
 * answers with `reply` (200 at once by default; a test changes it to 500s or slow answers).
 */
export async function startWebhookReceiver() {
  const received: Received[] = [];
  let reply: (request: Received) => Reply = () => ({ status: 200 });
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = {
        url: req.url ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
        headers: req.headers,
        at: Date.now(),
        peerPort: req.socket.remotePort ?? 0,
      };
      received.push(request);
      const answer = reply(request);
      const timer = setTimeout(() => {
        if (!res.destroyed) res.writeHead(answer.status, { 'Content-Type': 'text/plain' }).end('ok');
      }, answer.delayMs ?? 0);
      res.on('close', () => clearTimeout(timer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/pulsecheck`;
  return {
    url,
    received,
    /** The parsed bodies of what was received, in order. */
    events: () =>
      received.map((r) => JSON.parse(r.body) as { id: string; type: string; data: Record<string, unknown> }),
    answer(with_: (request: Received) => Reply) {
      reply = with_;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;

type Verify = (
  rawBody: string,
  header: string | undefined,
  secret: string,
  toleranceSeconds?: number,
  nowMs?: number,
) => boolean;

/**
 * The signature recipe exactly as docs/api/webhooks.md documents it: the code block marked
 * `// verify-pulsecheck-signature`, written to a module and imported, so the tests prove the documented code.
 */
export async function documentedVerifier(): Promise<Verify> {
  const doc = await readFile(
    fileURLToPath(new URL('../../../../docs/api/webhooks.md', import.meta.url)),
    'utf8',
  );
  const block = /```js\n(\/\/ verify-pulsecheck-signature\n[\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('docs/api/webhooks.md has no verify-pulsecheck-signature block');
  const file = path.join(await mkdtemp(path.join(tmpdir(), 'pulsecheck-verify-')), 'verify.mjs');
  await writeFile(file, block);
  const module = (await import(pathToFileURL(file).href)) as { verifyPulsecheckSignature: Verify };
  return module.verifyPulsecheckSignature;
}
