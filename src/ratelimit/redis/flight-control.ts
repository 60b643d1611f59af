/**
 * How long a call to Redis may take, judged by Redis's answers rather than by this process's timers, and how
 * many calls may be on the wire at once.
 *
 * A timer on a busy event loop fires late, and when it fires the answer it waits for may already sit unread
 * in the socket: a plain per-call timeout then gives up on a Redis that answered in time. So a call here
 * fails only when Redis has been *silent* for `timeoutMs`: its timer, when it fires, first lets the event
 * loop read the socket (the check runs after the I/O phase, in `setImmediate`), and then counts the silence
 * from the later of the call's start and the last answer to the oldest command still waiting for one. While
 * Redis keeps answering — however far behind this process is — calls wait their turn; when Redis stops
 * answering (frozen, or the network is gone) every call waiting on it fails within `timeoutMs` of the last
 * answer, and a call that started after that within `timeoutMs` of its start.
 *
 * At most `maxInFlight` commands are on the wire; more calls either wait in a local queue (`'queue'`, under
 * the same silence rule) or are rejected at once (`'reject'`).
 */

/** What happens to a call that finds `maxInFlight` commands already waiting on Redis. */
export type RedisOverflow = 'queue' | 'reject';

/** One call as the flight control sees it. */
export interface FlightCall {
  /** Sends the command; the promise settles when Redis (or the client) answers. */
  send(): Promise<unknown>;
  /** Called once with the answer, unless the call was settled before (timed out, aborted). */
  answered(reply: unknown): void;
  /** Called once with the client's error, unless the call was settled before. */
  failed(error: unknown): void;
  /** Called once when Redis has been silent for the timeout, unless the call was settled before. */
  timedOut(silentMs: number): void;
}

/** A call the flight control tracks: its timer, whether its caller has an answer, and its command's state. */
class Tracked {
  settled = false;
  /** The command has an answer (or the client gave up on it). */
  replied = false;
  queued = false;
  timer: ReturnType<typeof setTimeout> | undefined;
  constructor(
    readonly call: FlightCall,
    readonly startedAt: number,
  ) {}
}

/** A FIFO with O(1) push and shift that compacts itself (dropped entries are skipped, not spliced out). */
class Fifo<T> {
  #items: (T | undefined)[] = [];
  #head = 0;
  get size(): number {
    return this.#items.length - this.#head;
  }
  push(item: T): void {
    this.#items.push(item);
  }
  peek(): T | undefined {
    return this.#items[this.#head];
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
  readonly #wire = new Fifo<Tracked>();
  /** Calls waiting for a free slot (overflow 'queue'); settled ones are skipped when they come up. */
  readonly #queue = new Fifo<Tracked>();
  /** When Redis last answered the oldest command waiting on it. */
  #progressAt = Number.NEGATIVE_INFINITY;

  constructor(
    readonly timeoutMs: number,
    readonly maxInFlight: number,
    readonly overflow: RedisOverflow,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Commands sent and not yet answered. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /**
   * Starts a call: sends it now, queues it, or (overflow 'reject', every slot taken) returns false without
   * doing anything. The returned handle settles the call early (an abort).
   */
  start(call: FlightCall): { cancel(): void } | false {
    if (this.#inFlight >= this.maxInFlight && this.overflow === 'reject') return false;
    const tracked = new Tracked(call, this.now());
    tracked.timer = setTimeout(() => this.#onTimer(tracked), this.timeoutMs);
    if (this.#inFlight < this.maxInFlight) this.#send(tracked);
    else {
      tracked.queued = true;
      this.#queue.push(tracked);
    }
    return { cancel: () => this.#settle(tracked) };
  }

  #send(tracked: Tracked): void {
    tracked.queued = false;
    this.#inFlight++;
    this.#wire.push(tracked);
    let sent: Promise<unknown>;
    try {
      sent = tracked.call.send();
    } catch (error) {
      sent = Promise.reject(error);
    }
    sent.then(
      (reply) => {
        this.#replied(tracked, true);
        if (this.#settle(tracked)) tracked.call.answered(reply);
      },
      (error: unknown) => {
        // An error reply from Redis (a script error) is an answer too; a client-side failure is not.
        this.#replied(tracked, isServerReply(error));
        if (this.#settle(tracked)) tracked.call.failed(error);
      },
    );
  }

  /** A command has its answer: free its slot, note Redis's progress, and send the next queued call. */
  #replied(tracked: Tracked, fromRedis: boolean): void {
    tracked.replied = true;
    this.#inFlight--;
    if (fromRedis && this.#wire.peek() === tracked) this.#progressAt = this.now();
    while (this.#wire.size > 0 && this.#wire.peek()!.replied) this.#wire.shift();
    while (this.#inFlight < this.maxInFlight && this.#queue.size > 0) {
      const next = this.#queue.shift()!;
      if (!next.settled) this.#send(next);
    }
  }

  /** Marks a call answered for its caller; false when it already was. */
  #settle(tracked: Tracked): boolean {
    if (tracked.settled) return false;
    tracked.settled = true;
    clearTimeout(tracked.timer);
    return true;
  }

  #onTimer(tracked: Tracked): void {
    if (tracked.settled) return;
    // Let the event loop read what Redis has sent before deciding it said nothing.
    setImmediate(() => {
      if (tracked.settled) return;
      const now = this.now();
      const silentSince = Math.max(tracked.startedAt, this.#progressAt);
      const silentMs = now - silentSince;
      if (silentMs >= this.timeoutMs) {
        if (this.#settle(tracked)) tracked.call.timedOut(silentMs);
        return;
      }
      tracked.timer = setTimeout(() => this.#onTimer(tracked), Math.max(1, Math.ceil(silentSince + this.timeoutMs - now)));
    });
  }
}

/** Redis error replies (ReplyError in ioredis, ErrorReply in node-redis) come from a server that answered. */
function isServerReply(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'ReplyError' || name === 'ErrorReply';
}
