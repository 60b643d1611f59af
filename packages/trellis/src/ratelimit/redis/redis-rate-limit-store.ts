import {
  EXACT_PERMIT_LIMIT,
  RateLimitFailureMode,
  RateLimitStoreUnavailableError,
  WINDOW_SEGMENTS,
  PolicyPlans,
  checkCost,
  checkPartition,
  whileUncounted,
} from '../index.js';
import { errorText } from '../../index.js';
import type { AcquireOptions, RateLimitClock, RateLimitDecision, RateLimitPolicy, RateLimitStore } from '../index.js';
import { checkLayoutOptions, clockMicros, counterArgs } from './counter-layout.js';
import { AcquireBatches, AcquireCall } from './acquire-batches.js';
import { FlightCall, FlightControl, type RedisOverflow } from './flight-control.js';
import { acquireTail, checkRedisKeyPrefix, counterKey, counterKeyHead } from './script-codec.js';
import { createRedisClient, luaScript, runScript, scriptRunner } from './redis-client.js';
import type { RedisScriptClient, ScriptRunner } from './redis-client.js';
import { usageError } from '../../errors/index.js';

const invalid = (message: string) => usageError('TRELLIS_INVALID_STORE_OPTIONS', message);
const outOfRange = (message: string) => usageError('TRELLIS_INVALID_STORE_OPTIONS', message, RangeError);

/**
 * Settings of {@link RedisRateLimitStore}; only `client` or `url` is required.
 *
 * @example
 * const options: RedisRateLimitStoreOptions = { client: new Redis(url), timeoutMs: 100, failureMode: 'failClosed' };
 */
export interface RedisRateLimitStoreOptions {
  /**
   * A connected client the store never closes: an ioredis `Redis` or `Cluster`, or a node-redis v5 client
   * (`createClient`) or cluster (`createCluster`). Give this or `url`.
   */
  readonly client?: RedisScriptClient;
  /** A `redis://` or `rediss://` URL; the store creates and owns an ioredis client tuned never to hang (see docs). */
  readonly url?: string;
  /** Prefix of every key; default `trellis:rl:`. Must not contain braces. */
  readonly keyPrefix?: string;
  /**
   * How long Redis may stay silent before an acquire gives up (failure mode), in milliseconds; default 200.
   * Counted from the acquire's start or from Redis's last answer, whichever is later, so a busy application
   * never gives up on a Redis that is answering.
   */
  readonly timeoutMs?: number;
  /** Default `failOpen`. */
  readonly failureMode?: RateLimitFailureMode;
  /** Most acquires waiting on Redis at once; default 1,000. */
  readonly maxInFlight?: number;
  /**
   * An acquire that finds `maxInFlight` acquires waiting: `'queue'` (default) waits for a free slot, under the
   * same timeout; `'reject'` rejects at once with `RateLimitStoreUnavailableError` (a 503), whatever the
   * failure mode, so an overload never admits requests unlimited.
   */
  readonly overflow?: RedisOverflow;
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

function positiveInteger(name: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw outOfRange(`${name} must be a positive integer (got ${String(value)})`);
  }
  return value;
}

const STORE = 'RedisRateLimitStore';

/** The event-emitter side of a client, which node-redis and ioredis both have. */
interface ErrorEmitter {
  listenerCount(event: 'error'): number;
  on(event: 'error', listener: (error: unknown) => void): unknown;
}

/** How often a client's errors are written out, at most, when the application did not listen for them. */
const CLIENT_ERROR_INTERVAL_MS = 60_000;

/** Deletes one counter (a script, so both client kinds and clusters send it alike). */
const RESET_SCRIPT = luaScript("return redis.call('DEL', KEYS[1])");

/**
 * Calls keep timing out and Redis has answered nothing for a while: said once per silence, with what to do.
 * A client that says it is ready but never sends (node-redis before 5.10 after a Redis restart) looks so.
 */
