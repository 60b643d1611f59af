// IP addresses and subnets, read the way Node.js's net.isIP reads addresses (dotted IPv4 without leading zeros,
// IPv6 in any of its written forms, an IPv4 tail, a zone), without loading node:net.

/** An address as bytes: 4 for IPv4, 16 for IPv6. */
export type IpBytes = readonly number[];

/** The bytes of a dotted IPv4 address (`203.0.113.7`), or null when it is not one. */
export function ipv4Bytes(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes: number[] = [];
  for (const part of parts) {
    if (part.length === 0 || part.length > 3 || (part.length > 1 && part[0] === '0')) return null;
    let value = 0;
    for (let i = 0; i < part.length; i++) {
      const c = part.charCodeAt(i) - 0x30;
      if (c < 0 || c > 9) return null;
      value = value * 10 + c;
    }
    if (value > 255) return null;
    bytes.push(value);
  }
  return bytes;
}

const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;
const ZONE = /^[0-9a-zA-Z.:-]+$/;

/** The 16-bit words of colon-separated groups; the last may be a dotted IPv4 address when `ipv4Last`. */
function wordsOf(groups: readonly string[], ipv4Last: boolean): number[] | null {
  const words: number[] = [];
  for (let i = 0; i < groups.length; i++) {
    const group = groups[i]!;
    if (ipv4Last && i === groups.length - 1 && group.includes('.')) {
      const v4 = ipv4Bytes(group);
      if (v4 === null) return null;
      words.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
    } else if (HEX_GROUP.test(group)) words.push(parseInt(group, 16));
    else return null;
  }
  return words;
}

/** The 16 bytes of an IPv6 address (`2001:db8::1`, `::ffff:192.0.2.1`, `fe80::1%eth0`), or null. */
export function ipv6Bytes(text: string): number[] | null {
  let address = text;
  const percent = address.indexOf('%');
  if (percent !== -1) {
    if (!ZONE.test(address.slice(percent + 1))) return null;
    address = address.slice(0, percent);
  }
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const groupsOf = (half: string): string[] => (half === '' ? [] : half.split(':'));
  let words: number[] | null;
  if (halves.length === 1) {
    words = wordsOf(groupsOf(address), true);
    if (words === null || words.length !== 8) return null;
  } else {
    // `::` stands for one or more zero words.
    const head = wordsOf(groupsOf(halves[0]!), false);
    const tail = wordsOf(groupsOf(halves[1]!), true);
    if (head === null || tail === null || head.length + tail.length > 7) return null;
    words = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  }
  const bytes: number[] = [];
  for (const word of words) bytes.push(word >> 8, word & 0xff);
  return bytes;
}

/** 4 or 6 for an IPv4 or IPv6 address, 0 for anything else (as net.isIP answers). */
export function ipVersion(text: string): 0 | 4 | 6 {
  if (ipv4Bytes(text) !== null) return 4;
  return text.includes(':') && ipv6Bytes(text) !== null ? 6 : 0;
}

/** The address's bytes, an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) as the IPv4 address it stands for. */
export function addressBytes(text: string): number[] | null {
  const v4 = ipv4Bytes(text);
  if (v4 !== null) return v4;
  if (!text.includes(':')) return null;
  const v6 = ipv6Bytes(text);
  return v6 !== null && isIpv4Mapped(v6) ? v6.slice(12) : v6;
}

function isIpv4Mapped(bytes: IpBytes): boolean {
  for (let i = 0; i < 10; i++) if (bytes[i] !== 0) return false;
  return bytes[10] === 0xff && bytes[11] === 0xff;
}

/** A subnet: an address's first `bits` bits. */
export interface Subnet {
  readonly bytes: IpBytes;
  readonly bits: number;
}

/** Whether `address` (from {@link addressBytes}) is inside `subnet`; an IPv4 address is never in an IPv6 subnet. */
export function inSubnet(address: IpBytes, subnet: Subnet): boolean {
  if (address.length !== subnet.bytes.length) return false;
  let bits = subnet.bits;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((address[i]! & mask) !== (subnet.bytes[i]! & mask)) return false;
  }
  return true;
}

/** Prefix length of a contiguous IPv4 netmask (`255.255.0.0` → 16), or null. */
function netmaskBits(bytes: IpBytes): number | null {
  let bits = 0;
  let ended = false;
  for (const byte of bytes) {
    for (let b = 7; b >= 0; b--) {
      if ((byte >> b) & 1) {
        if (ended) return null;
        bits++;
      } else ended = true;
    }
  }
  return bits;
}

/**
 * A subnet as written in a trust list: an address (`10.1.2.3`, `::1`), a prefix (`10.0.0.0/8`, `fc00::/7`) or an
 * IPv4 netmask (`10.0.0.0/255.0.0.0`). An IPv4-mapped IPv6 subnet (`::ffff:10.0.0.0/104`) is the IPv4 subnet it
 * stands for. Throws a TypeError naming the entry when it is none of these.
 */
export function parseSubnet(entry: string): Subnet {
  const slash = entry.lastIndexOf('/');
  const text = slash === -1 ? entry : entry.slice(0, slash);
  const v4 = ipv4Bytes(text);
  const bytes = v4 ?? (text.includes(':') ? ipv6Bytes(text) : null);
  if (bytes === null) throw new TypeError(`invalid IP address: ${text}`);
  const max = bytes.length * 8;
  let bits: number | null = max;
  if (slash !== -1) {
    const range = entry.slice(slash + 1);
    if (/^[0-9]+$/.test(range)) bits = parseInt(range, 10);
    else {
      const mask = v4 === null ? null : ipv4Bytes(range);
      bits = mask === null ? null : netmaskBits(mask);
    }
  }
  if (bits === null || bits <= 0 || bits > max) throw new TypeError(`invalid range on address: ${entry}`);
  if (bytes.length === 16 && isIpv4Mapped(bytes)) {
    // The IPv4 addresses it holds; a prefix shorter than the mapping's own 96 bits holds no IPv4 address as such.
    return bits >= 96 ? { bytes: bytes.slice(12), bits: bits - 96 } : { bytes: [], bits: 0 };
  }
  return { bytes, bits };
}
