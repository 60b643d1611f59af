import { createLocalJWKSet, createRemoteJWKSet, jwtVerify } from 'jose';
import type { JSONWebKeySet, JWTPayload, JWTVerifyGetKey } from 'jose';
import type { AuthenticationResult, Authenticator } from '../filters/index.js';
import type { ExecutionContext } from '../pipeline/index.js';

export interface JwtBearerAuthenticatorOptions {
  /** An HS256 shared secret (at least 32 bytes). */
  secret?: string | Uint8Array;
  /** A JSON Web Key Set: the object itself, or the URL it is served at. */
  jwks?: JSONWebKeySet | URL | string;
  issuer?: string | string[];
  audience?: string | string[];
  /** Claim holding the grants: a space-separated string or an array; default `scope`. */
  grantsClaim?: string;
  /** Allowed clock skew in seconds; default 5. */
  clockToleranceSeconds?: number;
  algorithms?: string[];
}

function grantsOf(payload: JWTPayload, claim: string): string[] {
  const value = payload[claim];
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

/**
 * Authenticates `Authorization: Bearer <JWT>` with an HS256 secret or a JWKS (jose). No header: anonymous.
 * A token that does not verify: 401.
 *
 * @example
 * app.services.add(Authenticator, () => new JwtBearerAuthenticator({ jwks: 'https://id.example.com/.well-known/jwks.json', issuer: 'https://id.example.com/' }));
 */
export class JwtBearerAuthenticator implements Authenticator {
  readonly scheme = 'Bearer';
  readonly #key: Uint8Array | JWTVerifyGetKey;
  readonly #options: JwtBearerAuthenticatorOptions;

  constructor(options: JwtBearerAuthenticatorOptions) {
    this.#options = options;
    if (options.secret !== undefined) {
      const secret = typeof options.secret === 'string' ? new TextEncoder().encode(options.secret) : options.secret;
      if (secret.length < 32) throw new RangeError('JwtBearerAuthenticator: an HS256 secret needs at least 32 bytes.');
      this.#key = secret;
    } else if (typeof options.jwks === 'string' || options.jwks instanceof URL) {
      this.#key = createRemoteJWKSet(new URL(options.jwks));
    } else if (options.jwks && typeof options.jwks === 'object') {
      this.#key = createLocalJWKSet(options.jwks);
    } else throw new TypeError('JwtBearerAuthenticator needs { secret } (HS256) or { jwks } (a key set or its URL).');
  }

  async authenticate(ctx: ExecutionContext): Promise<AuthenticationResult> {
    const header = ctx.request.headers.get('authorization');
    if (header === undefined) return { kind: 'none' };
    const match = /^Bearer +([A-Za-z0-9._~+/-]+=*)$/i.exec(header.trim());
    if (!match) return /^bearer\b/i.test(header) ? { kind: 'failure', detail: 'The bearer token is malformed.' } : { kind: 'none' };
    const o = this.#options;
    try {
      const verifyOptions = {
        issuer: o.issuer,
        audience: o.audience,
        clockTolerance: o.clockToleranceSeconds ?? 5,
        algorithms: o.algorithms ?? (this.#key instanceof Uint8Array ? ['HS256'] : undefined),
      };
      const { payload } =
        this.#key instanceof Uint8Array
          ? await jwtVerify(match[1]!, this.#key, verifyOptions)
          : await jwtVerify(match[1]!, this.#key, verifyOptions);
      if (typeof payload.sub !== 'string' || payload.sub === '') return { kind: 'failure', detail: 'The bearer token has no subject (sub).' };
      return {
        kind: 'success',
        principal: { subject: payload.sub, grants: new Set(grantsOf(payload, o.grantsClaim ?? 'scope')), scheme: 'bearer', claims: payload },
      };
    } catch (error) {
      return { kind: 'failure', detail: `The bearer token was rejected: ${(error as Error).message}` };
    }
  }
}
