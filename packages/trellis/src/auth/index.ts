export { ApiKeyAuthenticator } from './api-key.js';
export type { ApiKeyAuthenticatorOptions, ApiKeyIdentity } from './api-key.js';
export { JwtBearerAuthenticator } from './jwt-bearer.js';
export type { JsonWebKeySet, JwtBearerAuthenticatorOptions } from './jwt-bearer.js';
