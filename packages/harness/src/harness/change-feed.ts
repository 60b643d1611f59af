// What changed while the harness runs (in watch mode: a function's code), numbered, for clients that wait for
// the next change by long polling `GET /api/changes?after=<seq>`.

/** One change: the functions whose environments were restarted and, per dashboard, the widgets to read again. */
export interface HarnessChange {
  seq: number;
  /** ISO 8601 time of the change. */
  at: string;
  /** The files that changed (absolute paths), at most 20. */
  files: string[];
  /** Configured function keys (names or ARNs) whose environments were restarted. */
  functions: string[];
  /** Dashboard id → ids of the widgets whose content was forgotten (their next read runs the new code). */
  widgets: Record<string, string[]>;
}

/** What `GET /api/changes` answers. */
export interface ChangesAnswer {
  /** Whether the harness watches files at all; when false no change ever comes. */
  watching: boolean;
  /** The number of the latest change (0 before any): pass it as `after` to wait for the next. */
  seq: number;
  /** The changes after `after`, oldest first (empty when the wait ended without one). */
  changes: HarnessChange[];
}

/** How many changes are kept for clients that come back late. */
const KEPT = 100;

/**
 * A numbered list of changes with waiting readers.
 *
 * @example
 * const feed = new ChangeFeed(true);
 * const next = feed.wait(feed.seq, 25_000, signal); // resolves on the next publish, after 25 s, or on close
 */
export class ChangeFeed {
  #seq = 0;
  readonly #kept: HarnessChange[] = [];
  readonly #waiting = new Set<() => void>();
  #closed = false;

  constructor(readonly watching: boolean) {}

  get seq(): number {
    return this.#seq;
  }

  publish(change: Omit<HarnessChange, 'seq' | 'at'>): HarnessChange {
    const full: HarnessChange = { seq: ++this.#seq, at: new Date().toISOString(), ...change };
    this.#kept.push(full);
    if (this.#kept.length > KEPT) this.#kept.shift();
    this.#wake();
    return full;
  }

  /** The changes after `after` now, or (when there are none) the first ones to come within `waitMs`. */
  async wait(after: number, waitMs: number, signal?: AbortSignal): Promise<ChangesAnswer> {
    if (after >= this.#seq && waitMs > 0 && !this.#closed && this.watching) {
      await new Promise<void>((done) => {
        const finish = (): void => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', finish);
          this.#waiting.delete(finish);
          done();
        };
        const timer = setTimeout(finish, waitMs);
        signal?.addEventListener('abort', finish, { once: true });
        this.#waiting.add(finish);
      });
    }
    return { watching: this.watching, seq: this.#seq, changes: this.#kept.filter((c) => c.seq > after) };
  }

  /** Answers every waiting reader now (the server is closing) and every later one at once. */
  close(): void {
    this.#closed = true;
    this.#wake();
  }

  #wake(): void {
    for (const finish of [...this.#waiting]) finish();
  }
}
