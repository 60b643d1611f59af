import { EXACT_PERMIT_LIMIT, RateLimitStoreUnavailableError, WINDOW_SEGMENTS, acquireAbortedError, checkPartition, checkPolicy, failOpenDecision } from '../index.js';
import type { AcquireOptions, RateLimitClock, RateLimitDecision, RateLimitPolicy, RateLimitStore } from '../index.js';
import { checkKeyPrefix, counterKeyParts, escapeName } from './counter-key.js';
import { checkCounterLayout, checkLayoutOptions, clockMicros, counterLayout } from './counter-layout.js';
import { FailureWarning, type RateLimitStoreLogger } from './failure-warning.js';
import { SLIDING_WINDOW_SCRIPT, SLIDING_WINDOW_SHA } from './sliding-window-script.js';
import { decodeReply } from './script-codec.js';
import { createRedisClient } from './redis-client.js';
import type { RedisScriptClient } from './redis-client.js';

/**
 * What happens when Redis is slow or unreachable.
 *
 * @example
 * new RedisRateLimitStore({ client, failureMode: RedisFailureMode.FailClosed });
 */
export const RedisFailureMode = {
  /** Allow the request unlimited and log a (rate-limited) warning. The default. */
  FailOpen: 'failOpen',
  /** Reject with `RateLimitStoreUnavailableError`, which the framework answers with a 503 problem. */
  FailClosed: 'failClosed',
} as const;
export type RedisFailureMode = (typeof RedisFailureMode)[keyof typeof RedisFailureMode];

/**
 * Settings of {@link RedisRateLimitStore}; only `client` or `url` is required.
 *
 * @example
 * const options: RedisRateLimitStoreOptions = { client: new Redis(url), timeoutMs: 100, failureMode: 'failClosed' };
 */
export interface RedisRateLimitStoreOptions {
  /** A connected ioredis `Redis` or `Cluster` (the store never closes it). Give this or `url`. */
  readonly client?: RedisScriptClient;
  /** A `redis://` or `rediss://` URL; the store creates and owns a client tuned never to hang (see docs). */
  readonly url?: string;
  /** Prefix of every key; default `trellis:rl:`. Must not contain braces. */
  readonly keyPrefix?: string;
  /** Longest wait for one acquire, in milliseconds; default 200. */
  readonly timeoutMs?: number;
  /** Default `failOpen`. */
  readonly failureMode?: RedisFailureMode;
  /** Receives the failure warnings; default `console`. */
  readonly logger?: RateLimitStoreLogger;
  /** At most one warning per this many milliseconds; default 10,000. */
  readonly warnIntervalMs?: number;
  /** Limits up to this many permits are exact (one record per admission instant); default 128, as in-process. */
  readonly exactLimit?: number;
  /** Larger limits count in this many segments per window (a permit may return one segment late); default 128. */
  readonly segments?: number;
  /**
   * Takes time from this clock (milliseconds) instead of the Redis server; for tests only (keys then live
   * at least a minute of real time, which has nothing to do with this clock's). By default the script reads
   * the server's `TIME`, so clock skew between application processes cannot matter.
   */
  readonly clock?: RateLimitClock;
}

/** What every acquire of one policy sends, derived once per policy object. */
interface CounterPlan {
  readonly key: string;
  readonly permitLimit: number;
  readonly windowSeconds: number;
  readonly keyHead: string;
  readonly keyTail: string;
  /** The same counter's key under the previous value layout, read once when the counter is created. */
  readonly previousKeyTail: string;
  readonly limitArg: string;
  readonly windowArg: string;
  /** Segments per window, '0' for an exact window. */
  readonly segmentsArg: string;
  /** The value layout's byte and struct formats (see counter-layout.ts). */
  readonly layoutArgs: readonly [string, string, string];
}

function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new RangeError(`${name} must be a positive integer (got ${String(value)})`);
  }
  return value;
}

