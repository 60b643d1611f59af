import type { Readable } from 'node:stream';
import { nodeStream } from './node-stream.js';
/** Thrown when a request body is larger than the limit. */
export class PayloadTooLargeError extends Error {
  override readonly name = 'PayloadTooLargeError';
  constructor(readonly limit: number) {
    super(`The request body is larger than the limit of ${limit} bytes.`);
  }
}

/** Thrown when the client goes away before sending the whole body: nothing failed on this side. */
export class ClientAbortedError extends Error {
  override readonly name = 'ClientAbortedError';
  constructor() {
    super('The client closed the connection before sending the whole body.');
  }
}

/**
 * Where a request's body comes from. Only the serialization stage reads it, and only for a request that is
 * not decided.
 */
export interface BodySource {
  /** Whether the request announces a body (Content-Length > 0 or chunked). */
  readonly present: boolean;
  /** The announced length, when known. */
  readonly length: number | undefined;
  /** True once `read` has been called. */
  readonly consumed: boolean;
  /** Reads the whole body; rejects with PayloadTooLargeError past `limit` bytes (before reading them all). */
  read(limit: number): Promise<Buffer>;
  /**
   * The whole body at once when it has all arrived (throws PayloadTooLargeError past `limit` bytes), so a
   * request whose body is here costs no wait; undefined when it has not (then `read` it).
   */
  readNow?(limit: number): Buffer | undefined;
  /**
   * The body as it arrives, for a handler that reads it itself; the stream errors with PayloadTooLargeError past
   * `limit` bytes. A source without it is read whole first (see {@link bodyStream}).
   */
  stream?(limit: number): Readable;
}

/**
 * A source's body as a stream: its own when it has one, else the whole body read on first demand (a body
 * that is already in memory, as on Lambda).
 */
export function bodyStream(source: BodySource, limit: number): Readable {
  if (source.stream) return source.stream(limit);
  let started = false;
  return new (nodeStream().Readable)({
    read() {
      if (started) return;
      started = true;
      source.read(limit).then(
        (buffer) => {
          if (buffer.length > 0) this.push(buffer);
          this.push(null);
        },
        (error: unknown) => this.destroy(error as Error),
      );
    },
  });
}

/**
 * A body that is already in memory, whole (inject(), a Lambda event): read at once, never waited for. A subclass
 * says how long it is and gives its bytes when they are read.
 */
export abstract class MemoryBodySource implements BodySource {
  #consumed = false;
  abstract readonly length: number;

  /** The body's bytes, made when a route reads them. */
  protected abstract bytes(): Buffer;

  get present(): boolean {
    return this.length > 0;
  }

  get consumed(): boolean {
    return this.#consumed;
  }

  async read(limit: number): Promise<Buffer> {
    return this.readNow(limit);
  }

  readNow(limit: number): Buffer {
    this.claim(limit);
    return this.bytes();
  }

  /** Marks the body read; throws PayloadTooLargeError past `limit` bytes. */
  protected claim(limit: number): void {
    this.#consumed = true;
    if (this.length > limit) throw new PayloadTooLargeError(limit);
  }
}

/** A body given as bytes (inject(), a widget's parameters). */
export class BufferBodySource extends MemoryBodySource {
  constructor(private readonly buffer: Buffer | null) {
    super();
  }

  get length(): number {
    return this.buffer?.length ?? 0;
  }

  protected bytes(): Buffer {
    return this.buffer ?? Buffer.alloc(0);
  }
}
