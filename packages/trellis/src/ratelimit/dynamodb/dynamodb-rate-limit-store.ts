import { PolicyPlans, acquireAbortedError, checkCost, checkPartition, storeUnavailableError, whileUncounted } from '../index.js';
import { errorText } from '../../index.js';
import type { AcquireOptions, RateLimitDecision, RateLimitPolicy, RateLimitStore } from '../index.js';
import { counterKey, deleteInput } from './counter-item.js';
import { Ask, Counter, CounterContentionError, Flight, FlightRunner } from './counter-flight.js';
import { dynamoDBCommands } from './sdk-commands.js';
import { STORE, invalid, storeSettings, type DynamoDBRateLimitStoreOptions, type StoreSettings } from './store-options.js';
import { storedShape, type StoredShape } from './window-state.js';

/**
 * A `RateLimitStore` on Amazon DynamoDB: the in-process store's sliding window, shared by every process and
 * every Lambda execution environment that uses the same table, with no VPC to reach (unlike ElastiCache).
 * One item per counter. An admission is one conditional UpdateItem (one write unit) that lands only if the
 * item still holds the window the process decided on; a refusal writes nothing and is confirmed with one
 * strongly consistent GetItem (one read unit). Acquires of one counter that meet in one process share one
 * request. Items expire by the table's Time to Live.
 *
 * Time is the application's clock (DynamoDB has none to offer): processes must keep synchronised clocks
 * (NTP; Lambda's are), and clocks δ apart let a permit free up to δ early or late.
 *
 * @example
 * import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
 * import { DynamoDBRateLimitStore } from 'trellis/ratelimit/dynamodb';
 *
 * const store = new DynamoDBRateLimitStore({ client: new DynamoDBClient({}), tableName: process.env.RATE_LIMIT_TABLE! });
 * app.services.add(RateLimitStore, () => store, { type: RegistrationType.Replace });
 */
export class DynamoDBRateLimitStore implements RateLimitStore {
  readonly #settings: StoreSettings;
  readonly #runner: FlightRunner;
  readonly #shapes: PolicyPlans<StoredShape>;
  readonly #counters = new Map<string, Counter>();
  /** Counters with a flight out: what the timeout sweep looks at. */
  readonly #flying = new Set<Counter>();
  #sweep: ReturnType<typeof setTimeout> | undefined = undefined;
  readonly #sweepMs: number;
  #lastMs = 0;
  /** Whether a failure has been told since DynamoDB last answered (a warning is written once per outage). */
  #warned = false;

  constructor(options: DynamoDBRateLimitStoreOptions) {
    const settings = storeSettings(options);
    this.#settings = settings;
    const { exactLimit, segments } = settings;
    this.#shapes = new PolicyPlans(STORE, (p) => storedShape(p.key, p.permitLimit, p.windowSeconds, exactLimit, segments));
    this.#sweepMs = Math.max(1, Math.floor(settings.timeoutMs / 8));
    this.#runner = new FlightRunner(settings.client, settings.tableName, settings.conflictRetries, () => this.#now());
  }

