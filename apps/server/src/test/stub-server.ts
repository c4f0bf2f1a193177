import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/** A request that reached the stub server. */
export type StubHit = { path: string; method: string; body: string };
export type StubAnswer = { status: number; headers?: Record<string, string>; body?: string };

/**
 * A local HTTP stand-in for an outside service (a Slack webhook...), on loopback for the tests of this file: it
 * records every request in `hits` and answers with `answer(hit, url)`.
 */
export function useStubServer(answer: (hit: StubHit, url: string) => StubAnswer) {
  const stub = { url: '', hits: [] as StubHit[] };
  let server: Server;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const hit = { path: req.url ?? '', method: req.method ?? '', body };
        stub.hits.push(hit);
        const reply = answer(hit, stub.url);
        res.writeHead(reply.status, reply.headers).end(reply.body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return stub;
}
