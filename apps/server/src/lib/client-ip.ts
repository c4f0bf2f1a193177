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
export function socketAddress(c: Context): string | undefined {
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

/** The names this machine answers to in `Host`: loopback by name or address, and APP_URL's own host. */
const LOCAL_HOSTNAMES = ['localhost', '127.0.0.1', '[::1]'];

/**
 * True when `hostname` (the request's `Host` without its port, as the URL holds it) names this machine:
 * `localhost`, `127.0.0.1`, `[::1]`, or the host of `appUrl`. A page of another site that rebinds its own name to
 * 127.0.0.1 (DNS rebinding) reaches the loopback socket, but its browser still sends that other name.
 */
export function isLocalHostname(hostname: string, appUrl: string): boolean {
  const name = hostname.toLowerCase();
  return LOCAL_HOSTNAMES.includes(name) || name === new URL(appUrl).hostname.toLowerCase();
}

/**
 * A request from this machine for a loopback-only endpoint (/dev/mail, /metrics without its token): the TCP peer
 * is a loopback address (never a header, which anyone can write) and the `Host` it asked for names this machine
 * (`isLocalHostname`). Both, so that neither a remote peer nor a rebound name in a local browser gets in.
 */
export function fromThisMachine(c: Context<AppEnv>): boolean {
  return (
    isLoopback(socketAddress(c)) && isLocalHostname(new URL(c.req.url).hostname, c.get('deps').config.appUrl)
  );
}

/** The client's address: the socket's, or the one the trusted proxies report (TRUST_PROXY hops). */
export function clientIp(c: Context<AppEnv>): string {
  return clientIpBehind(c, c.get('deps').config.trustProxyHops);
}

/** `clientIp` for a request of any router (the SCIM service has its own), given TRUST_PROXY's hops. */
export function clientIpBehind(c: Context, hops: number): string {
  return clientAddress(c.req.header('x-forwarded-for'), socketAddress(c), hops);
}

/** Request headers for better-auth, with the client address it rate-limits and records sessions by. */
export function authHeaders(c: Context<AppEnv>): Headers {
  const headers = new Headers(c.req.raw.headers);
  headers.set('x-forwarded-for', clientIp(c));
  return headers;
}
