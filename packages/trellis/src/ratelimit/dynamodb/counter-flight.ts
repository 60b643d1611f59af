/**
 * How the DynamoDB store decides a counter without a race between processes (docs/rate-limiting.md,
 * "Decided in the application, written only if nothing changed"). The acquires of one counter that meet form
 * a *flight*, decided one after another on the window bytes this process last saw in the item and written
 * with one UpdateItem whose condition is that the item still holds those bytes. A failed condition returns
 * the item as it is (or it is read again, where DynamoDB does not), and the flight is decided again, at most
 * `conflictRetries` times. A flight refused whole writes nothing, and is confirmed by a strongly consistent
 * GetItem unless its window came from DynamoDB during this flight.
 */
import type { AttributeValue, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PendingAcquire, type AcquireOptions, type RateLimitFailureMode, type RateLimitPolicy } from '../index.js';
import { readInput, windowBytesOf, writeInput } from './counter-item.js';
import { dynamoDBCommands } from './sdk-commands.js';
import { decodeWindow, encodeWindow } from './window-codec.js';
import { decideWindow, type StoredShape, type WindowState } from './window-state.js';

/** One acquire waiting for its decision; its caller's signal is listened to from the start. */
export class Ask extends PendingAcquire {
  constructor(
    policy: RateLimitPolicy,
    cost: number,
    failureMode: RateLimitFailureMode,
    options: AcquireOptions | undefined,
    readonly shape: StoredShape,
    /** performance.now() when the acquire started: its timeout counts from here. */
    readonly startedAt: number,
  ) {
    super(policy, cost, failureMode, options);
    this.watchAbort();
  }
}

/** The acquires of one counter sent together, and the means to give up on their call. */
export class Flight {
  readonly abort = new AbortController();
  constructor(readonly asks: readonly Ask[]) {}

  /** When the longest-waiting unanswered acquire started; Infinity when every one is answered. */
  oldestWaiting(): number {
    let oldest = Number.POSITIVE_INFINITY;
    for (const ask of this.asks) if (!ask.settled && ask.startedAt < oldest) oldest = ask.startedAt;
    return oldest;
  }
}

/** What this process knows of one counter's item, and the acquires waiting on it. */
export class Counter {
  /** The window bytes the item held when last seen (written or read); undefined for no item. */
  stored: Uint8Array | undefined = undefined;
  /** Acquires that arrived while a flight was out; they form the next one. */
  waiting: Ask[] = [];
  flight: Flight | undefined = undefined;
  /** A flight is due in this turn's microtasks. */
  scheduled = false;

  constructor(readonly key: string) {}

  get busy(): boolean {
    return this.flight !== undefined || this.scheduled || this.waiting.length > 0;
  }

  /** The window to decide on: the item's as last seen; a window this store cannot read is replaced. */
  window(): WindowState | undefined {
    if (this.stored === undefined) return undefined;
    try {
      return decodeWindow(this.stored);
    } catch {
      return undefined;
    }
  }
}

/** The item kept changing under a flight's writes. */
export class CounterContentionError extends Error {
  override readonly name = 'CounterContentionError';
}

function isConditionFailure(error: unknown): error is { Item?: Record<string, AttributeValue> } {
  return (error as { name?: unknown } | null)?.name === 'ConditionalCheckFailedException';
}

/** Runs flights against one table. */
export class FlightRunner {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly tableName: string,
    private readonly conflictRetries: number,
    /** The store's clock: epoch milliseconds, never going back. */
    private readonly now: () => number,
  ) {}

  /**
   * Decides and answers the flight's acquires; rejects (without answering them) when DynamoDB fails or the
   * item keeps changing, and the caller applies the failure mode. Acquires answered meanwhile (aborted, timed
   * out) are left out of every later attempt, so they count nothing unless a write was already on its way.
   */
  async fly(counter: Counter, flight: Flight): Promise<void> {
    let fresh = false;
    let conflicts = 0;
    for (;;) {
      const asks = flight.asks.filter((ask) => !ask.settled);
      if (asks.length === 0 || flight.abort.signal.aborted) return;
      const nowMs = this.now();
      const { decisions, written, expiresAt } = decideWindow(counter.window(), nowMs, asks);

      if (written === undefined) {
        // Refused, all of them. A window read during this flight is the item's: that settles it.
        if (fresh) {
          for (let i = 0; i < asks.length; i++) asks[i]!.answer(decisions[i]!);
          return;
        }
        counter.stored = await this.#read(counter.key, flight);
        fresh = true;
        continue;
      }

      const bytes = encodeWindow(written);
      const input = writeInput(this.tableName, counter.key, bytes, expiresAt, Math.floor(nowMs / 1000), counter.stored);
      try {
        const { UpdateItemCommand } = await dynamoDBCommands();
        await this.client.send(new UpdateItemCommand(input), { abortSignal: flight.abort.signal });
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
        if (++conflicts > this.conflictRetries) {
          throw new CounterContentionError(
            `the counter's item changed under ${conflicts} writes in a row (other processes wrote it first each time)`,
            { cause: error },
          );
        }
        counter.stored = error.Item !== undefined ? windowBytesOf(error.Item) : await this.#read(counter.key, flight);
        fresh = true;
        continue;
      }
      counter.stored = bytes;
      for (let i = 0; i < asks.length; i++) asks[i]!.answer(decisions[i]!);
      return;
    }
  }

  async #read(key: string, flight: Flight): Promise<Uint8Array | undefined> {
    const { GetItemCommand } = await dynamoDBCommands();
    const output = await this.client.send(new GetItemCommand(readInput(this.tableName, key)), { abortSignal: flight.abort.signal });
    return windowBytesOf(output.Item);
  }
}
