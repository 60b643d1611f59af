export { Authenticator } from './authenticator.js';
export type { AuthenticationResult } from './authenticator.js';
export { authenticationFilter } from './authentication-filter.js';
