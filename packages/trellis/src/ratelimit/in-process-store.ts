import { ExpiryQueue } from './sliding-window-expiry-queue.js';
import { SlidingWindowCounter } from './sliding-window.js';
import { windowShape, type WindowShape } from './window-shape.js';
import { checkCost, checkPartition, checkPolicy, failOpenDecision, isWholeCount, monotonicClock } from './store-kit.js';
import type { AcquireOptions, RateLimitClock, RateLimitDecision, RateLimitPolicy, RateLimitStore } from './types.js';
import { usageError } from '../errors/index.js';

const invalid = (message: string) => usageError('TRELLIS_INVALID_STORE_OPTIONS', message);

/** Options of {@link InProcessRateLimitStore}. */
export interface InProcessRateLimitStoreOptions {
  /** Most partitions counted at once; beyond it new partitions pass unlimited. Default 10,000. */
  readonly maxTrackedPartitions?: number;
  /** Where time comes from, in monotonic milliseconds. Default {@link monotonicClock}. */
  readonly clock?: RateLimitClock;
}

/**
 * One tracked partition. It is itself the counter of the first policy seen for it (most partitions meet one
 * policy, so that saves an object each); other policies' counters live in `others`.
 */
class PartitionEntry extends SlidingWindowCounter {
  others: Map<string, SlidingWindowCounter> | undefined = undefined;

  constructor(
    readonly partition: string,
    readonly firstKey: string,
    shape: WindowShape,
  ) {
    super(shape);
  }

  /**
   * When every counter of this partition will have freed all its permits. Read from the counters when the
   * partition is due for a check, so an acquire keeps no expiry time up to date.
   */
  allFreedAt(): number {
    let at = this.freedAt();
    if (this.others !== undefined) {
      for (const counter of this.others.values()) {
        const freed = counter.freedAt();
        if (freed > at) at = freed;
      }
    }
    return at;
  }
}

const STORE = 'InProcessRateLimitStore';
const SHAPE_CACHE_LIMIT = 1024;
const DEFAULT_MAX_TRACKED_PARTITIONS = 10_000;

/**
 * The shipped store: exact sliding-window counts per process, keyed on partition + `policy.key`.
 *
 * In any interval of `windowSeconds`, one counter admits at most `permitLimit` requests. Up to 128 permits
 * per window every admission keeps its timestamp, so the window is exact; above that a window is kept as 128
 * time segments, so memory stays bounded and a permit may come back up to 1/128 of the window late, never
 * early. Refused requests spend nothing. At most `maxTrackedPartitions` partitions are counted at once; at
 * that cap a new partition passes unlimited (fail open) while tracked ones stay limited, and a partition
 * whose windows have all expired stops counting toward the cap. No timers: expired partitions are reclaimed
 * during later acquires, amortised O(1) per request.
 *
 * @example
 * import { InProcessRateLimitStore } from 'trellis/ratelimit';
 *
 * const store = new InProcessRateLimitStore({ maxTrackedPartitions: 50_000 });
 * const decision = store.acquire('sub:alice', policy, { cost: 2 }); // a decision, no promise
 * if (!decision.allowed) console.log(`retry in ${decision.retryAfter} s`);
 */
export class InProcessRateLimitStore implements RateLimitStore {
  readonly maxTrackedPartitions: number;
  readonly #clock: RateLimitClock;
  readonly #partitions = new Map<string, PartitionEntry>();
  readonly #expiry = new ExpiryQueue<PartitionEntry>();
  readonly #shapes = new Map<string, WindowShape>();
  #lastPolicy: RateLimitPolicy | undefined = undefined;
  #lastShape: WindowShape | undefined = undefined;
  #lastNow = Number.NEGATIVE_INFINITY;
  #capReached: Error | undefined = undefined;

  constructor(options: InProcessRateLimitStoreOptions = {}) {
    const max = options.maxTrackedPartitions ?? DEFAULT_MAX_TRACKED_PARTITIONS;
    if (!isWholeCount(max)) {
      throw invalid(`InProcessRateLimitStore: maxTrackedPartitions must be a positive integer; got ${String(max)}`);
    }
    const clock = options.clock ?? monotonicClock;
    if (typeof clock?.now !== 'function') {
      throw invalid('InProcessRateLimitStore: clock must have a now() method returning milliseconds');
    }
    this.maxTrackedPartitions = max;
    this.#clock = clock;
  }

  /** How many partitions are counted right now (expired ones are dropped lazily, so this may lag a little). */
  get trackedPartitions(): number {
    return this.#partitions.size;
  }

