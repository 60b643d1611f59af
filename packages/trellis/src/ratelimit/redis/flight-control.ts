/**
 * How long a call to Redis may take, and how many may be on the wire at once. A timer on a busy event loop
 * fires late, when the answer may already sit unread in the socket, so a call fails only when Redis has been
 * *silent* for `timeoutMs`: the check runs after the I/O phase (`setImmediate`) and counts from the later of
 * the call's start and the last answer to the oldest command still waiting. At most `maxInFlight` calls are
 * on the wire; more wait in a queue under the same rule (`'queue'`) or are refused at once (`'reject'`). See
 * docs/rate-limiting.md, "When Redis is slow or down".
 */
import { PendingAcquire, monotonicClock, type RateLimitClock, type RateLimitDecision } from '../index.js';

/** What happens to a call that finds `maxInFlight` calls already waiting on Redis. */
export type RedisOverflow = 'queue' | 'reject';

/**
 * One call as the flight control sees it, with the control's bookkeeping (one object per call, no closures).
 * It is answered with Redis's reply, by the failure mode on a failure or a silence past the timeout, or with
 * an AbortError when its caller gives up once it has to wait (queued, or unanswered at a sweep).
 */
export abstract class FlightCall extends PendingAcquire {
  /** The command has its answer (or the client gave up on it). */
  replied = false;
  /** The control watches for its caller giving up. */
  watched = false;
  /** When the call started, and then when its command left (Redis's silence counts from the later). */
  startedAt = 0;
  /** The control that sent the call; set when it is sent. */
  control: FlightControl | undefined = undefined;
  /** The command leaves now (it may have waited for company since it started): its silence counts from here. */
  sending(): void {
    this.startedAt = this.control!.clock.now();
  }
  /** Redis's answer to the command arrived. */
  reply(reply: unknown): void {
    this.control!.answered(this, true);
    if (!this.settled) this.answer(reply as RateLimitDecision);
  }
  /** The command failed (an error reply, or the client gave up on it). */
  error(error: unknown): void {
    // An error reply from Redis (a script error) is an answer too; a client-side failure is not.
    this.control!.answered(this, isServerReply(error));
    if (!this.settled) this.fail(error);
  }
  /** Sends the command; its outcome comes back through `reply` or `error`. */
  abstract send(): void;
}

