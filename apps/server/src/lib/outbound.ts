import { AsyncLocalStorage } from 'node:async_hooks';
import type { LookupAddress, LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { gated, gatedStorage } from '../auth/async-storage';
import { addressesOf } from './dns';

/**
 * Requests the server makes to addresses that someone typed in (an SSO issuer today; webhooks and tracker
 * integrations later): never to this machine or its private network (decision 0016).
 *
 * - `outboundFetch(policy, url, init)` is fetch with the guard: http(s) only, no credentials in the URL; the host is
 *   resolved (DNS_SERVERS, else the system's resolver) and EVERY address must be public (`addressAllowed`), and the
 *   connection goes to the address that was checked: the check is the connection's own DNS lookup, so there is no
 *   second lookup a rebinding DNS server could answer differently. Redirects are never followed (a 3xx is answered
 *   as is), and the whole request (connect, headers, body) must finish within 5 seconds.
 * - `guardFetches(policy, run)` runs `run` with every global `fetch` it makes going through `outboundFetch`: for
 *   libraries that call fetch themselves (@better-auth/sso's discovery, token, userinfo and JWKS requests).
 *
 * `allowLoopback` admits 127.0.0.0/8 and ::1 too (SSO_ALLOW_LOOPBACK_ISSUER, tests and local trials; config.ts
 * refuses it in production); private, link-local and other special addresses are refused whatever it says.
 */
export type OutboundPolicy = { dnsServers: readonly string[]; allowLoopback: boolean };

export const OUTBOUND_TIMEOUT_MS = 5_000;

/** A request the guard refused to make; `reason` says why (the URL, or an address of the host). */
export class OutboundRefused extends Error {
  constructor(
    readonly reason: 'url' | 'address' | 'unresolved',
    message: string,
  ) {
    super(message);
    this.name = 'OutboundRefused';
  }
}

/** An address as 4 or 16 bytes; IPv4-mapped IPv6 (::ffff:a.b.c.d) as its IPv4 address. */
function addressBytes(address: string): number[] | null {
  const family = isIP(address);
  if (family === 4) return address.split('.').map(Number);
  if (family !== 6) return null;
  let text = address.toLowerCase().split('%')[0] ?? '';
  // A trailing dotted IPv4 part becomes two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const bytes = groups.flatMap((group) => {
    const value = parseInt(group || '0', 16);
    return [value >> 8, value & 0xff];
  });
  const mapped = bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff;
  return mapped ? bytes.slice(12) : bytes;
}