const STORE = 'RedisRateLimitStore';

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * A `RateLimitStore` on Redis: the same exact sliding window as the in-process store, shared by every
 * process that uses the same Redis. Each acquire is one atomic Lua script (EVALSHA, falling back to EVAL
 * when the server has not cached it), one round trip, answering allowed/remaining/reset/retryAfter.
 *
 * @example
 * import { RedisRateLimitStore } from 'trellis/ratelimit/redis';
 *
 * const store = new RedisRateLimitStore({ url: process.env.REDIS_URL, keyPrefix: 'shop:rl:' });
 * app.services.add(RateLimitStore, () => store, { type: RegistrationType.Replace });
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #client: RedisScriptClient;
  readonly #ownsClient: boolean;
  readonly #prefix: string;
  readonly #timeoutMs: number;
  readonly #failureMode: RedisFailureMode;
  readonly #exactLimit: number;
  readonly #segments: number;
  readonly #clock: RateLimitClock | undefined;
  readonly #warning: FailureWarning;
  readonly #plans = new WeakMap<RateLimitPolicy, CounterPlan>();

  constructor(options: RedisRateLimitStoreOptions) {
    if (options === null || typeof options !== 'object') {
      throw new TypeError('RedisRateLimitStore needs options with a `client` (ioredis) or a `url`');
    }
    const { client, url } = options;
    if ((client === undefined) === (url === undefined)) {
      throw new TypeError('RedisRateLimitStore needs exactly one of `client` (an ioredis client) or `url` (redis://host:port)');
    }
    if (client !== undefined && (typeof client.evalsha !== 'function' || typeof client.eval !== 'function')) {
      throw new TypeError('RedisRateLimitStore: `client` must be an ioredis Redis or Cluster (it needs evalsha and eval)');
    }
    this.#timeoutMs = positiveInteger('timeoutMs', options.timeoutMs, 200);
    this.#prefix = checkKeyPrefix(options.keyPrefix ?? 'trellis:rl:');
    const mode = options.failureMode ?? RedisFailureMode.FailOpen;
    if (mode !== RedisFailureMode.FailOpen && mode !== RedisFailureMode.FailClosed) {
      throw new RangeError(`failureMode must be "failOpen" or "failClosed" (got ${JSON.stringify(mode)})`);
    }
    this.#failureMode = mode;
    this.#exactLimit = positiveInteger('exactLimit', options.exactLimit, EXACT_PERMIT_LIMIT);
    this.#segments = positiveInteger('segments', options.segments, WINDOW_SEGMENTS);
    checkLayoutOptions(this.#exactLimit, this.#segments);
    if (options.clock !== undefined && typeof options.clock?.now !== 'function') {
      throw new TypeError('RedisRateLimitStore: clock must have a now() method returning milliseconds');
    }
    this.#clock = options.clock;
    const now = options.clock ? () => options.clock!.now() : () => performance.now();
    this.#warning = new FailureWarning(options.logger ?? console, positiveInteger('warnIntervalMs', options.warnIntervalMs, 10_000), now);
    this.#ownsClient = client === undefined;
    this.#client = client ?? createRedisClient(url!, this.#timeoutMs);
  }

  /** Takes one permit of `policy` for `partition`, or says when one will be free. */
  acquire(partition: string, policy: RateLimitPolicy, options?: AcquireOptions): Promise<RateLimitDecision> {
    const signal = options?.signal;
    let plan: CounterPlan;
    let key: string;
    let previousKey: string;
    let now: string | undefined;
    try {
      if (signal?.aborted) throw acquireAbortedError(signal);
      checkPartition(STORE, partition);
      plan = this.#plan(policy);
      const name = escapeName(partition);
      key = plan.keyHead + name + plan.keyTail;
      previousKey = plan.keyHead + name + plan.previousKeyTail;
      now = this.#clock ? clockMicros(this.#clock) : undefined;
    } catch (error) {
      return Promise.reject(error);
    }
    // Hot path: one promise of our own, inline callbacks, and a plain timer (Node keeps timers of one duration
    // in one list, so setting and clearing one is O(1) and nothing outlives the call).
    return new Promise<RateLimitDecision>((resolve, reject) => {
      let settled = false;
      const timer = setTimeout(() => {
        if (settled) return;
        settled = true;
        if (onAbort) signal?.removeEventListener('abort', onAbort);
        this.#failInto(new Error(`no answer within ${this.#timeoutMs} ms`), policy, resolve, reject);
      }, this.#timeoutMs);
      let onAbort: (() => void) | undefined;
      if (signal !== undefined) {
        onAbort = () => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          reject(acquireAbortedError(signal));
        };
        signal.addEventListener('abort', onAbort, { once: true });
      }
      this.#evaluate(key, previousKey, plan, now).then(
        (reply) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          if (onAbort) signal?.removeEventListener('abort', onAbort);
          const decision = decodeReply(reply, policy.permitLimit);
          if (decision === undefined) this.#failInto(new Error(`unexpected script reply ${JSON.stringify(reply)}`), policy, resolve, reject);
          else resolve(decision);
        },
        (error: unknown) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          if (onAbort) signal?.removeEventListener('abort', onAbort);
          this.#failInto(error, policy, resolve, reject);
        },
      );
    });
  }

  /** Closes the client if the store created it from a URL; a client passed in is left to its owner. */
  async close(): Promise<void> {
    if (this.#ownsClient) await this.#client.quit?.().catch(() => undefined);
  }

  /** Validates a policy once and keeps what every acquire of it needs (policies are long-lived objects). */
  #plan(policy: RateLimitPolicy): CounterPlan {
    const cached = this.#plans.get(policy);
    if (cached && cached.key === policy.key && cached.permitLimit === policy.permitLimit && cached.windowSeconds === policy.windowSeconds) {
      return cached;
    }
    checkPolicy(STORE, policy);
    const windowMicros = Math.max(1, Math.round(policy.windowSeconds * 1_000_000));
    const exact = policy.permitLimit <= this.#exactLimit;
    checkCounterLayout(policy);
    const layout = counterLayout(policy.permitLimit, windowMicros, exact ? 0 : this.#segments);
    const { head, tail, previousTail } = counterKeyParts(this.#prefix, policy.key);
    const plan: CounterPlan = {
      key: policy.key,
      permitLimit: policy.permitLimit,
      windowSeconds: policy.windowSeconds,
      keyHead: head,
      keyTail: tail,
      previousKeyTail: previousTail,
      limitArg: String(policy.permitLimit),
      windowArg: String(windowMicros),
      segmentsArg: exact ? '0' : String(this.#segments),
      layoutArgs: [layout.format, layout.headerFormat, layout.recordFormat],
    };
    this.#plans.set(policy, plan);
    return plan;
  }

  #evaluate(key: string, previousKey: string, plan: CounterPlan, now: string | undefined): Promise<unknown> {
    const status = this.#client.status;
    if (status === 'reconnecting' || status === 'close' || status === 'end') {
      return Promise.reject(new Error(`the Redis connection is ${status}`));
    }
    let sent: Promise<unknown>;
    try {
      sent =
        now === undefined
          ? this.#client.evalsha(SLIDING_WINDOW_SHA, 2, key, previousKey, plan.limitArg, plan.windowArg, plan.segmentsArg, ...plan.layoutArgs)
          : this.#client.evalsha(SLIDING_WINDOW_SHA, 2, key, previousKey, plan.limitArg, plan.windowArg, plan.segmentsArg, ...plan.layoutArgs, now);
    } catch (error) {
      return Promise.reject(error);
    }
    return sent.catch((error: unknown) => {
      if (!describe(error).startsWith('NOSCRIPT')) throw error;
      return now === undefined
        ? this.#client.eval(SLIDING_WINDOW_SCRIPT, 2, key, previousKey, plan.limitArg, plan.windowArg, plan.segmentsArg, ...plan.layoutArgs)
        : this.#client.eval(SLIDING_WINDOW_SCRIPT, 2, key, previousKey, plan.limitArg, plan.windowArg, plan.segmentsArg, ...plan.layoutArgs, now);
    });
  }

  /** Applies the failure mode: resolves a fail-open decision or rejects with the typed error; warns either way. */
  #failInto(error: unknown, policy: RateLimitPolicy, resolve: (d: RateLimitDecision) => void, reject: (e: unknown) => void): void {
    const open = this.#failureMode === RedisFailureMode.FailOpen;
    const reason = describe(error);
    this.#warning.report(
      `RedisRateLimitStore: Redis failed (${reason}); ${open ? 'allowing requests without a limit (failOpen)' : 'refusing requests with 503 (failClosed)'}`,
    );
    if (!open) {
      reject(new RateLimitStoreUnavailableError(`rate limit store unavailable: ${reason}`, { cause: error }));
      return;
    }
    // What a fresh counter would say, as the in-process store does when it fails open.
    resolve(failOpenDecision(policy.permitLimit, policy.windowSeconds));
  }
}
