import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BodySource } from '../pipeline/index.js';
import { ClientAbortedError, PayloadTooLargeError, nodeStream } from '../pipeline/index.js';

/** Reads a node:http request body on demand; sends `100 Continue` only when the body is really wanted. */
export class NodeBodySource implements BodySource {
  #consumed = false;
  #complete = false;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
    private readonly expectContinue: boolean,
  ) {}

  get length(): number | undefined {
    const raw = this.req.headers['content-length'];
    if (raw === undefined) return undefined;
    const n = Number(raw);
    return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
  }

  get present(): boolean {
    return (this.length ?? 0) > 0 || this.req.headers['transfer-encoding'] !== undefined;
  }

  get consumed(): boolean {
    return this.#consumed;
  }

  /** True once the whole body has been read (so the connection can be kept alive). */
  get complete(): boolean {
    return this.#complete || !this.present;
  }

  /** The body as it arrives, up to `limit` bytes (past it the stream errors with PayloadTooLargeError). */
  stream(limit: number): import('node:stream').Transform {
    this.#consumed = true;
    const announced = this.length;
    if (announced !== undefined && announced > limit) throw new PayloadTooLargeError(limit);
    if (this.expectContinue) this.res.writeContinue();
    let size = 0;
    const counter = new (nodeStream().Transform)({
      transform: (chunk: Buffer, _encoding, done) => {
        size += chunk.length;
        if (size > limit) {
          this.req.unpipe(counter);
          this.req.pause();
          done(new PayloadTooLargeError(limit));
          return;
        }
        done(null, chunk);
      },
    });
    this.req.once('end', () => {
      this.#complete = true;
    });
    this.req.once('close', () => {
      if (!this.#complete) counter.destroy(new ClientAbortedError());
    });
    this.req.pipe(counter);
    return counter;
  }

  read(limit: number): Promise<Buffer> {
    this.#consumed = true;
    const announced = this.length;
    if (announced !== undefined && announced > limit) return Promise.reject(new PayloadTooLargeError(limit));
    if (this.expectContinue) this.res.writeContinue();
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const cleanup = () => {
        this.req.off('data', onData);
        this.req.off('end', onEnd);
        this.req.off('error', onError);
        this.req.off('close', onClose);
      };
      const onData = (chunk: Buffer) => {
        size += chunk.length;
        if (size > limit) {
          cleanup();
          this.req.pause();
          reject(new PayloadTooLargeError(limit));
          return;
        }
        chunks.push(chunk);
      };
      const onEnd = () => {
        cleanup();
        this.#complete = true;
        resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      };
      // An upload cut off mid-body is the client leaving, not a failure of ours.
      const onError = (error: Error) => {
        cleanup();
        reject((error as NodeJS.ErrnoException).code === 'ECONNRESET' || this.req.destroyed ? new ClientAbortedError() : error);
      };
      const onClose = () => {
        cleanup();
        if (!this.#complete) reject(new ClientAbortedError());
      };
      this.req.on('data', onData);
      this.req.on('end', onEnd);
      this.req.on('error', onError);
      this.req.on('close', onClose);
    });
  }
}
