import type { AuthenticationResult, Authenticator } from '../filters/index.js';
import type { ExecutionContext } from '../pipeline/index.js';

export interface ApiKeyIdentity {
  readonly subject: string;
  readonly grants?: readonly string[];
}

export interface ApiKeyAuthenticatorOptions {
  /** Header carrying the key; default `x-api-key`. */
  header?: string;
  /** Known keys, or a lookup (e.g. a database) returning the identity or undefined. */
  keys: Readonly<Record<string, ApiKeyIdentity>> | ((key: string) => ApiKeyIdentity | undefined | Promise<ApiKeyIdentity | undefined>);
}

/**
 * Authenticates by a static API key header. No header: anonymous. Unknown key: 401.
 *
 * @example
 * app.services.add(Authenticator, () => new ApiKeyAuthenticator({ keys: { 's3cret': { subject: 'ci', grants: ['orders:read'] } } }));
 */
export class ApiKeyAuthenticator implements Authenticator {
  readonly scheme = 'ApiKey';
  readonly #header: string;
  readonly #lookup: (key: string) => ApiKeyIdentity | undefined | Promise<ApiKeyIdentity | undefined>;

  constructor(options: ApiKeyAuthenticatorOptions) {
    this.#header = (options.header ?? 'x-api-key').toLowerCase();
    const keys = options.keys;
    if (typeof keys === 'function') this.#lookup = keys;
    else if (keys && typeof keys === 'object') {
      // Compare digests in constant time so response timing does not leak key prefixes.
      // node:crypto is loaded here, when a key table is made, not when the package is imported: a cold start
      // that uses no API keys never loads it.
      const { createHash, timingSafeEqual } = process.getBuiltinModule('node:crypto');
      const digest = (s: string) => createHash('sha256').update(s).digest();
      const table = Object.entries(keys).map(([k, id]) => ({ digest: digest(k), id }));
      this.#lookup = (key) => {
        const d = digest(key);
        let found: ApiKeyIdentity | undefined;
        for (const entry of table) if (timingSafeEqual(entry.digest, d)) found = entry.id;
        return found;
      };
    } else throw new TypeError('ApiKeyAuthenticator needs { keys }: an object of key → { subject, grants } or a lookup function.');
  }

  /** An API key in its header, for the OpenAPI document. */
  get securityScheme(): Readonly<Record<string, unknown>> {
    return { type: 'apiKey', in: 'header', name: this.#header };
  }

  authenticate(ctx: ExecutionContext): AuthenticationResult | Promise<AuthenticationResult> {
    const key = ctx.request.headers.get(this.#header);
    if (key === undefined) return NONE;
    const found = key === '' ? undefined : this.#lookup(key);
    if (found !== undefined && typeof (found as PromiseLike<unknown>).then === 'function') {
      return Promise.resolve(found).then((identity) => this.#result(identity));
    }
    return this.#result(found as ApiKeyIdentity | undefined);
  }

  #result(identity: ApiKeyIdentity | undefined): AuthenticationResult {
    if (!identity) return { kind: 'failure', detail: `The API key in ${this.#header} is not valid.` };
    return { kind: 'success', principal: { subject: identity.subject, grants: new Set(identity.grants ?? []), scheme: 'api-key' } };
  }
}

const NONE: AuthenticationResult = Object.freeze({ kind: 'none' });
