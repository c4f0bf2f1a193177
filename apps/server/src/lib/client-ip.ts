import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import type { AppEnv } from './router';

/**
 * The client address from the socket's address and X-Forwarded-For, trusting `hops` proxies (TRUST_PROXY).
 * Each proxy appends the address it received the request from, so the entry `hops` places from the right is
 * the one the furthest trusted proxy appended; whatever stands left of it was written by the client and is
 * ignored. With no trusted proxy, or a header with fewer entries than proxies, the socket's address counts.
 */
export function clientAddress(
  forwardedFor: string | undefined,
  socketAddress: string | undefined,
  hops: number,
): string {
  const socket = socketAddress || 'unknown';
  if (hops < 1 || !forwardedFor) return socket;
  const entries = forwardedFor.split(',').map((entry) => entry.trim());
  if (entries.length < hops) return socket;
  return entries[entries.length - hops] || socket;
}

/** The address of the TCP peer, never a header; undefined when the request did not come over a socket. */
export function socketAddress(c: Context<AppEnv>): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/** True for the loopback addresses 127.0.0.0/8, ::1 and ::ffff:127.x.x.x. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.toLowerCase().replace(/^::ffff:/, '');
  return address === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

/** The client's address: the socket's, or the one the trusted proxies report (TRUST_PROXY hops). */
export function clientIp(c: Context<AppEnv>): string {
  return clientAddress(
    c.req.header('x-forwarded-for'),
    socketAddress(c),
    c.get('deps').config.trustProxyHops,
  );
}

/** Request headers for better-auth, with the client address it rate-limits and records sessions by. */
export function authHeaders(c: Context<AppEnv>): Headers {
  const headers = new Headers(c.req.raw.headers);
  headers.set('x-forwarded-for', clientIp(c));
  return headers;
}
