// Which addresses a widget image may fetch from when remote images are allowed: public unicast only. Loopback
// (the harness itself), private networks, link-local (cloud metadata at 169.254.169.254), carrier-grade NAT,
// documentation, multicast and reserved ranges are refused, as are the IPv6 forms of such IPv4 addresses and the
// translation ranges that carry an IPv4 address.
import { BlockList, isIP } from 'node:net';

const NOT_PUBLIC = new BlockList();
for (const [address, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  NOT_PUBLIC.addSubnet(address, prefix, 'ipv4');
}
for (const [address, prefix] of [
  ['::', 127], // :: and ::1 (IPv4-mapped addresses are checked against the IPv4 ranges above)
  ['64:ff9b::', 96], // NAT64
  ['64:ff9b:1::', 48],
  ['100::', 64], // discard
  ['2001::', 23], // IETF protocol assignments, Teredo among them
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local
  ['ff00::', 8], // multicast
] as const) {
  NOT_PUBLIC.addSubnet(address, prefix, 'ipv6');
}

/**
 * Whether an IP address is a public unicast one a widget image may fetch from.
 *
 * @example
 * isPublicAddress('93.184.215.14'); // true
 * isPublicAddress('127.0.0.1');     // false
 * isPublicAddress('fd00::1');       // false
 */
export function isPublicAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return false;
  return !NOT_PUBLIC.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
