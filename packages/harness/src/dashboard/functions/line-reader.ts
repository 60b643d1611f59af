// Splits a child's JSON-lines channel without ever holding more than `maxLine` bytes of one line: a line
// longer than that (a result over Lambda's limit, a 100 MiB log write) is counted and dropped as it streams,
// so neither its memory nor a parse of it can stall the harness.

/** What is known of a line that was too long: its first bytes and its full length. */
export interface OversizeLine {
  head: string;
  bytes: number;
}

const HEAD_BYTES = 128;

/**
 * Feeds chunks in, calls `onLine` with each complete line (as UTF-8 text) and `onOversize` for each line
 * longer than `maxLine` bytes.
 */
export class LineReader {
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #oversize: OversizeLine | null = null;

  constructor(
    private readonly maxLine: number,
    private readonly onLine: (line: string) => void,
    private readonly onOversize: (line: OversizeLine) => void,
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    let nl = chunk.indexOf(10);
    while (nl !== -1) {
      this.#append(chunk.subarray(start, nl));
      this.#end();
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    if (start < chunk.length) this.#append(chunk.subarray(start));
  }

  #append(part: Buffer): void {
    if (this.#oversize !== null) {
      this.#oversize.bytes += part.length;
      return;
    }
    if (this.#pendingBytes + part.length > this.maxLine) {
      const head = Buffer.concat([...this.#pending, part.subarray(0, HEAD_BYTES)])
        .subarray(0, HEAD_BYTES)
        .toString('utf8');
      this.#oversize = { head, bytes: this.#pendingBytes + part.length };
      this.#pending = [];
      this.#pendingBytes = 0;
      return;
    }
    if (part.length > 0) {
      this.#pending.push(part);
      this.#pendingBytes += part.length;
    }
  }

  #end(): void {
    if (this.#oversize !== null) {
      const line = this.#oversize;
      this.#oversize = null;
      this.onOversize(line);
      return;
    }
    const line =
      this.#pending.length === 1 ? this.#pending[0]!.toString('utf8') : Buffer.concat(this.#pending, this.#pendingBytes).toString('utf8');
    this.#pending = [];
    this.#pendingBytes = 0;
    if (line) this.onLine(line);
  }
}
