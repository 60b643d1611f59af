import type { JSONWebKeySet, JWTPayload, JWTVerifyGetKey } from 'jose';
import type { AuthenticationResult, Authenticator } from '../filters/index.js';
import type { ExecutionContext } from '../pipeline/index.js';
import { usageError } from '../errors/index.js';

/**
 * A JSON Web Key Set (RFC 7517): `{ keys: [...] }`. Trellis's own name for it, so the package's declarations
 * need no types of jose, which only the authenticator's code loads.
 */
export interface JsonWebKeySet {
  keys: object[];
}

interface JwtBearerKeyOptions {
  /** An HS256 shared secret (at least 32 bytes). */
  secret?: string | Uint8Array;
  /** A JSON Web Key Set: the object itself, or the URL it is served at. */
  jwks?: JsonWebKeySet | URL | string;
  /** The issuer (`iss`) tokens must name, or a list of those accepted; default any. */
  issuer?: string | string[];
  /** Claim holding the grants: a space-separated string or an array; default `scope`. */
  grantsClaim?: string;
  /** Allowed clock skew in seconds, for `exp`, `nbf` and `iat`; default 5. */
  clockToleranceSeconds?: number;
  algorithms?: string[];
}

/**
 * Settings of a `JwtBearerAuthenticator`: its key (`secret` or `jwks`) and who tokens must be for. `audience`
 * is required — a token signed by your identity provider for another of its apps verifies with the same key,
 * and only its `aud` claim tells it apart — unless `allowAnyAudience: true` says every audience is yours.
 */
export type JwtBearerAuthenticatorOptions = JwtBearerKeyOptions &
  (
    | {
        audience?: undefined;
        /** Accept tokens whatever their `aud`: only when the issuer signs tokens for this API alone. */
        allowAnyAudience: true;
      }
    | {
        /** The audience (`aud`) tokens must name — this API's identifier at the issuer — or a list of those accepted. */
        audience: string | string[];
        allowAnyAudience?: false;
      }
  );

function grantsOf(payload: JWTPayload, claim: string): string[] {
  const value = payload[claim];
  if (typeof value === 'string') return value.split(/\s+/).filter(Boolean);
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

/**
 * Authenticates `Authorization: Bearer <JWT>` with an HS256 secret or a JWKS (jose). No header: anonymous.
 * A token that does not verify, is for another audience, has no `exp`, has expired or was issued in the future
 * (`iat` past the clock tolerance): 401. Without `audience` (or `allowAnyAudience: true`) the authenticator is
 * refused with a `TypeError` whose `code` is `TRELLIS_JWT_AUDIENCE_REQUIRED`.
 *
 * @example
 * app.services.add(Authenticator, () => new JwtBearerAuthenticator({
 *   jwks: 'https://id.example.com/.well-known/jwks.json',
 *   issuer: 'https://id.example.com/',
 *   audience: 'https://orders.example.com',
 * }));
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
      if (secret.length < 32)
        throw usageError('TRELLIS_INVALID_AUTH_OPTIONS', 'JwtBearerAuthenticator: an HS256 secret needs at least 32 bytes.', RangeError);
      this.#secret = secret;
    } else if (typeof options.jwks === 'string' || options.jwks instanceof URL) {
      new URL(options.jwks);
    } else if (options.jwks && typeof options.jwks === 'object') {
      if (!Array.isArray(options.jwks.keys) || !options.jwks.keys.every((k) => typeof k === 'object' && k !== null))
        throw usageError('TRELLIS_INVALID_AUTH_OPTIONS', 'JwtBearerAuthenticator: a JSON Web Key Set is { keys: [...] }.');
    } else
      throw usageError(
        'TRELLIS_INVALID_AUTH_OPTIONS',
        'JwtBearerAuthenticator needs { secret } (HS256) or { jwks } (a key set or its URL).',
      );
    checkAudience(options);
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
      const clockTolerance = o.clockToleranceSeconds ?? 5;
      const verifyOptions = {
        issuer: o.issuer,
        audience: o.allowAnyAudience === true ? undefined : o.audience,
        // A token that never expires is good forever to whoever copies it.
        requiredClaims: ['exp'],
        clockTolerance,
        algorithms: o.algorithms ?? (key instanceof Uint8Array ? ['HS256'] : undefined),
      };
      const { payload } =
        key instanceof Uint8Array
          ? await jose.jwtVerify(match[1]!, key, verifyOptions)
          : await jose.jwtVerify(match[1]!, key, verifyOptions);
      // jose checks `iat` against the clock only with maxTokenAge, which would make `iat` required too.
      if (payload.iat !== undefined && payload.iat > Date.now() / 1000 + clockTolerance)
        return { kind: 'failure', detail: 'The bearer token was rejected: "iat" claim timestamp check failed (it should be in the past)' };
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

/** An audience to check tokens against, or the explicit `allowAnyAudience: true`; anything else is refused. */
function checkAudience(options: JwtBearerAuthenticatorOptions): void {
  const { audience, allowAnyAudience } = options as { audience?: unknown; allowAnyAudience?: unknown };
  const named =
    (typeof audience === 'string' && audience !== '') ||
    (Array.isArray(audience) && audience.length > 0 && audience.every((a) => typeof a === 'string' && a !== ''));
  let problem: string | undefined;
  if (allowAnyAudience === true) {
    if (audience !== undefined) problem = 'give either audience or allowAnyAudience: true, not both.';
  } else if (!named) {
    problem =
      `an audience is required, got ${audience === undefined ? 'none' : JSON.stringify(audience)}: give audience, the \`aud\` your ` +
      "tokens name for this API (audience: 'https://orders.example.com'), so that tokens your issuer signs for other apps " +
      'are refused — or allowAnyAudience: true if the issuer signs tokens for this API alone.';
  }
  if (problem !== undefined) {
    throw usageError('TRELLIS_JWT_AUDIENCE_REQUIRED', `JwtBearerAuthenticator: ${problem}`);
  }
}
