// Which names in a `Host` header the harness answers to. A web page can point a name it controls at
// 127.0.0.1 (DNS rebinding) and so reach the harness as "its own origin"; such a name never matches here.
import { isIP } from 'node:net';

/** The `Host` header split into a lowercase hostname (IPv6 without brackets) and its port, or null when malformed. */
export function parseHostHeader(value: string): { hostname: string; port: string } | null {
  const host = value.trim().toLowerCase();
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]/\s@]+)(?::(\d{1,5}))?$/.exec(host);
  if (!match) return null;
  const hostname = match[1]!.startsWith('[') ? match[1]!.slice(1, -1) : match[1]!;
  if (match[1]!.startsWith('[') && isIP(hostname) !== 6) return null;
  return { hostname: hostname.replace(/\.$/, ''), port: match[2] ?? '' };
}

/** True for addresses and names that always mean this machine: 127.0.0.0/8, ::1, `localhost` and `*.localhost`. */
export function isLoopback(hostname: string): boolean {
  const name = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (isIP(name) === 4) return name.startsWith('127.');
  if (isIP(name) === 6) return name === '::1' || name === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(name);
  return false;
}

/**
 * Whether a hostname from `Host` may be served: IP literals (a page cannot rebind a literal address),
 * loopback names, and the allow-list — exact names, or `.example.com` for that name and every subdomain.
 *
 * @example
 * isAllowedHost('rebind.attacker.example', []); // false
 * isAllowedHost('devbox.internal', ['devbox.internal']); // true
 */
export function isAllowedHost(hostname: string, allowed: readonly string[]): boolean {
  if (isIP(hostname) !== 0 || isLoopback(hostname)) return true;
  return allowed.some((entry) => {
    const name = entry.toLowerCase().replace(/\.$/, '');
    return name.startsWith('.') ? hostname === name.slice(1) || hostname.endsWith(name) : hostname === name;
  });
}