  /**
   * Takes `options.cost` permits (default 1) from the counter of `partition` + `policy.key`, or says when
   * they will be free. Answers at once, without a promise: this store never waits, so it never reads
   * `options.signal`. Throws a TypeError for a partition, policy or cost that makes no sense, counting
   * nothing. A policy whose numbers changed for a key (a caller's plan) is decided on the new numbers over
   * the permits the counter still holds.
   */
  acquire(partition: string, policy: RateLimitPolicy, options?: AcquireOptions): RateLimitDecision {
    // The path every request takes is kept small, so the engine compiles it whole into the caller; whatever
    // is rare (checks that fail, a new partition or policy, changed numbers, reclaiming) is a call away.
    const asked = options?.cost;
    const cost = asked === undefined || asked === 1 ? 1 : checkCost(STORE, asked);
    if (typeof partition !== 'string' || typeof policy?.key !== 'string') this.#checkInput(partition, policy);
    const now = this.#now();
    if (now >= this.#expiry.nextDue) this.#reclaim(now);

    const entry = this.#partitions.get(partition);
    if (entry === undefined) return this.#acquireNewPartition(partition, policy, now, cost);
    const shape = entry.shape;
    const counter =
      entry.firstKey === policy.key && shape.limit === policy.permitLimit && shape.windowSeconds === policy.windowSeconds
        ? entry
        : this.#counterOf(entry, policy);
    return counter.acquire(now, cost);
  }

  /**
   * Forgets the counter of `partition` + `policy.key`: the caller starts afresh on that limit (its other
   * counters are kept). Throws a TypeError for a partition or policy no store can count.
   *
   * @example
   * store.reset('subject:alice', policy);
   */
  reset(partition: string, policy: RateLimitPolicy): void {
    this.#checkInput(partition, policy);
    const entry = this.#partitions.get(partition);
    if (entry === undefined) return;
    if (entry.firstKey === policy.key) entry.clear();
    else entry.others?.get(policy.key)?.clear();
  }

  /** Throws the TypeError for a partition or policy no store can count. */
  #checkInput(partition: unknown, policy: RateLimitPolicy): void {
    checkPartition(STORE, partition);
    checkPolicy(STORE, policy);
  }

  /**
   * The counter of `policy` in a tracked partition other than its first policy's unchanged one: another policy's
   * (made on first use), or one whose numbers changed (a caller's plan), which keeps the admissions made under
   * the old numbers: they count for the new ones.
   */
  #counterOf(entry: PartitionEntry, policy: RateLimitPolicy): SlidingWindowCounter {
    let counter: SlidingWindowCounter | undefined = entry.firstKey === policy.key ? entry : entry.others?.get(policy.key);
    if (counter === undefined) {
      counter = new SlidingWindowCounter(this.#shape(policy));
      (entry.others ??= new Map()).set(policy.key, counter);
    } else if (counter.shape.limit !== policy.permitLimit || counter.shape.windowSeconds !== policy.windowSeconds) {
      counter.reshape(this.#shape(policy));
    }
    return counter;
  }

  #acquireNewPartition(partition: string, policy: RateLimitPolicy, now: number, cost: number): RateLimitDecision {
    const shape = this.#shape(policy);
    const entry = new PartitionEntry(partition, policy.key, shape);
    if (this.#partitions.size >= this.maxTrackedPartitions && cost <= shape.limit) {
      return failOpenDecision(shape.limit, shape.windowSeconds, { cost, error: this.#capError() });
    }
    const decision = entry.acquire(now, cost);
    // A first request that can never fit (a cost above the limit) leaves nothing to track.
    if (!decision.allowed) return decision;
    this.#partitions.set(partition, entry);
    this.#expiry.push(entry, now + shape.windowMs);
    return decision;
  }

  /** The cause a fail-open at the partition cap carries; one object, as every such answer has the same cause. */
  #capError(): Error {
    return (this.#capReached ??= new Error(
      `InProcessRateLimitStore: ${this.maxTrackedPartitions} partitions are tracked (maxTrackedPartitions); a new partition passes unlimited until one expires`,
    ));
  }

  /** Drops partitions whose windows have all expired; re-queues the ones that were used since. */
  #reclaim(now: number): void {
    const expiry = this.#expiry;
    while (expiry.nextDue <= now) {
      const entry = expiry.pop();
      const freedAt = entry.allFreedAt();
      if (freedAt <= now) this.#partitions.delete(entry.partition);
      else expiry.push(entry, freedAt);
    }
  }

  /** A clock reading that never goes backwards, even if a custom clock does. */
  #now(): number {
    const now = this.#clock.now();
    if (now > this.#lastNow && now < Number.POSITIVE_INFINITY) return (this.#lastNow = now);
    return this.#earlierOrInvalid(now);
  }

  /** A reading no later than the last one: the last one stands. One that is not finite is refused. */
  #earlierOrInvalid(now: number): number {
    if (!Number.isFinite(now)) {
      // An infinite or NaN time would expire every permit at once: refuse it rather than stop limiting.
      throw invalid(`InProcessRateLimitStore: clock.now() must return finite milliseconds; got ${String(now)}`);
    }
    return this.#lastNow;
  }

  #shape(policy: RateLimitPolicy): WindowShape {
    const { permitLimit, windowSeconds } = policy;
    // Most new partitions meet the policy object seen last; equal numbers mean its shape was validated for them.
    const last = this.#lastShape;
    if (policy === this.#lastPolicy && last !== undefined && last.limit === permitLimit && last.windowSeconds === windowSeconds) {
      return last;
    }
    // Only numbers reach the cache, so "5" can never borrow the shape validated for 5.
    if (typeof permitLimit !== 'number' || typeof windowSeconds !== 'number') {
      return windowShape(policy.key, permitLimit, windowSeconds);
    }
    const cacheKey = `${permitLimit}/${windowSeconds}`;
    let shape = this.#shapes.get(cacheKey);
    if (shape === undefined) {
      shape = windowShape(policy.key, permitLimit, windowSeconds);
      if (this.#shapes.size >= SHAPE_CACHE_LIMIT) this.#shapes.clear();
      this.#shapes.set(cacheKey, shape);
    }
    this.#lastPolicy = policy;
    this.#lastShape = shape;
    return shape;
  }
}
