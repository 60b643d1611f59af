import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ClientAbortedError, PayloadTooLargeError, failure, nodeStream, problemResponse } from '../pipeline/index.js';
import type { BodySource, OutgoingResponse } from '../pipeline/index.js';
import type { IncomingRequest } from './dispatch.js';
import { closeAfterAnswer } from './lingering-close.js';
import { deliver, deliverStream, isStreamed, type WholeResponse } from './response-writer.js';

export type Dispatcher = (req: IncomingRequest) => OutgoingResponse | Promise<OutgoingResponse>;

function signalFor(req: IncomingMessage, res: ServerResponse): () => AbortSignal {
  return () => {
    const controller = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) controller.abort(new Error('The client closed the connection.'));
    });
    return controller.signal;
  };
}

function clientErrorResponse(code: string | undefined): string {
  const doc =
    code === 'HPE_HEADER_OVERFLOW'
      ? failure('TRELLIS_HEADERS_TOO_LARGE', 'The request headers are larger than the server accepts.')
      : code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? failure('TRELLIS_REQUEST_TIMEOUT', 'The request did not arrive in time.')
        : failure('TRELLIS_UNPARSEABLE_REQUEST', 'The request could not be parsed as HTTP.');
  const body = JSON.stringify(doc);
  return `HTTP/1.1 ${doc.status} ${doc.title}\r\ncontent-type: application/problem+json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
}

/** A node:http server that dispatches every request; refuses before `100 Continue` when it can. */
export function createNodeServer(dispatcher: Dispatcher, options: { maxHeaderSize?: number; onError: (e: unknown) => void }): Server {
  const handle = (req: IncomingMessage, res: ServerResponse, expectContinue: boolean) => {
    const body = new NodeBodySource(req, res, expectContinue);
    const method = req.method ?? 'GET';
    // What dispatch or the writer threw (neither should): a 500 problem if the head has not gone, as every
    // failure is answered, and the connection closed.
    const fail = (error: unknown) => {
      options.onError(error);
      if (res.headersSent) return void res.destroy();
      try {
        const response = problemResponse(failure('TRELLIS_PIPELINE_FAILED', 'The request failed inside the server.'));
        deliver(res, method, response as WholeResponse, true, options.onError);
      } catch {
        res.destroy();
      }
    };
    const write = (response: OutgoingResponse) => {
      const bodyUnread = !body.complete;
      if (bodyUnread) closeAfterAnswer(req);
      try {
        if (isStreamed(response)) deliverStream(res, method, response, bodyUnread, options.onError);
        else deliver(res, method, response as WholeResponse, bodyUnread, options.onError);
      } catch (error) {
        fail(error);
      }
    };
    let answer: OutgoingResponse | Promise<OutgoingResponse>;
    try {
      answer = dispatcher({
        method,
        url: req.url ?? '/',
        headers: req.headers,
        body,
        signal: signalFor(req, res),
        remoteAddress: req.socket.remoteAddress,
      });
    } catch (error) {
      return fail(error);
    }
    // A request no filter or handler waited on is written in the turn it arrived in.
    if (answer instanceof Promise) answer.then(write, fail);
    else write(answer);
  };
  // Loaded here, not at import, so a process that never listens (an AWS Lambda function) never loads node:http.
  const server = process
    .getBuiltinModule('node:http')
    .createServer({ maxHeaderSize: options.maxHeaderSize, requestTimeout: 30_000 }, (req, res) => handle(req, res, false));
  server.on('checkContinue', (req, res) => handle(req, res, true));
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (socket.writable && !(socket as Socket & { _httpMessage?: unknown })._httpMessage) socket.end(clientErrorResponse(error.code));
    else socket.destroy();
  });
  return server;
}

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

  /**
   * The body at once when it has all arrived: when it came in the head's packets and the pipeline has waited
   * once since the head (Node.js hands over the head before it parses the rest of the packet, so a route with
   * no filter that waits finds the body not here yet, and reads it).
   */
  readNow(limit: number): Buffer | undefined {
    const req = this.req;
    if (!req.complete || this.#consumed || req.readableFlowing === true) return undefined;
    const announced = this.length;
    if ((announced !== undefined && announced > limit) || req.readableLength > limit) throw new PayloadTooLargeError(limit);
    this.#consumed = true;
    this.#complete = true;
    return (req.read() as Buffer | null) ?? Buffer.alloc(0);
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
