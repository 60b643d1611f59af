import type { AuthenticationResult, Authenticator } from '../filters/index.js';
import type { ExecutionContext, UserHook } from '../pipeline/index.js';
import { USER_CODE_FAILED, UserCodeFailed, callUserCode, failedMarker, isThenable } from '../pipeline/index.js';
import { usageError } from '../errors/index.js';

export interface ApiKeyIdentity {
  readonly subject: string;
  readonly grants?: readonly string[];
}

export interface ApiKeyAuthenticatorOptions {
  /** Header carrying the key; default `x-api-key`. */
  header?: string;
  /**
   * Known keys, or a lookup (e.g. a database) returning the identity or undefined (a promise of either is
   * waited for). A lookup that throws, rejects or answers anything else is logged, and the request is answered
   * 500 (`TRELLIS_AUTHENTICATION_BROKEN`): a key that cannot be checked is neither accepted nor called invalid.
   */
  keys: Readonly<Record<string, ApiKeyIdentity>> | ((key: string) => ApiKeyIdentity | undefined | Promise<ApiKeyIdentity | undefined>);
}

/** A lookup's answer, checked: an identity with a subject, or undefined (null too) for an unknown key. */
function identityOrNone(answer: unknown): ApiKeyIdentity | undefined {
  if (answer === undefined || answer === null) return undefined;
  const a = answer as Partial<{ subject: unknown; grants: unknown }>;
  if (
    typeof answer === 'object' &&
    typeof a.subject === 'string' &&
    a.subject !== '' &&
    (a.grants === undefined || (Array.isArray(a.grants) && a.grants.every((g) => typeof g === 'string')))
  ) {
    return answer as ApiKeyIdentity;
  }
  throw new TypeError('it must answer { subject, grants? } for a known key, or undefined');
}

const LOOKUP: UserHook<ApiKeyIdentity | undefined, typeof USER_CODE_FAILED> = {
  where: 'ApiKeyAuthenticatorOptions.keys',
  instead: 'the request was answered 500 (TRELLIS_AUTHENTICATION_BROKEN)',
  accept: identityOrNone,
  fallback: failedMarker,
};

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
  /** The lookup is the application's function (not the key table): called through the guard. */
  readonly #lookupIsUserCode: boolean;

  constructor(options: ApiKeyAuthenticatorOptions) {
    this.#header = (options.header ?? 'x-api-key').toLowerCase();
    const keys = options.keys;
    this.#lookupIsUserCode = typeof keys === 'function';
    if (typeof keys === 'function') this.#lookup = keys;
    else if (keys && typeof keys === 'object') {
      const table = Object.entries(keys).map(([key, id]) => {
        if (key === '') throw usageError('TRELLIS_INVALID_AUTH_OPTIONS', 'ApiKeyAuthenticator: an API key cannot be the empty string.');
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
    } else
      throw usageError(
        'TRELLIS_INVALID_AUTH_OPTIONS',
        'ApiKeyAuthenticator needs { keys }: an object of key → { subject, grants } or a lookup function.',
      );
  }

  /** An API key in its header, for the OpenAPI document. */
  get securityScheme(): Readonly<Record<string, unknown>> {
    return { type: 'apiKey', in: 'header', name: this.#header };
  }

  authenticate(ctx: ExecutionContext): AuthenticationResult | Promise<AuthenticationResult> {
    const key = ctx.request.headers.get(this.#header);
    if (key === undefined) return NONE;
    if (key === '') return this.#result(undefined);
    if (!this.#lookupIsUserCode) return this.#result(this.#lookup(key) as ApiKeyIdentity | undefined);
    const found = callUserCode(ctx.services, LOOKUP, () => this.#lookup(key), ctx.route.id);
    return isThenable(found) ? found.then((identity) => this.#result(identity)) : this.#result(found);
  }

  /** What an identity means; a lookup that broke (already logged) fails the authenticator without a second line. */
  #result(identity: ApiKeyIdentity | undefined | typeof USER_CODE_FAILED): AuthenticationResult {
    if (identity === USER_CODE_FAILED) throw new UserCodeFailed('The API key lookup failed.');
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
