/**
 * Times out pending calls that all share one timeout, with one timer in total instead of one per call:
 * deadlines arrive in order, so a FIFO queue and a timer armed for its head are enough. This keeps the cost
 * of "a timeout on every call" out of the hot path.
 */
interface Pending {
  readonly deadline: number;
  settled: boolean;
  readonly expire: () => void;
}

export class DeadlineQueue {
  #queue: Pending[] = [];
  #head = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly timeoutMs: number) {}

  /** Calls `expire` after the timeout unless the returned `settle` is called first. */
  track(expire: () => void): () => void {
    const entry: Pending = { deadline: performance.now() + this.timeoutMs, settled: false, expire };
    this.#queue.push(entry);
    if (this.#timer === undefined) this.#arm(this.timeoutMs);
    return () => {
      entry.settled = true;
    };
  }

  #arm(delayMs: number): void {
    this.#timer = setTimeout(() => this.#fire(), Math.max(0, Math.ceil(delayMs)));
  }

  #fire(): void {
    this.#timer = undefined;
    const now = performance.now();
    const queue = this.#queue;
    while (this.#head < queue.length) {
      const entry = queue[this.#head]!;
      if (!entry.settled && entry.deadline > now) break;
      this.#head++;
      if (!entry.settled) {
        entry.settled = true;
        entry.expire();
      }
    }
    if (this.#head === queue.length) {
      this.#queue = [];
      this.#head = 0;
      return;
    }
    if (this.#head > 1024 && this.#head * 2 > queue.length) {
      this.#queue = queue.slice(this.#head);
      this.#head = 0;
    }
    this.#arm(this.#queue[this.#head]!.deadline - now);
  }
}
