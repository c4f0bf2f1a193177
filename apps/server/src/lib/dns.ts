import { lookup, Resolver } from 'node:dns/promises';

/**
 * A DNS resolver for what the server looks up itself (domain verification, the addresses of outbound requests,
 * lib/outbound.ts): the servers of DNS_SERVERS (`host:port`), else the system's. A new resolver per use, so it
 * is cheap to point elsewhere and holds no state.
 */
export function dnsResolver(servers: readonly string[]): Resolver {
  const resolver = new Resolver({ timeout: 2000, tries: 2 });
  if (servers.length > 0) resolver.setServers(servers);
  return resolver;
}

/** The TXT records of `domain` (each record's strings joined), or none when the name has none or does not exist. */
export async function txtRecords(servers: readonly string[], domain: string): Promise<string[]> {
  try {
    const records = await dnsResolver(servers).resolveTxt(domain);
    return records.map((parts) => parts.join(''));
  } catch (error) {
    if (isNoData(error)) return [];
    throw error;
  }
}

/**
 * Every IPv4 and IPv6 address of `host` (none when it has none): from the DNS_SERVERS when set, else the system's
 * resolver (getaddrinfo, which also reads /etc/hosts).
 */
export async function addressesOf(
  servers: readonly string[],
  host: string,
): Promise<{ address: string; family: number }[]> {
  if (servers.length === 0) {
    try {
      return await lookup(host, { all: true });
    } catch (error) {
      if (isNoData(error)) return [];
      throw error;
    }
  }
  const resolver = dnsResolver(servers);
  const settle = (lookup: Promise<string[]>) =>
    lookup.catch((error: unknown) => {
      if (isNoData(error)) return [];
      throw error;
    });
  const [v4, v6] = await Promise.all([settle(resolver.resolve4(host)), settle(resolver.resolve6(host))]);
  return [...v4.map((address) => ({ address, family: 4 })), ...v6.map((address) => ({ address, family: 6 }))];
}

const isNoData = (error: unknown) =>
  error instanceof Error && 'code' in error && (error.code === 'ENODATA' || error.code === 'ENOTFOUND');
