// Who may drive the harness. It runs code with the developer's credentials, so it answers only requests
// addressed to it by a name a web page cannot rebind, only same-origin (or non-browser) calls to its API,
// and, when a token is set, only API calls that carry it.
import { createHash, timingSafeEqual } from 'node:crypto';
import { problem, type ExecutionContext, type Filter, type Next } from 'trellis';
import { isAllowedHost, parseHostHeader } from './hosts.js';

/** Runs before every other stage, so a refused request reaches no limiter, no handler and no body read. */
const GUARD_ORDER = 10;

/** Options of {@link requestGuard}. */
export interface RequestGuardOptions {
  /** Host names served besides IP addresses and loopback names; `.example.com` also admits its subdomains. */
  allowedHosts?: readonly string[];
  /** When set, every `/api/` request must send `Authorization: Bearer <token>`. */
  token?: string;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

function bearer(header: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  return match?.[1];
}

/** Why a request comes from another site, or null when it comes from this origin or from no browser at all. */
function crossSiteReason(ctx: ExecutionContext, host: string | undefined): string | null {
  const site = ctx.request.headers.get('sec-fetch-site');
  if (site === 'cross-site' || site === 'same-site') return `the browser marked it Sec-Fetch-Site: ${site}`;
  const origin = ctx.request.headers.get('origin');
  if (origin === undefined) return null;
  let originHost: string | null = null;
  try {
    const url = new URL(origin);
    if (url.protocol === 'http:' || url.protocol === 'https:') originHost = url.host;
  } catch {
    originHost = null;
  }
  if (originHost !== null && host !== undefined && originHost === host.trim().toLowerCase()) return null;
  return `its Origin ${JSON.stringify(origin)} is not this harness`;
}

/**
 * The harness's request guard, an application filter:
 * - a `Host` that is neither an IP address, a loopback name nor an allowed name gets 403 (DNS rebinding);
 * - a request to an `/api/` route that a browser sends from another origin (`Origin`, `Sec-Fetch-Site`) gets 403;
 * - with a token, a request to an `/api/` route without `Authorization: Bearer <token>` gets 401.
 *
 * "An `/api/` route" is the route the request was matched to, however its path was spelled.
 *
 * @example
 * app.filter(requestGuard({ allowedHosts: ['devbox.internal'], token: process.env.TRELLIS_HARNESS_TOKEN }));
 */
export function requestGuard(options: RequestGuardOptions = {}): Filter {
  const allowed = [...(options.allowedHosts ?? [])];
  const token = options.token === undefined ? null : digest(options.token);
  // Nearly every request names the same host: remember the last one allowed rather than parse it each time.
  let lastAllowed: string | undefined;
  return {
    name: 'harness-request-guard',
    order: GUARD_ORDER,
    run(ctx: ExecutionContext, next: Next) {
      const host = ctx.request.headers.get('host');
      if (host !== undefined && host !== lastAllowed) {
        const parsed = parseHostHeader(host);
        if (parsed !== null && isAllowedHost(parsed.hostname, allowed)) lastAllowed = host;
      }
      if (host !== undefined && host !== lastAllowed) {
        ctx.refuse(
          problem(
            403,
            `This harness does not answer to the host ${JSON.stringify(host)}. It answers to IP addresses, localhost and the names allowed with --allowed-host (allowedHosts).`,
            { host },
          ),
        );
        return next();
      }
      // Decided on the route the router matched, not on the path as sent: `/%61pi/…` or `//api/…` reach the same
      // handler as `/api/…`, so they meet the same checks.
      if (!ctx.route.path.startsWith('/api/')) return next();
      const reason = crossSiteReason(ctx, host);
      if (reason !== null) {
        ctx.refuse(
          problem(
            403,
            `The harness API refuses requests from other web pages: ${reason}. Call it from its own page or from a test client.`,
          ),
        );
        return next();
      }
      if (token !== null) {
        const sent = bearer(ctx.request.headers.get('authorization'));
        if (sent === undefined || !timingSafeEqual(digest(sent), token)) {
          const detail =
            sent === undefined
              ? 'This harness needs its token: send "Authorization: Bearer <token>" (the token is printed when the harness starts; the page takes it from the URL printed there).'
              : "The token sent is not this harness's token.";
          ctx.refuse(problem(401, detail), { 'www-authenticate': 'Bearer realm="trellis-harness"' });
        }
      }
      return next();
    },
  };
}
