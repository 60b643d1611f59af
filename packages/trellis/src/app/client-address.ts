import parseForwarded from 'forwarded-parse';
import { aBoolean, callUserCodeSync, type FailureLog, type UserHook } from '../pipeline/index.js';
import { addressBytes, inSubnet, ipVersion, parseSubnet, type Subnet } from './ip-address.js';
import { usageError } from '../errors/index.js';

/**
 * Which proxies in front of the app are trusted to say who the client is (in `X-Forwarded-For` or
 * `Forwarded`): `false` (default) trusts none, so the client is the peer of the connection; `true` trusts
 * every hop; a number trusts that many hops next to the app; addresses and subnets (`'10.0.0.0/8'`,
 * `['loopback', 'uniquelocal']`) trust those; a function decides per address and hop (0 is the peer).
 */
export type TrustProxy = boolean | number | string | readonly string[] | ((address: string, hop: number) => boolean);

/** Names that stand for the usual private ranges in a trust list. */
const NAMED_RANGES: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

/** The trust function of a list of addresses, subnets and range names. */
function trustSubnets(entries: readonly string[]): (address: string) => boolean {
  if (entries.length === 0) throw new TypeError('an empty list trusts no proxy: use false');
  const subnets: Subnet[] = entries.flatMap((entry) => NAMED_RANGES[entry] ?? [entry]).map(parseSubnet);
  return (address) => {
    const bytes = addressBytes(address);
    return bytes !== null && subnets.some((subnet) => inSubnet(bytes, subnet));
  };
}

/** Turns the setting into a trust function, refusing settings that make no sense. */
export function compileTrust(trust: TrustProxy | undefined): ((address: string, hop: number) => boolean) | null {
  if (trust === undefined || trust === false) return null;
  if (trust === true) return () => true;
  if (typeof trust === 'number') {
    if (!Number.isSafeInteger(trust) || trust < 0)
      throw usageError(
        'TRELLIS_INVALID_APP_OPTIONS',
        `trustProxy as a number counts hops: a whole number ≥ 0, got ${String(trust)}.`,
        RangeError,
      );
    return (_address, hop) => hop < trust;
  }
  if (typeof trust === 'function') return trust;
  try {
    if (typeof trust === 'string') return trustSubnets(trust.split(',').map((s) => s.trim()));
    if (!Array.isArray(trust)) throw new TypeError('unsupported trust argument');
    return trustSubnets([...(trust as readonly string[])]);
  } catch (error) {
    throw usageError('TRELLIS_INVALID_APP_OPTIONS', `trustProxy: ${(error as Error).message}`, TypeError, error);
  }
}

const TRUST_PROXY: UserHook<boolean> = {
  where: 'AppOptions.trustProxy',
  instead: 'that hop was not trusted (the client is the address it reported from)',
  accept: aBoolean,
  fallback: () => false,
};

/**
 * A `trustProxy` function, called through the guard: one that throws or answers anything but true or false
 * (a promise included) is logged, and the hop is not trusted.
 */
export function guardedTrust(trust: (address: string, hop: number) => boolean, log: FailureLog): (address: string, hop: number) => boolean {
  return (address, hop) => callUserCodeSync(log, TRUST_PROXY, () => trust(address, hop), `hop ${hop}, ${address}`);
}

/**
 * An address as proxies and gateways write it, as the IP address alone: `203.0.113.7:8080` → `203.0.113.7`,
 * `[2001:db8::1]:443` → `2001:db8::1`, a single-host prefix `192.168.0.1/32` → `192.168.0.1`. Anything that is
 * then not an IPv4 or IPv6 address (`unknown`, an obfuscated `_hidden` identifier, a host name) is
 * `undefined`: it never stands for a client.
 *
 * @example
 * normalizeAddress('[2001:db8::1]:443'); // '2001:db8::1'
 * normalizeAddress('unknown');           // undefined
 */
export function normalizeAddress(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  // The common case, a plain address (every gateway's sourceIp), is answered without rewriting it.
  if (ipVersion(value) !== 0) return value;
  const address = value
    .trim()
    .replace(/^\[([^\]]*)\](:\d+)?$/, '$1')
    .replace(/^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/, '$1')
    .replace(/^(\d{1,3}(?:\.\d{1,3}){3})\/32$/, '$1')
    .replace(/^([0-9a-fA-F:.]*:[0-9a-fA-F:.]*)\/128$/, '$1');
  return ipVersion(address) === 0 ? undefined : address;
}

/** The `for=` values of an RFC 7239 `Forwarded` header, client first; none when it is unreadable. */
function forwardedFor(header: string): string[] {
  try {
    return parseForwarded(header)
      .map((element) => element.for)
      .filter((value): value is string => typeof value === 'string');
  } catch {
    return [];
  }
}

/**
 * Forwarded-for entries, client first, each as an address alone, starting after the nearest entry that is not
 * an address: hops beyond an `unknown` one cannot be told apart, so the walk ends at the hop that reported it.
 */
function addressesOf(entries: readonly string[]): string[] {
  const addresses = entries.map(normalizeAddress);
  return addresses.slice(addresses.lastIndexOf(undefined) + 1) as string[];
}

/**
 * The client's address: the connection's peer, unless trusted proxies say who they forwarded for. Reads
 * `X-Forwarded-For`, else `Forwarded`, walking from the peer towards the client while each hop is trusted.
 */
export function clientAddress(
  remoteAddress: string | undefined,
  headers: Record<string, string | string[] | undefined>,
  trust: ((address: string, hop: number) => boolean) | null,
): string | undefined {
  if (trust === null || remoteAddress === undefined) return remoteAddress;
  const xff = headers['x-forwarded-for'];
  const forwarded = headers.forwarded;
  const entries =
    xff !== undefined
      ? (Array.isArray(xff) ? xff.join(',') : xff).split(',')
      : forwarded !== undefined
        ? forwardedFor(Array.isArray(forwarded) ? forwarded.join(', ') : forwarded)
        : [];
  // From the peer (hop 0) towards the client: the first hop not trusted is the client; if every hop is, the last.
  const hops = [remoteAddress, ...addressesOf(entries).reverse()];
  for (let hop = 0; hop < hops.length - 1; hop++) if (!trust(hops[hop]!, hop)) return hops[hop];
  return hops[hops.length - 1];
}