function warnStuck(silentMs: number, mode: RateLimitFailureMode): void {
  process.emitWarning(
    `Redis has answered no rate-limit call for ${Math.round(silentMs / 1000)} s while the client keeps accepting them; meanwhile ${whileUncounted(mode)}. ` +
      'Check that Redis is up and reachable. If it is, the client is stuck: node-redis before 5.10 can stay so after a Redis restart (upgrade it), or create a new client. ' +
      'This is said once until Redis answers again.',
    { type: 'RedisRateLimitStoreWarning' },
  );
}

/**
 * A client given without an `error` listener gets one. A node-redis client (an EventEmitter) with none ends
 * the process on its first connection error ("Unhandled 'error' event") when Redis goes away; the store
 * answers by its failure mode meanwhile, so the error is written to stderr, at most once a minute, with what
 * to do about it.
 */
function listenForErrors(client: RedisScriptClient): void {
  const emitter = client as Partial<ErrorEmitter>;
  if (typeof emitter.listenerCount !== 'function' || typeof emitter.on !== 'function' || emitter.listenerCount('error') > 0) return;
  let last = -Infinity;
  let held = 0;
  emitter.on('error', (error: unknown) => {
    const now = Date.now();
    if (now - last < CLIENT_ERROR_INTERVAL_MS) {
      held++;
      return;
    }
    last = now;
    const more = held > 0 ? ` (${held} more since the last such line)` : '';
    held = 0;
    process.emitWarning(
      `the Redis client reported an error: ${errorText(error)}${more}. Rate limits follow the store's failure mode until Redis answers again. ` +
        "Add your own client.on('error', …) listener to handle these errors yourself.",
      { type: 'RedisRateLimitStoreWarning' },
    );
  });
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
  readonly #runner: ScriptRunner;
  readonly #ownsClient: boolean;
  readonly #failureMode: RateLimitFailureMode;
  readonly #clock: RateLimitClock | undefined;
  readonly #flights: FlightControl;
  readonly #batches: AcquireBatches;
  /** What every acquire of a policy sends: its counters' key head and the script's arguments. */
  readonly #plans: PolicyPlans<{ readonly keyHead: string; readonly args: readonly string[] }>;

  constructor(options: RedisRateLimitStoreOptions) {
    if (options === null || typeof options !== 'object') {
      throw invalid('RedisRateLimitStore needs options with a `client` (ioredis or node-redis) or a `url`');
    }
    const { client, url } = options;
    if ((client === undefined) === (url === undefined)) {
      throw invalid('RedisRateLimitStore needs exactly one of `client` (an ioredis or node-redis client) or `url` (redis://host:port)');
    }
    const runner = client === undefined ? undefined : scriptRunner(client);
    const timeoutMs = positiveInteger('timeoutMs', options.timeoutMs, 200);
    const prefix = checkRedisKeyPrefix(options.keyPrefix ?? 'trellis:rl:');
    const mode = options.failureMode ?? RateLimitFailureMode.FailOpen;
    if (mode !== RateLimitFailureMode.FailOpen && mode !== RateLimitFailureMode.FailClosed) {
      throw outOfRange(`failureMode must be "failOpen" or "failClosed" (got ${JSON.stringify(mode)})`);
    }
    this.#failureMode = mode;
    const overflow = options.overflow ?? 'queue';
    if (overflow !== 'queue' && overflow !== 'reject') {
      throw outOfRange(`overflow must be "queue" or "reject" (got ${JSON.stringify(overflow)})`);
    }
    const maxInFlight = positiveInteger('maxInFlight', options.maxInFlight, 1_000);
    const exactLimit = positiveInteger('exactLimit', options.exactLimit, EXACT_PERMIT_LIMIT);
    const segments = positiveInteger('segments', options.segments, WINDOW_SEGMENTS);
    checkLayoutOptions(exactLimit, segments);
    this.#plans = new PolicyPlans(STORE, (policy) => ({
      keyHead: counterKeyHead(prefix, policy.key),
      args: counterArgs(policy, exactLimit, segments),
    }));
    if (options.clock !== undefined && typeof options.clock?.now !== 'function') {
      throw invalid('RedisRateLimitStore: clock must have a now() method returning milliseconds');
    }
    this.#clock = options.clock;
    this.#flights = new FlightControl(timeoutMs, maxInFlight, overflow, (silentMs) => warnStuck(silentMs, this.#failureMode));
    this.#ownsClient = client === undefined;
    if (client !== undefined) listenForErrors(client);
    // A client passed in is checked above; one for a URL is created only once every option is known good.
    this.#client = client ?? createRedisClient(url!, timeoutMs);
    this.#runner = runner ?? scriptRunner(this.#client);
    this.#batches = new AcquireBatches(this.#runner);
  }

  /** Which client library the store talks through (told from the client passed in). */
  get clientKind(): 'ioredis' | 'node-redis' {
    return this.#runner.kind;
  }

  /**
   * Takes `options.cost` permits (default 1) of `policy` for `partition`, or says when that many will be
   * free; a refusal spends nothing. Rejects with a TypeError for bad input (nothing is counted), an
   * AbortError when `options.signal` aborts first, and `RateLimitStoreUnavailableError` when Redis fails
   * under `failClosed` (or every slot is taken under `overflow: 'reject'`).
   */
  acquire(partition: string, policy: RateLimitPolicy, options?: AcquireOptions): Promise<RateLimitDecision> {
    let call: AcquireCall;
    try {
      checkPartition(STORE, partition);
      const plan = this.#plans.get(policy);
      const cost = checkCost(STORE, options?.cost);
      const tail = acquireTail(cost, this.#clock ? clockMicros(this.#clock) : '');
      call = new AcquireCall(this.#batches, counterKey(plan.keyHead, partition), plan.args, tail, policy, cost, this.#failureMode, options);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#start(call);
  }

  /**
   * Forgets the counter of `partition` + `policy.key` (its key is deleted): the caller starts afresh on that
   * limit. Rejects with a TypeError for bad input, and with `RateLimitStoreUnavailableError` when Redis does
   * not answer within `timeoutMs` or fails.
   *
   * @example
   * await store.reset('subject:alice', policy);
   */
  async reset(partition: string, policy: RateLimitPolicy): Promise<void> {
    checkPartition(STORE, partition);
    const key = counterKey(this.#plans.get(policy).keyHead, partition);
    await this.#start(new ResetCall(this.#runner, key, policy));
  }

  /** Sends a call under the timeout and the slots, or answers it at once while the client knows it cannot send. */
  #start(call: FlightCall): Promise<RateLimitDecision> {
    const answer = call.promise();
    const down = this.#runner.unavailable();
    if (down !== undefined) call.fail(new Error(down));
    else if (!this.#flights.start(call)) {
      call.refuse(new RateLimitStoreUnavailableError(`rate limit store busy: ${this.#flights.maxInFlight} calls already wait on Redis`));
    }
    return answer;
  }

  /** Closes the client if the store created it from a URL; a client passed in is left to its owner. */
  async close(): Promise<void> {
    if (this.#ownsClient) await (this.#client as { quit?(): Promise<unknown> }).quit?.().catch(() => undefined);
  }
}

/** A reset on its way to Redis: it fails closed whatever the store's failure mode (its answer is DEL's count). */
class ResetCall extends FlightCall {
  constructor(
    private readonly runner: ScriptRunner,
    private readonly key: string,
    policy: RateLimitPolicy,
  ) {
    super(policy, 1, RateLimitFailureMode.FailClosed, undefined);
  }

  send(): void {
    runScript(
      this.runner,
      RESET_SCRIPT,
      [this.key],
      [],
      (reply) => this.reply(reply),
      (error) => this.error(error),
    );
  }
}
