import { parseCookie, stringifySetCookie } from 'cookie';
import { createToken } from '../services/index.js';
import type { ServiceResolver } from '../services/index.js';
import { usageError } from '../errors/index.js';
import type { RequestHeaders, ResponseHeaders } from './headers.js';

// Not an import, so a bundle that packs this module unused never loads crypto (CONTRIBUTING.md, "Cold starts").
const crypto = () => process.getBuiltinModule('node:crypto');

/** The keys of signed cookies, newest first (`createApp({ cookieSecrets })`). */
export const CookieKeys = createToken<readonly Buffer[]>('CookieKeys');

/** The shortest key a signed cookie takes: 32 bytes, as many as the signature. */
export const MIN_COOKIE_KEY_BYTES = 32;

/** Attributes of a cookie a response sets (`ctx.cookies.set`). */
export interface CookieOptions {
  /** Seconds until the browser forgets the cookie (`Max-Age`); 0 forgets it at once. */
  readonly maxAge?: number;
  /** When the browser forgets the cookie (`Expires`); `maxAge` wins in browsers that read both. */
  readonly expires?: Date;
  /** The paths the browser sends it to; default `/` (every path of the site). */
  readonly path?: string;
  /** The host and its subdomains the browser sends it to; default: only the host that set it. */
  readonly domain?: string;
  /** Sent over HTTPS only (and `http://localhost`). Required for `__Secure-` and `__Host-` names, `sameSite: 'none'` and `partitioned`. */
  readonly secure?: boolean;
  /** Hidden from the page's scripts (`document.cookie`). */
  readonly httpOnly?: boolean;
  /** Whether the browser sends it on requests from other sites; browsers default to `'lax'`. */
  readonly sameSite?: 'strict' | 'lax' | 'none';
  /** Kept apart per top-level site (CHIPS): an embedded service's cookie is not shared across the sites embedding it. */
  readonly partitioned?: boolean;
  /** Which cookies a browser that keeps too many evicts first (`Priority`; Chromium reads it). */
  readonly priority?: 'low' | 'medium' | 'high';
  /**
   * Sign the value with the app's newest cookie key (`createApp({ cookieSecrets })`): `ctx.cookies.getSigned`
   * returns it only while it is unchanged. The value stays readable; signing proves who wrote it, it hides nothing.
   */
  readonly signed?: boolean;
}

const invalid = (message: string) => usageError('TRELLIS_INVALID_COOKIE', message);

/**
 * The cookies of one request: those the client sent, and those the response sets. Every `set` and `clear`
 * adds a `Set-Cookie` header to whatever response is written, refusals and errors included.
 *
 * @example
 * ctx.cookies.set('session', id, { signed: true, httpOnly: true, secure: true, sameSite: 'lax', maxAge: 3600 });
 * const id = ctx.cookies.getSigned('session'); // undefined when missing or changed by anyone but the app
 */
export class Cookies {
  #sent: Record<string, string | undefined> | undefined;

  /** @param owner the request's context: its request headers, response headers and services. */
  constructor(
    private readonly owner: {
      readonly request: { readonly headers: RequestHeaders };
      readonly responseHeaders: ResponseHeaders;
      readonly services: ServiceResolver;
    },
  ) {}

  /**
   * Every cookie the client sent, by name, percent-decoded (of two with one name the first: browsers send the
   * one of the longest path first).
   */
  all(): Readonly<Record<string, string>> {
    if (this.#sent === undefined) {
      const header = this.owner.request.headers.get('cookie');
      this.#sent = header === undefined ? {} : parseCookie(header);
    }
    return this.#sent as Readonly<Record<string, string>>;
  }

  /** The value of the cookie `name` as the client sent it, or undefined. */
  get(name: string): string | undefined {
    return Object.hasOwn(this.all(), name) ? this.all()[name] : undefined;
  }

  /**
   * The value of the signed cookie `name` when its signature holds under one of the app's cookie keys (the
   * newest signs, older ones still verify: rotate by putting a new key first); undefined when the cookie is
   * missing, unsigned or was changed by anyone but the app — treat it as absent.
   */
  getSigned(name: string): string | undefined {
    const signed = this.get(name);
    const dot = signed === undefined ? -1 : signed.lastIndexOf('.');
    if (dot < 0) return undefined;
    const value = signed!.slice(0, dot);
    const given = Buffer.from(signed!.slice(dot + 1), 'base64url');
    const { timingSafeEqual } = crypto();
    for (const key of this.#keys(name)) {
      const expected = signature(key, name, value);
      if (given.length === expected.length && timingSafeEqual(given, expected)) return value;
    }
    return undefined;
  }