  /**
   * Takes `options.cost` permits (default 1) of `policy` for `partition`, or says when that many will be
   * free; a refusal spends nothing. Rejects with a TypeError for bad input (nothing is counted), an AbortError
   * when `options.signal` aborts first, and `RateLimitStoreUnavailableError` when DynamoDB fails under
   * `failClosed`.
   */
  acquire(partition: string, policy: RateLimitPolicy, options?: AcquireOptions): Promise<RateLimitDecision> {
    let shape: StoredShape;
    let cost: number;
    let key: string;
    try {
      checkPartition(STORE, partition);
      shape = this.#shapes.get(policy);
      cost = checkCost(STORE, options?.cost);
      key = counterKey(this.#settings.prefix, policy.key, partition);
      this.#now();
    } catch (error) {
      return Promise.reject(error);
    }
    const signal = options?.signal;
    if (signal?.aborted) return Promise.reject(acquireAbortedError(signal));
    const counter = this.#counter(key);
    const ask = new Ask(policy, cost, this.#settings.failureMode, options, shape, performance.now());
    const answer = ask.promise();
    counter.waiting.push(ask);
    if (counter.flight === undefined && !counter.scheduled) {
      // Acquires of this counter started in the same turn join the flight.
      counter.scheduled = true;
      queueMicrotask(() => this.#launch(counter));
    }
    return answer;
  }

  /**
   * Forgets the counter of `partition` + `policy.key` (its item is deleted): the caller starts afresh on that
   * limit, in every process. Rejects with a TypeError for bad input, and with `RateLimitStoreUnavailableError`
   * when DynamoDB fails or does not answer within `timeoutMs`.
   *
   * @example
   * await store.reset('subject:alice', policy);
   */
  async reset(partition: string, policy: RateLimitPolicy): Promise<void> {
    checkPartition(STORE, partition);
    this.#shapes.get(policy);
    const key = counterKey(this.#settings.prefix, policy.key, partition);
    try {
      const { DeleteItemCommand } = await dynamoDBCommands();
      await this.#settings.client.send(new DeleteItemCommand(deleteInput(this.#settings.tableName, key)), {
        abortSignal: AbortSignal.timeout(this.#settings.timeoutMs),
      });
    } catch (error) {
      throw storeUnavailableError(error);
    }
    const counter = this.#counters.get(key);
    // A flight out now may have written before or after the deletion: its next write finds out either way.
    if (counter !== undefined) counter.stored = undefined;
  }

  /** The store's time: epoch milliseconds from the clock, never earlier than the last reading. */
  #now(): number {
    const ms = this.#settings.clock.now();
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms * 1000 >= Number.MAX_SAFE_INTEGER / 2) {
      throw invalid(`${STORE}: clock.now() must return non-negative finite epoch milliseconds; got ${String(ms)}`);
    }
    if (ms > this.#lastMs) this.#lastMs = ms;
    return this.#lastMs;
  }

  /** The counter of `key`, most recently used last; idle counters beyond `maxCachedCounters` are forgotten. */
  #counter(key: string): Counter {
    let counter = this.#counters.get(key);
    if (counter !== undefined) {
      this.#counters.delete(key);
    } else {
      if (this.#counters.size >= this.#settings.maxCounters) this.#forgetIdle();
      counter = new Counter(key);
    }
    this.#counters.set(key, counter);
    return counter;
  }

  #forgetIdle(): void {
    const keep = Math.floor(this.#settings.maxCounters * 0.9);
    for (const [key, counter] of this.#counters) {
      if (this.#counters.size <= keep) break;
      if (!counter.busy) this.#counters.delete(key);
    }
  }

  /** Sends the counter's waiting acquires as one flight. */
  #launch(counter: Counter): void {
    counter.scheduled = false;
    if (counter.flight !== undefined) return;
    const asks = counter.waiting.filter((ask) => !ask.settled);
    counter.waiting = [];
    if (asks.length === 0) return;
    const flight = new Flight(asks);
    counter.flight = flight;
    this.#flying.add(counter);
    this.#armSweep();
    this.#runner
      .fly(counter, flight)
      .then(
        () => (this.#warned = false),
        (error: unknown) => {
          for (const ask of flight.asks) this.#failAsk(ask, error);
        },
      )
      .finally(() => {
        counter.flight = undefined;
        this.#flying.delete(counter);
        if (counter.waiting.length > 0) this.#launch(counter);
      });
  }

  /** Answers an acquire by the failure mode; the first failure since DynamoDB last answered is written out once. */
  #failAsk(ask: Ask, error: unknown): void {
    if (ask.settled) return;
    if (!this.#warned) {
      this.#warned = true;
      const advice =
        error instanceof CounterContentionError
          ? 'Many processes write this counter at once; raise conflictRetries if that is expected.'
          : "Check the table, its region and the function's permissions (dynamodb:UpdateItem, dynamodb:GetItem, dynamodb:DeleteItem).";
      process.emitWarning(
        `DynamoDB could not count a rate-limit acquire on table "${this.#settings.tableName}" (${errorText(error)}); until it counts again, ${whileUncounted(this.#settings.failureMode)}. ${advice} ` +
          'This is said once until DynamoDB counts again.',
        { type: 'DynamoDBRateLimitStoreWarning' },
      );
    }
    ask.fail(error);
  }

  #armSweep(): void {
    if (this.#sweep !== undefined || this.#flying.size === 0) return;
    this.#sweep = setTimeout(this.#onSweep, this.#sweepMs);
    this.#sweep.unref();
  }

  /**
   * Which acquires are due is judged when the timer fires, and they are timed out only after the event loop
   * has read its sockets (setImmediate runs after the I/O phase): an answer that arrived while this process
   * was busy is taken, not thrown away.
   */
  readonly #onSweep = (): void => {
    this.#sweep = undefined;
    const cutoff = performance.now() - this.#settings.timeoutMs;
    setImmediate(() => {
      const silence = (since: number) => new Error(`DynamoDB answered nothing for ${Math.round(performance.now() - since)} ms`);
      for (const counter of this.#flying) {
        const flight = counter.flight!;
        const oldest = flight.oldestWaiting();
        if (oldest <= cutoff) {
          const error = silence(oldest);
          for (const ask of flight.asks) this.#failAsk(ask, error);
          flight.abort.abort(error);
        }
        for (const ask of counter.waiting) if (ask.startedAt <= cutoff) this.#failAsk(ask, silence(ask.startedAt));
      }
      this.#armSweep();
    });
  };
}
