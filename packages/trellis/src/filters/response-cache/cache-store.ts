import { createToken } from '../../services/index.js';
import { usageError } from '../../errors/index.js';

/** One stored response. */
export interface CachedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[]>>;
  readonly body: Buffer;
  /** Wall-clock milliseconds when stored, and when it goes stale. */
  readonly storedAt: number;
  readonly expiresAt: number;
}

/**
 * Where the response cache keeps responses. The default is a bounded in-memory LRU. A store of your own is
 * called through Trellis's guard: a method that throws, rejects or answers something unusable is logged
 * (with the app's `Logger`) and the request is answered all the same — as a miss when `get` fails, without
 * storing when `set` fails, by `Date.now()` when `now` fails.
 */
export interface ResponseCacheStore {
  /** The entry stored under `key`, or undefined; a promise of either is waited for. */
  get(key: string): CachedResponse | undefined | PromiseLike<CachedResponse | undefined>;
  /** Stores an entry; a promise it returns is not waited for (the response goes out meanwhile). */
  set(key: string, value: CachedResponse): void | PromiseLike<void>;
  /** Wall-clock milliseconds the store judges freshness by; `Date.now()` when absent. It must answer at once. */
  now?(): number;
}
export const ResponseCacheStore = createToken<ResponseCacheStore>('ResponseCacheStore');

/** Milliseconds, injectable so tests control freshness. */
export interface CacheClock {
  now(): number;
}

/**
 * A least-recently-used in-memory store bounded by entry count and by total body bytes: the app's default
 * ResponseCacheStore.
 */
export class MemoryResponseCache implements ResponseCacheStore {
  readonly #entries = new Map<string, CachedResponse>();
  readonly #maxEntries: number;
  readonly #maxBytes: number;
  readonly #clock: CacheClock;
  #bytes = 0;

  constructor(options: { maxEntries?: number; maxBytes?: number; clock?: CacheClock } = {}) {
    this.#maxEntries = options.maxEntries ?? 1_000;
    this.#maxBytes = options.maxBytes ?? 32 * 1024 * 1024;
    this.#clock = options.clock ?? { now: Date.now };
    if (!(this.#maxEntries >= 1) || !(this.#maxBytes >= 1))
      throw usageError('TRELLIS_INVALID_ARGUMENT', 'MemoryResponseCache needs maxEntries and maxBytes >= 1.', RangeError);
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string): CachedResponse | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    if (entry.expiresAt <= this.#clock.now()) {
      this.#bytes -= entry.body.length;
      return undefined;
    }
    this.#entries.set(key, entry);
    return entry;
  }

  set(key: string, value: CachedResponse): void {
    if (value.body.length > this.#maxBytes) return;
    const old = this.#entries.get(key);
    if (old) {
      this.#bytes -= old.body.length;
      this.#entries.delete(key);
    }
    this.#entries.set(key, value);
    this.#bytes += value.body.length;
    for (const [k, v] of this.#entries) {
      if (this.#entries.size <= this.#maxEntries && this.#bytes <= this.#maxBytes) break;
      this.#entries.delete(k);
      this.#bytes -= v.body.length;
    }
  }

  /** The clock this store judges freshness by. */
  now(): number {
    return this.#clock.now();
  }
}
