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
      const table = Object.entries(keys).map(([key, id]) => {
        if (key === '') throw new TypeError('ApiKeyAuthenticator: an API key cannot be the empty string.');
        return { key, id };
      });
      // A key longer than every known one matches none; refusing it at once bounds the work a request can cause
      // (what it tells is only that no key is that long).
      const longest = Math.max(...table.map((entry) => entry.key.length));
      this.#lookup = (presented) => {
        if (presented.length > longest) return undefined;
        // Every key is compared, each in constant time: timing tells nothing about which key, or how much of one, matched.
        let found: ApiKeyIdentity | undefined;
        for (const entry of table) if (sameKey(presented, entry.key)) found = entry.id;
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

/**
 * Whether two keys are equal, in time that depends only on the presented key's length: every character is
 * compared (against the known key's characters in turn, so the loop never stops early or reads past it) and the
 * differences are gathered without a branch. No node:crypto, so a cold start does not load it.
 */
export function sameKey(presented: string, known: string): boolean {
  let difference = presented.length ^ known.length;
  const length = known.length;
  for (let i = 0; i < presented.length; i++) difference |= presented.charCodeAt(i) ^ known.charCodeAt(i % length);
  return difference === 0;
}
