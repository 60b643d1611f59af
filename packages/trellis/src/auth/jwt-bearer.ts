import type { JSONWebKeySet, JWTPayload, JWTVerifyGetKey } from 'jose';
import type { AuthenticationResult, Authenticator } from '../filters/index.js';
import type { ExecutionContext } from '../pipeline/index.js';

/**
 * A JSON Web Key Set (RFC 7517): `{ keys: [...] }`. Trellis's own name for it, so the package's declarations
 * need no types of jose, which only the authenticator's code loads.
 */
export interface JsonWebKeySet {
  keys: object[];
}

export interface JwtBearerAuthenticatorOptions {
  /** An HS256 shared secret (at least 32 bytes). */
  secret?: string | Uint8Array;
  /** A JSON Web Key Set: the object itself, or the URL it is served at. */
  jwks?: JsonWebKeySet | URL | string;
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
  /** A JWT in `Authorization: Bearer`, for the OpenAPI document. */
  readonly securityScheme: Readonly<Record<string, unknown>> = Object.freeze({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  readonly #secret: Uint8Array | undefined;
  readonly #options: JwtBearerAuthenticatorOptions;
  /** jose is loaded on the first bearer token, so apps (and cold starts) that never see one never load it. */
  #verifier: Promise<{ jose: typeof import('jose'); key: Uint8Array | JWTVerifyGetKey }> | undefined;

  constructor(options: JwtBearerAuthenticatorOptions) {
    this.#options = options;
    if (options.secret !== undefined) {
      const secret = typeof options.secret === 'string' ? new TextEncoder().encode(options.secret) : options.secret;
      if (secret.length < 32) throw new RangeError('JwtBearerAuthenticator: an HS256 secret needs at least 32 bytes.');
      this.#secret = secret;
    } else if (typeof options.jwks === 'string' || options.jwks instanceof URL) {
      new URL(options.jwks);
    } else if (options.jwks && typeof options.jwks === 'object') {
      if (!Array.isArray(options.jwks.keys) || !options.jwks.keys.every((k) => typeof k === 'object' && k !== null))
        throw new TypeError('JwtBearerAuthenticator: a JSON Web Key Set is { keys: [...] }.');
    } else throw new TypeError('JwtBearerAuthenticator needs { secret } (HS256) or { jwks } (a key set or its URL).');
  }

  #verify(): Promise<{ jose: typeof import('jose'); key: Uint8Array | JWTVerifyGetKey }> {
    this.#verifier ??= import('jose').then((jose) => {
      const jwks = this.#options.jwks;
      const key =
        this.#secret ??
        (typeof jwks === 'string' || jwks instanceof URL
          ? jose.createRemoteJWKSet(new URL(jwks))
          : jose.createLocalJWKSet(jwks as JSONWebKeySet));
      return { jose, key };
    });
    return this.#verifier;
  }

  async authenticate(ctx: ExecutionContext): Promise<AuthenticationResult> {
    const header = ctx.request.headers.get('authorization');
    if (header === undefined) return { kind: 'none' };
    const match = /^Bearer +([A-Za-z0-9._~+/-]+=*)$/i.exec(header.trim());
    if (!match) return /^bearer\b/i.test(header) ? { kind: 'failure', detail: 'The bearer token is malformed.' } : { kind: 'none' };
    const o = this.#options;
    try {
      const { jose, key } = await this.#verify();
      const verifyOptions = {
        issuer: o.issuer,
        audience: o.audience,
        clockTolerance: o.clockToleranceSeconds ?? 5,
        algorithms: o.algorithms ?? (key instanceof Uint8Array ? ['HS256'] : undefined),
      };
      const { payload } =
        key instanceof Uint8Array
          ? await jose.jwtVerify(match[1]!, key, verifyOptions)
          : await jose.jwtVerify(match[1]!, key, verifyOptions);
      if (typeof payload.sub !== 'string' || payload.sub === '')
        return { kind: 'failure', detail: 'The bearer token has no subject (sub).' };
      return {
        kind: 'success',
        principal: {
          subject: payload.sub,
          grants: new Set(grantsOf(payload, o.grantsClaim ?? 'scope')),
          scheme: 'bearer',
          claims: payload,
        },
      };
    } catch (error) {
      return { kind: 'failure', detail: `The bearer token was rejected: ${(error as Error).message}` };
    }
  }
}
