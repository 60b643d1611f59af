import type { FailureLog, HttpMethod, UserHook } from '../../pipeline/index.js';
import { aBoolean, callUserCodeSync } from '../../pipeline/index.js';
import { usageError } from '../../errors/index.js';

const invalid = (message: string) => usageError('TRELLIS_INVALID_CORS_OPTIONS', message);

/**
 * Which origins may read responses: every one, a list (exact origins or patterns), or a function. The function
 * must answer at once with true or false; one that throws or answers anything else (a promise included) is
 * logged, and the origin is not allowed.
 */
export type CorsOrigins = '*' | readonly (string | RegExp)[] | ((origin: string) => boolean);

/**
 * Cross-origin settings of a route (the `Cors` annotation) or of the whole app (`createApp({ cors })`).
 *
 * @example
 * const cors: CorsOptions = { origins: ['https://app.example.com', /^https:\/\/[a-z0-9-]+\.example\.com$/], credentials: true };
 */
export interface CorsOptions {
  /** Origins allowed to read responses: `'*'`, a list of origins (`https://app.example.com`) or RegExps, or a function. */
  readonly origins: CorsOrigins;
  /**
   * Let the browser send cookies and HTTP authentication, and read the response then; default false. Needs
   * `origins` to name who may (a list, RegExps or a function): with `'*'` it is refused.
   */
  readonly credentials?: boolean;
  /** How long a browser may cache a preflight answer, in seconds; default 600 (browsers cap it: Chromium at 7200). */
  readonly maxAgeSeconds?: number;
  /** Response headers a page may read beyond the safelisted ones; default the rate-limit fields and `Retry-After`. */
  readonly exposedHeaders?: readonly string[];
  /** Request headers a page may send; default every header its preflight asks for. */
  readonly allowedHeaders?: readonly string[];
  /** Methods a page may use; default every method the path has a handler for. */
  readonly methods?: readonly HttpMethod[];
}

/** The response headers a page may read by default: the rate-limit fields, so a client can pace itself. */
export const DEFAULT_EXPOSED_HEADERS: readonly string[] = Object.freeze([
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
]);

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const METHODS: readonly string[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/** Settings checked once and kept ready for every request. */
export class CorsPolicy {
  readonly #allows: (origin: string, log: FailureLog) => boolean;
  /** Any origin (`'*'`): `Access-Control-Allow-Origin: *` on every response; otherwise an allowed request's own origin. */
  readonly anyOrigin: boolean;
  readonly credentials: boolean;
  readonly maxAge: string;
  readonly exposedHeaders: string;
  readonly allowedHeaders: string | undefined;
  readonly methods: string | undefined;

  constructor(options: CorsOptions, where: string) {
    if (options === null || typeof options !== 'object')
      throw invalid(`${where}: CORS settings must be an object such as { origins: ['https://app.example.com'] }.`);
    const {
      origins,
      credentials = false,
      maxAgeSeconds = 600,
      exposedHeaders = DEFAULT_EXPOSED_HEADERS,
      allowedHeaders,
      methods,
    } = options;
    this.#allows = originTest(origins, where);
    if (typeof credentials !== 'boolean') throw invalid(`${where}: credentials must be true or false, got ${String(credentials)}.`);
    if (origins === '*' && credentials) throw anyOriginWithCredentials(where);
    if (!Number.isSafeInteger(maxAgeSeconds) || maxAgeSeconds < 0)
      throw invalid(`${where}: maxAgeSeconds must be a whole number of seconds >= 0, got ${String(maxAgeSeconds)}.`);
    this.anyOrigin = origins === '*';
    this.credentials = credentials;
    this.maxAge = String(maxAgeSeconds);
    this.exposedHeaders = headerList(exposedHeaders, 'exposedHeaders', where);
    this.allowedHeaders = allowedHeaders === undefined ? undefined : headerList(allowedHeaders, 'allowedHeaders', where);
    // eslint-disable-next-line @typescript-eslint/no-unsafe-argument -- Array.isArray narrows a readonly array to any[] (TypeScript #17002); the checks run for JavaScript callers
    if (methods !== undefined && (!Array.isArray(methods) || methods.some((m) => !METHODS.includes(m)))) {
      throw invalid(`${where}: methods must be a list of ${METHODS.join(', ')}, got ${JSON.stringify(methods)}.`);
    }
    this.methods = methods?.join(', ');
  }

  /** Whether a page of `origin` may read the response; `log` is where an `origins` function's failure is written. */
  allows(origin: string, log: FailureLog): boolean {
    return this.#allows(origin, log);
  }
}

/**
 * `origins: '*'` with `credentials: true` would let every website read a signed-in user's answers; browsers
 * refuse a literal `*` with credentials, so honouring it would mean echoing every origin. Refused, with a code.
 */
function anyOriginWithCredentials(where: string): TypeError {
  const message =
    `${where}: origins '*' cannot go with credentials: true — every website could then read the answers of a signed-in user. ` +
    "Name the pages that may: list the origins (['https://app.example.com']), give a RegExp (/^https:\\/\\/[a-z0-9-]+\\.example\\.com$/) " +
    'or a function ((origin) => boolean).';
  return usageError('TRELLIS_CORS_ANY_ORIGIN_WITH_CREDENTIALS', message);
}

function headerList(value: unknown, field: string, where: string): string {
  if (!Array.isArray(value) || value.some((h) => typeof h !== 'string' || !TOKEN.test(h))) {
    throw invalid(`${where}: ${field} must be a list of header names, got ${JSON.stringify(value)}.`);
  }
  return value.join(', ');
}

/** An origin as browsers serialise it: scheme, host and port, lower case, no path and no trailing slash. */
function serialisedOrigin(value: string, where: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid(`${where}: ${JSON.stringify(value)} is not an origin such as "https://app.example.com".`);
  }
  if (url.origin === 'null' || url.origin !== value.replace(/\/$/, '').toLowerCase()) {
    throw invalid(`${where}: ${JSON.stringify(value)} is not an origin such as "https://app.example.com" (scheme, host and port only).`);
  }
  return url.origin;
}

const ORIGINS: UserHook<boolean> = {
  where: 'CorsOptions.origins',
  instead: 'the origin was not allowed',
  accept: aBoolean,
  fallback: () => false,
};

function originTest(origins: CorsOrigins, where: string): (origin: string, log: FailureLog) => boolean {
  if (origins === '*') return () => true;
  if (typeof origins === 'function') return (origin, log) => callUserCodeSync(log, ORIGINS, () => origins(origin), origin);
  if (!Array.isArray(origins))
    throw invalid(`${where}: origins must be '*', a list of origins or RegExps, or a function, got ${JSON.stringify(origins)}.`);
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  for (const o of origins) {
    if (o instanceof RegExp) patterns.push(new RegExp(o.source, o.flags.replace(/[gy]/g, '')));
    else if (typeof o === 'string') exact.add(serialisedOrigin(o, where));
    else throw invalid(`${where}: origins must hold origins (strings) or RegExps, got ${String(o)}.`);
  }
  return (origin) => exact.has(origin) || patterns.some((p) => p.test(origin));
}
