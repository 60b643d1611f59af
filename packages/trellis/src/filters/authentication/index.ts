export { Authenticator } from '../../pipeline/index.js';
export type { AuthenticationResult } from '../../pipeline/index.js';
export { authenticationFilter } from './authentication-filter.js';