/** A FIFO with O(1) push and shift that compacts itself; `at` reads the live entries front to back. */
class Fifo<T> {
  #items: (T | undefined)[] = [];
  #head = 0;
  get size(): number {
    return this.#items.length - this.#head;
  }
  push(item: T): void {
    this.#items.push(item);
  }
  at(index: number): T | undefined {
    return this.#items[this.#head + index];
  }
  shift(): T | undefined {
    const item = this.#items[this.#head];
    this.#items[this.#head++] = undefined;
    if (this.#head >= 1024 && this.#head * 2 >= this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }
}

export class FlightControl {
  #inFlight = 0;
  /** Commands on the wire, in the order they were sent; the front is the oldest still waiting for its answer. */
  readonly #wire = new Fifo<FlightCall>();
  /** Calls waiting for a free slot (overflow 'queue'); settled ones are skipped when they come up. */
  readonly #queue = new Fifo<FlightCall>();
  /** When Redis last answered the oldest command waiting on it. */
  #progressAt = Number.NEGATIVE_INFINITY;
  /** One timer for every call: it sweeps the waiting calls a few times per timeout. */
  #sweep: ReturnType<typeof setTimeout> | undefined;
  readonly #sweepMs: number;
  /** When Redis last answered anything (or the control was made). */
  #answeredAt: number;
  /** Whether `onStuck` was told of the silence going on now. */
  #stuckTold = false;

  /**
   * `onStuck` is told once, with how long Redis has been silent, when calls keep timing out and Redis has
   * answered nothing for `stuckMs`; again after Redis has answered and then falls silent that long once more.
   * Time is read from `clock` (tests give theirs, with mocked timers).
   */
  constructor(
    readonly timeoutMs: number,
    readonly maxInFlight: number,
    readonly overflow: RedisOverflow,
    private readonly onStuck?: (silentMs: number) => void,
    readonly stuckMs: number = Math.max(10_000, 20 * timeoutMs),
    readonly clock: RateLimitClock = monotonicClock,
  ) {
    this.#sweepMs = Math.max(1, Math.floor(timeoutMs / 8));
    this.#answeredAt = clock.now();
  }

  /**
   * Starts a call: sends it now, queues it, or (overflow 'reject', every slot taken) returns false without
   * doing anything. Setting `call.settled` later gives it up (an abort).
   */
  start(call: FlightCall): boolean {
    if (this.#inFlight >= this.maxInFlight && this.overflow === 'reject') return false;
    call.startedAt = this.clock.now();
    if (this.#inFlight < this.maxInFlight) this.#send(call);
    else {
      this.#queue.push(call);
      call.watched = true;
      call.watchAbort();
    }
    if (this.#sweep === undefined) this.#sweep = setTimeout(this.#onSweep, this.#sweepMs);
    return true;
  }

  #send(call: FlightCall): void {
    this.#inFlight++;
    this.#wire.push(call);
    call.control = this;
    try {
      call.send();
    } catch (error) {
      call.error(error);
    }
  }

  /** A sent call has its outcome: free its slot, note Redis's progress, and send the next queued call. */
  answered(tracked: FlightCall, fromRedis: boolean): void {
    tracked.replied = true;
    this.#inFlight--;
    if (fromRedis) {
      this.#answeredAt = this.clock.now();
      this.#stuckTold = false;
      if (this.#wire.at(0) === tracked) this.#progressAt = this.#answeredAt;
    }
    while (this.#wire.size > 0 && this.#wire.at(0)!.replied) this.#wire.shift();
    while (this.#inFlight < this.maxInFlight && this.#queue.size > 0) {
      const next = this.#queue.shift()!;
      if (!next.settled) this.#send(next);
    }
  }

  readonly #onSweep = (): void => {
    // Which calls are due is judged now, before this turn of the event loop reads its sockets; they are
    // timed out only after it has (setImmediate runs after the I/O phase), unless Redis's answer came then.
    // A call sent during that I/O phase is not due yet: its answer may be in the socket, unread.
    const cutoff = this.clock.now();
    setImmediate(() => this.#sweepNow(cutoff));
  };

  /** Times out the calls Redis had been silent on for the timeout at `cutoff`; re-arms while any call waits. */
  #sweepNow(cutoff: number): void {
    this.#sweep = undefined;
    const silentSince = (t: FlightCall): number => Math.max(t.startedAt, this.#progressAt);
    let waiting = false;
    // Both lists are in start order, so the calls that are due come first, then the ones that have waited a
    // sweep interval (told so once), then the young ones.
    const startedBy = cutoff - this.#sweepMs;
    for (const list of [this.#wire, this.#queue]) {
      for (let i = 0; i < list.size; i++) {
        const t = list.at(i)!;
        if (t.settled) continue;
        const since = silentSince(t);
        if (cutoff - since < this.timeoutMs) {
          waiting = true;
          if (t.startedAt > startedBy) break;
          if (!t.watched) {
            t.watched = true;
            t.watchAbort();
          }
          continue;
        }
        t.fail(new Error(`Redis answered nothing for ${Math.round(this.clock.now() - since)} ms`));
        const silentMs = cutoff - this.#answeredAt;
        if (!this.#stuckTold && silentMs >= this.stuckMs) {
          this.#stuckTold = true;
          this.onStuck?.(silentMs);
        }
      }
    }
    while (this.#queue.size > 0 && this.#queue.at(0)!.settled) this.#queue.shift();
    // Every call left unsettled was found waiting.
    if (waiting) this.#sweep = setTimeout(this.#onSweep, this.#sweepMs);
  }
}

/**
 * Redis error replies (ReplyError in ioredis, ErrorReply in node-redis) and one acquire's error inside a
 * batch's reply (ScriptErrorReply) come from a server that answered.
 */
function isServerReply(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'ReplyError' || name === 'ErrorReply' || name === 'ScriptErrorReply';
}
