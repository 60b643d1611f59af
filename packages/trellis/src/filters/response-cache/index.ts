export { MemoryResponseCache, ResponseCacheStore } from './cache-store.js';
export type { CacheClock, CachedResponse } from './cache-store.js';
export { responseCacheFilter } from './response-cache-filter.js';
