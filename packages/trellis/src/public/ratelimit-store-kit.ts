/**
 * `trellis/ratelimit/store-kit`: for writing a `RateLimitStore` of your own — the checks and answers the shipped
 * stores use, the error that makes a 503, and the contract suite (node:test, with the optional peer dependency
 * fast-check) that holds a store to the in-process store's decisions.
 */
export { acquireAbortedError, checkCost, checkPartition, checkPolicy, failOpenDecision } from '../ratelimit/index.js';
export { RateLimitStoreUnavailableError } from '../ratelimit/index.js';
export type { AcquireOptions, RateLimitClock } from '../ratelimit/index.js';
export { rateLimitStoreContract } from '../ratelimit/index.js';
