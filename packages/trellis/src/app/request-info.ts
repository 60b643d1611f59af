import type { RequestInfo } from '../pipeline/index.js';
import { RequestHeaders } from '../pipeline/index.js';
import { clientAddress } from './client-address.js';

/** How a request's client address is found: proxy-addr's trust function, or null to trust no proxy. */
export type TrustFunction = ((address: string, hop: number) => boolean) | null;

/** Request facts, parsed on demand. */
export class LazyRequestInfo implements RequestInfo {
  #query: URLSearchParams | undefined;
  #headers: RequestHeaders | undefined;
  #clientAddress: string | undefined | null = null;

  constructor(
    readonly method: string,
    readonly url: string,
    readonly path: string,
    private readonly queryString: string,
    private readonly rawHeaders: Record<string, string | string[] | undefined>,
    readonly remoteAddress: string | undefined,
    private readonly trust: TrustFunction,
  ) {}

  get clientAddress(): string | undefined {
    if (this.#clientAddress === null) this.#clientAddress = clientAddress(this.remoteAddress, this.rawHeaders, this.trust);
    return this.#clientAddress;
  }

  get query(): URLSearchParams {
    this.#query ??= new URLSearchParams(this.queryString);
    return this.#query;
  }

  get headers(): RequestHeaders {
    this.#headers ??= new RequestHeaders(this.rawHeaders);
    return this.#headers;
  }
}

/** Splits a request target into path and query; null when the path's percent-encoding is broken. */
export function splitTarget(url: string): { path: string; query: string } | null {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  const query = q === -1 ? '' : url.slice(q + 1);
  if (!path.startsWith('/') || (path.includes('%') && !decodes(path))) return null;
  return { path, query };
}

/**
 * Whether a path's percent-encoding decodes (every `%` starts an escape, and the escapes spell UTF-8). The
 * decoded text is used, not only the exception: a bundler that takes `decodeURIComponent` for a pure function
 * drops a call whose result is unused, and with it the check.
 */
function decodes(path: string): boolean {
  try {
    return decodeURIComponent(path).length >= 0;
  } catch {
    return false;
  }
}