  /**
   * Sets the cookie `name` to `value` (any string: it is percent-encoded where a cookie cannot hold it). Throws
   * a TypeError (`TRELLIS_INVALID_COOKIE`) for a cookie browsers would drop: a name that is not a token, a
   * `__Secure-` or `__Host-` name without `secure` (and for `__Host-`, with a `domain` or a path other than `/`),
   * `sameSite: 'none'` or `partitioned` without `secure`.
   */
  set(name: string, value: string, options: CookieOptions = {}): void {
    if (typeof value !== 'string') throw invalid(`The value of cookie "${name}" must be a string, got ${typeof value}.`);
    const { signed, ...attributes } = options;
    const path = attributes.path ?? '/';
    checkAttributes(name, { ...attributes, path });
    const stored = signed === true ? `${value}.${signature(this.#keys(name)[0]!, name, value).toString('base64url')}` : value;
    let line: string;
    try {
      line = stringifySetCookie({ ...attributes, name, value: stored, path }, { encode: encodeURIComponent });
    } catch (error) {
      throw usageError('TRELLIS_INVALID_COOKIE', `Cookie "${name}": ${(error as Error).message}.`, TypeError, error);
    }
    this.owner.responseHeaders.append('set-cookie', line);
  }

  /** Tells the browser to forget the cookie `name`: give the `path` and `domain` it was set with. */
  clear(name: string, options: Pick<CookieOptions, 'path' | 'domain' | 'secure' | 'sameSite' | 'partitioned'> = {}): void {
    this.set(name, '', { ...options, maxAge: 0, expires: new Date(0) });
  }

  #keys(name: string): readonly Buffer[] {
    const keys = this.owner.services.tryGet(CookieKeys) ?? [];
    if (keys.length === 0) throw invalid(`Cookie "${name}" is signed, but the app has no keys: createApp({ cookieSecrets: [key] }).`);
    return keys;
  }
}

/** Checks what browsers check of a cookie before they keep it (RFC 6265bis, cookie prefixes). */
function checkAttributes(name: string, options: CookieOptions & { path: string }): void {
  const lower = typeof name === 'string' ? name.toLowerCase() : '';
  const secureOnly = (why: string) => {
    if (options.secure !== true) throw invalid(`Cookie "${name}": ${why} needs secure: true; browsers drop it otherwise.`);
  };
  if (lower.startsWith('__secure-')) secureOnly('a __Secure- name');
  if (lower.startsWith('__host-')) {
    secureOnly('a __Host- name');
    if (options.domain !== undefined || options.path !== '/') {
      throw invalid(`Cookie "${name}": a __Host- name takes no domain and only path "/"; browsers drop it otherwise.`);
    }
  }
  if (options.sameSite === 'none') secureOnly("sameSite: 'none'");
  if (options.partitioned === true) secureOnly('partitioned');
  if (options.maxAge !== undefined && !Number.isInteger(options.maxAge)) {
    throw invalid(`Cookie "${name}": maxAge must be a whole number of seconds, got ${String(options.maxAge)}.`);
  }
}

function signature(key: Buffer, name: string, value: string): Buffer {
  return crypto().createHmac('sha256', key).update(`${name}=${value}`).digest();
}

/** Checks `createApp({ cookieSecrets })`: keys of at least 32 bytes, newest first. */
export function cookieKeys(secrets: unknown): readonly Buffer[] {
  if (secrets === undefined) return [];
  const keys = Array.isArray(secrets) ? secrets : [];
  if (!Array.isArray(secrets) || keys.length === 0 || keys.some((k) => typeof k !== 'string' && !Buffer.isBuffer(k))) {
    throw usageError('TRELLIS_INVALID_APP_OPTIONS', 'cookieSecrets must be a non-empty array of keys (strings or Buffers), newest first.');
  }
  return keys.map((key: string | Buffer, i) => {
    const bytes = Buffer.from(key);
    if (bytes.length < MIN_COOKIE_KEY_BYTES) {
      throw usageError(
        'TRELLIS_INVALID_APP_OPTIONS',
        `cookieSecrets[${i}] has ${bytes.length} bytes; a key needs at least ${MIN_COOKIE_KEY_BYTES} (e.g. crypto.randomBytes(32).toString('base64url')).`,
        RangeError,
      );
    }
    return bytes;
  });
}
