import parseForwarded from 'forwarded-parse';
import proxyaddr from 'proxy-addr';

/**
 * Which proxies in front of the app are trusted to say who the client is (in `X-Forwarded-For` or
 * `Forwarded`): `false` (default) trusts none, so the client is the peer of the connection; `true` trusts
 * every hop; a number trusts that many hops next to the app; addresses and subnets (`'10.0.0.0/8'`,
 * `['loopback', 'uniquelocal']`) trust those; a function decides per address and hop (0 is the peer).
 */
export type TrustProxy = boolean | number | string | readonly string[] | ((address: string, hop: number) => boolean);

/** Turns the setting into proxy-addr's trust function, refusing settings that make no sense. */
export function compileTrust(trust: TrustProxy | undefined): ((address: string, hop: number) => boolean) | null {
  if (trust === undefined || trust === false) return null;
  if (trust === true) return () => true;
  if (typeof trust === 'number') {
    if (!Number.isSafeInteger(trust) || trust < 0) throw new RangeError(`trustProxy as a number counts hops: a whole number ≥ 0, got ${String(trust)}.`);
    return (_address, hop) => hop < trust;
  }
  if (typeof trust === 'function') return trust;
  try {
    return proxyaddr.compile(typeof trust === 'string' ? trust.split(',').map((s) => s.trim()) : [...trust]);
  } catch (error) {
    throw new TypeError(`trustProxy: ${(error as Error).message}`, { cause: error });
  }
}

/** The `for=` addresses of an RFC 7239 `Forwarded` header, client first, as an `X-Forwarded-For` list; '' when unreadable. */
function forwardedFor(header: string): string {
  try {
    return parseForwarded(header)
      .map((element) => element.for)
      .filter((value): value is string => typeof value === 'string')
      .map((value) => value.replace(/^\[(.*)\](:\d+)?$/, '$1').replace(/^(\d+\.\d+\.\d+\.\d+):\d+$/, '$1'))
      .join(', ');
  } catch {
    return '';
  }
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
  let list = Array.isArray(xff) ? xff.join(', ') : xff;
  if (list === undefined) {
    const forwarded = headers.forwarded;
    if (forwarded !== undefined) list = forwardedFor(Array.isArray(forwarded) ? forwarded.join(', ') : forwarded);
  }
  const request = { connection: { remoteAddress }, socket: { remoteAddress }, headers: list ? { 'x-forwarded-for': list } : {} };
  return proxyaddr(request as unknown as Parameters<typeof proxyaddr>[0], trust);
}