/** [prefix bytes, prefix length in bits] of the ranges that are never a public host. */
const BLOCKED_V4: [number[], number][] = [
  [[0], 8], // "this network", 0.0.0.0
  [[10], 8], // private
  [[100, 64], 10], // carrier-grade NAT
  [[127], 8], // loopback
  [[169, 254], 16], // link-local (cloud metadata)
  [[172, 16], 12], // private
  [[192, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2], 24], // documentation
  [[192, 88, 99], 24], // 6to4 relay
  [[192, 168], 16], // private
  [[198, 18], 15], // benchmarking
  [[198, 51, 100], 24], // documentation
  [[203, 0, 113], 24], // documentation
  [[224], 4], // multicast
  [[240], 4], // reserved, broadcast
];
const BLOCKED_V6: [number[], number][] = [
  [[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 96], // ::, ::1 (loopback) and IPv4-compatible ::a.b.c.d
  [[0, 0x64, 0xff, 0x9b], 32], // NAT64 (64:ff9b::/96 and the local-use /48)
  [[1, 0, 0, 0, 0, 0, 0, 0], 64], // discard
  [[0x20, 0x01, 0, 0], 23], // IETF protocol assignments (Teredo, ORCHID…)
  [[0x20, 0x01, 0x0d, 0xb8], 32], // documentation
  [[0x20, 0x02], 16], // 6to4 (embeds an IPv4 address)
  [[0xfc], 7], // unique-local
  [[0xfe, 0x80], 10], // link-local
  [[0xfe, 0xc0], 10], // site-local (deprecated)
  [[0xff], 8], // multicast
];

const inRange = (bytes: number[], [prefix, bits]: [number[], number]) => {
  for (let bit = 0; bit < bits; bit += 8) {
    const mask = bits - bit >= 8 ? 0xff : (0xff << (8 - (bits - bit))) & 0xff;
    if (((bytes[bit / 8] ?? 0) & mask) !== ((prefix[bit / 8] ?? 0) & mask)) return false;
  }
  return true;
};

const isLoopback = (bytes: number[]) =>
  bytes.length === 4 ? bytes[0] === 127 : bytes.every((b, i) => b === (i === 15 ? 1 : 0));

/** Whether the server may connect to `address` (an IP address): public, or loopback when that is allowed. */
export function addressAllowed(address: string, allowLoopback: boolean): boolean {
  const bytes = addressBytes(address);
  if (!bytes) return false;
  if (allowLoopback && isLoopback(bytes)) return true;
  const blocked = bytes.length === 4 ? BLOCKED_V4 : BLOCKED_V6;
  return !blocked.some((range) => inRange(bytes, range));
}

/** The URL if the guard may request it at all (scheme, no credentials); its host is checked when connecting. */
export function outboundUrl(policy: OutboundPolicy, input: string | URL): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new OutboundRefused('url', 'not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new OutboundRefused('url', `${url.protocol} is not http(s)`);
  if (url.username || url.password) throw new OutboundRefused('url', 'credentials in the URL');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  // An IP address in the URL is connected to without a lookup, so it is checked here.
  if (isIP(host) && !addressAllowed(host, policy.allowLoopback))
    throw new OutboundRefused('address', `${host} is not a public address`);
  return url;
}

/**
 * The connection's DNS lookup: every address of the host must be allowed, and the connection uses them (Node
 * connects to what its lookup answered, so what was checked is what is connected to).
 */
function guardedLookup(policy: OutboundPolicy) {
  return (
    hostname: string,
    options: LookupOptions,
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    addressesOf(policy.dnsServers, hostname).then(
      (addresses) => {
        if (addresses.length === 0)
          return callback(new OutboundRefused('unresolved', `${hostname} has no address`), []);
        const refused = addresses.find(({ address }) => !addressAllowed(address, policy.allowLoopback));
        if (refused)
          return callback(
            new OutboundRefused(
              'address',
              `${hostname} resolves to ${refused.address}, not a public address`,
            ),
            [],
          );
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const usable = addresses.filter(({ family }) => !wanted || family === wanted);
        const [first] = usable;
        if (!first)
          return callback(new OutboundRefused('unresolved', `${hostname} has no IPv${wanted} address`), []);
        if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error instanceof Error ? error : new Error(String(error)), []),
    );
  };
}

const agents = new Map<string, Agent>();
function agentFor(policy: OutboundPolicy): Agent {
  const key = `${policy.dnsServers.join(',')}|${policy.allowLoopback}`;
  let agent = agents.get(key);
  if (!agent) {
    agent = new Agent({
      connect: { lookup: guardedLookup(policy), timeout: OUTBOUND_TIMEOUT_MS },
      headersTimeout: OUTBOUND_TIMEOUT_MS,
      bodyTimeout: OUTBOUND_TIMEOUT_MS,
    });
    agents.set(key, agent);
  }
  return agent;
}

/** The OutboundRefused behind a failed request, if the guard is why it failed. */
export function refusalOf(error: unknown): OutboundRefused | null {
  for (let cause = error; cause instanceof Error; cause = cause.cause) {
    if (cause instanceof OutboundRefused) return cause;
  }
  return null;
}

/** fetch through the guard (see the top of this file). Throws OutboundRefused when the guard refuses. */
export async function outboundFetch(
  policy: OutboundPolicy,
  input: string | URL | Request,
  init: RequestInit = {},
): Promise<Response> {
  const request = input instanceof Request ? input : null;
  const url = outboundUrl(policy, request ? request.url : (input as string | URL));
  const timeout = AbortSignal.timeout(OUTBOUND_TIMEOUT_MS);
  const signal = init.signal ?? request?.signal;
  try {
    const response = await undiciFetch(url, {
      method: init.method ?? request?.method,
      headers: init.headers ?? request?.headers,
      body: init.body ?? request?.body,
      ...(request?.body && { duplex: 'half' as const }),
      redirect: 'manual',
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      dispatcher: agentFor(policy),
    } as Parameters<typeof undiciFetch>[1]);
    return response as unknown as Response;
  } catch (error) {
    throw refusalOf(error) ?? error;
  }
}

// Switched off between runs like better-auth's storages (auth/async-storage.ts: their cost under load).
const guarded = gatedStorage(new AsyncLocalStorage<OutboundPolicy>());
let nativeFetch: typeof fetch | null = null;

/**
 * Runs `run` with every global `fetch` it makes (also inside libraries) going through `outboundFetch`. Global
 * fetch outside such a run is untouched.
 */
export function guardFetches<T>(policy: OutboundPolicy, run: () => Promise<T>): Promise<T> {
  if (!nativeFetch) {
    const native = globalThis.fetch;
    nativeFetch = native;
    globalThis.fetch = (input, init) => {
      const current = guarded.getStore();
      return current ? outboundFetch(current, input, init) : native(input, init);
    };
  }
  return gated(() => guarded.run(policy, run));
}
