import type { ExecutionContext, Principal } from './context.js';
import { createToken } from '../services/index.js';

/** What one authenticator concluded about a request. */
export type AuthenticationResult =
  | { readonly kind: 'none' }
  | { readonly kind: 'success'; readonly principal: Principal }
  | { readonly kind: 'failure'; readonly detail: string };

/**
 * Establishes who is calling. Register any number with `RegistrationType.Add`; they are asked in
 * registration order: the first that recognises credentials decides (success or 401), none means anonymous.
 * `authenticate` may answer with a promise. One that throws, rejects or answers something else is logged and
 * the request is answered 500 (`TRELLIS_AUTHENTICATION_BROKEN`): a caller is never taken as anonymous because
 * an authenticator broke.
 */
export interface Authenticator {
  /** Named in `WWW-Authenticate` on a 401 (e.g. `Bearer`, `ApiKey`). */
  readonly scheme: string;
  /**
   * How an OpenAPI document (`trellis/openapi`) describes the credentials it reads: an OpenAPI Security Scheme
   * Object such as `{ type: 'apiKey', in: 'header', name: 'x-api-key' }`. Without it the document says
   * `{ type: 'http', scheme }`.
   */
  readonly securityScheme?: Readonly<Record<string, unknown>>;
  authenticate(ctx: ExecutionContext): AuthenticationResult | Promise<AuthenticationResult>;
}

/** Service token for authenticators. */
export const Authenticator = createToken<Authenticator>('Authenticator');
