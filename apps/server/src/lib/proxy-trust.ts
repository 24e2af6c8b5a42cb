import { BlockList, isIP } from 'node:net';

/**
 * Which reverse proxies the server believes about the client's address (`X-Forwarded-For`) and
 * the request id (`X-Request-Id`), as TRUST_PROXY sets it (decision 039):
 * - `false`: none; the socket's peer is the client;
 * - a hop count `n`: the `n` proxies in front of the server, whoever they are; the client is the
 *   `n`-th address from the right of `X-Forwarded-For` (1: the right-most, the one the proxy saw);
 * - addresses and CIDR blocks (and proxy-addr's names `loopback`, `linklocal`, `uniquelocal`): the
 *   client is the right-most address that is not one of them;
 * - `true`: every hop, so the left-most entry, which a client chooses behind a proxy that
 *   appends; kept for old settings, with a warning at start.
 */
export type ProxyTrust = false | true | number | string[];

/** proxy-addr's names for address ranges, as Fastify accepts them. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** Parses TRUST_PROXY; a string that is none of the forms answers why. */
export function parseProxyTrust(value: string): ProxyTrust | { error: string } {
  const text = value.trim().toLowerCase();
  if (['false', 'no', '0', ''].includes(text)) return false;
  if (['true', 'yes'].includes(text)) return true;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= 10 ? hops : { error: 'a hop count must be at most 10' };
  }
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  for (const entry of entries) {
    if (entry in NAMED_RANGES) continue;
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const maxBits = family === 6 ? 128 : 32;
    const bitsValid = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= maxBits);
    if (!family || !bitsValid || extra !== undefined) {
      return {
        error: `"${entry}" is not an address or CIDR block; use false, a hop count (1 behind one proxy), or the proxies' addresses`,
      };
    }
  }
  return entries;
}

/**
 * What Fastify is given: it walks `X-Forwarded-For` from the right while a hop is trusted. A hop
 * count is a function, as Fastify reads a bare number as "trust no hop" (it cannot tell a proxy
 * from a client that connects directly: a server behind a hop count must be reachable only
 * through its proxies).
 */
export function fastifyTrust(
  trust: ProxyTrust,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/** Whether the socket's peer is a trusted proxy, whose `X-Request-Id` the server keeps. */
export function trustsPeer(trust: ProxyTrust): (peer: string | undefined) => boolean {
  if (trust === false) return () => false;
  if (trust === true || typeof trust === 'number') return (peer) => peer !== undefined;
  const blocks = new BlockList();
  for (const entry of trust.flatMap((item) => NAMED_RANGES[item] ?? [item])) {
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) blocks.addAddress(address, family);
    else blocks.addSubnet(address, Number(bits), family);
  }
  return (peer) => {
    if (!peer) return false;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(peer)?.[1];
    const address = mapped ?? peer;
    return blocks.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * The key per-address limits count a client under: an IPv4 address as it is, an IPv6 address by
 * its /64 (one home or one server is given a whole /64, so counting single addresses would let
 * one client take 2^64 turns).
 */
export function addressKey(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1];
  if (mapped) return mapped;
  if (isIP(ip) !== 6) return ip;
  const [head = '', tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // A dotted IPv4 tail (`64:ff9b::192.0.2.1`) stands for two groups.
  const tailGroups = right.length + (right.at(-1)?.includes('.') ? 1 : 0);
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(8 - left.length - tailGroups).fill('0'), ...right]
    : left;
  const prefix = groups.slice(0, 4).map((group) => Number.parseInt(group, 16).toString(16));
  return `${prefix.join(':')}::/64`;
}

/** A proxy's request id is kept only when it is short and plain (it goes into logs and headers). */
export function acceptableRequestId(value: unknown): value is string {
  return typeof value === 'string' && /^[\w.:-]{1,128}$/.test(value);
}
