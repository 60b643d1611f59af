// The errors room's surface for sibling rooms: every room of the framework may import it, and it imports none.
export { USAGE_ERRORS, usageError, type UsageErrorCode } from './usage-error.js';
