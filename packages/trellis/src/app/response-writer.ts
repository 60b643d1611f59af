import type { Readable, Writable } from 'node:stream';
import type { OutgoingResponse } from '../pipeline/index.js';
import { failure, isReadable, nodeStream, problemResponse } from '../pipeline/index.js';

/** Where a response goes: a node:http `ServerResponse`, or inject()'s recording of one. */
export interface ResponseSink {
  writeHead(status: number, headers: (string | string[])[]): unknown;
  /** node:http keeps the reason phrase of a failed writeHead; it is cleared before the 500 goes out. */
  statusMessage?: string;
  end(body?: string | Buffer): unknown;
}

/** A response whose body is whole (not a stream). */
export type WholeResponse = OutgoingResponse & { body: Buffer | string | null };

/** Whether a response's body is a stream. */
export const isStreamed = (response: OutgoingResponse): response is OutgoingResponse & { body: Readable } =>
  typeof response.body === 'object' && response.body !== null && !Buffer.isBuffer(response.body) && isReadable(response.body);

/**
 * Writes a finished response, the one way every host does: `Content-Length` from the body (`0` for an empty
 * one, none for 204 and 304), HEAD answered with the headers a GET would have and no body, and
 * `Connection: close` when the request body was never read (it may never come).
 */
export function writeResponse(sink: ResponseSink, method: string, response: WholeResponse, bodyUnread: boolean): void {
  const headers = response.headers.toFlat();
  if (response.body !== null) headers.push('content-length', String(Buffer.byteLength(response.body)));
  else if (response.status !== 204 && response.status !== 304) headers.push('content-length', '0');
  if (bodyUnread) headers.push('connection', 'close');
  sink.writeHead(response.status, headers);
  sink.end(method === 'HEAD' ? undefined : (response.body ?? undefined));
}

/**
 * Writes a response; when it cannot be written (a header value HTTP cannot carry, a status out of range),
 * writes a 500 problem that says why instead, and reports the error.
 */
export function deliver(
  sink: ResponseSink,
  method: string,
  response: WholeResponse,
  bodyUnread: boolean,
  onError: (error: unknown) => void,
): void {
  try {
    writeResponse(sink, method, response, bodyUnread);
  } catch (error) {
    onError(error);
    if (sink.statusMessage !== undefined) sink.statusMessage = '';
    const detail = `The response could not be written: ${error instanceof Error ? error.message : String(error)}.`;
    writeResponse(sink, method, problemResponse(failure('TRELLIS_RESPONSE_UNWRITABLE', detail)) as WholeResponse, bodyUnread);
  }
}

/**
 * Writes a streamed response to a socket: the head at once (no `Content-Length`: chunked), then each chunk as
 * it comes, reading the next only when the client has taken the last (backpressure). A client that leaves
 * stops the stream; a stream that fails after the head has gone ends the connection (the client sees a
 * truncated body), and the error is reported.
 */
export function deliverStream(
  sink: ResponseSink & Writable,
  method: string,
  response: OutgoingResponse & { body: Readable },
  bodyUnread: boolean,
  onError: (error: unknown) => void,
): void {
  const stream = response.body;
  const headers = response.headers.toFlat();
  if (bodyUnread) headers.push('connection', 'close');
  try {
    sink.writeHead(response.status, headers);
  } catch (error) {
    stream.destroy();
    deliver(
      sink,
      method,
      problemResponse(
        failure('TRELLIS_RESPONSE_UNWRITABLE', `The response could not be written: ${(error as Error).message}.`),
      ) as WholeResponse,
      bodyUnread,
      onError,
    );
    onError(error);
    return;
  }
  if (method === 'HEAD' || response.status === 204 || response.status === 304) {
    stream.destroy();
    sink.end();
    return;
  }
  nodeStream().pipeline(stream, sink, (error) => {
    // The client leaving is not a failure of ours: the stream has been stopped, nothing to report.
    if (error && error.code !== 'ERR_STREAM_PREMATURE_CLOSE') onError(error);
  });
}

/** Reads a streamed body whole, up to `limit` bytes; past it rejects with the limit in the error. */
export async function readWhole(stream: Readable, limit = Number.POSITIVE_INFINITY): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    size += bytes.length;
    if (size > limit) {
      stream.destroy();
      throw new ResponseTooLargeError(limit);
    }
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, size);
}

/** A streamed response that does not fit where it has to be held whole (a buffered Lambda response). */
export class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError';
  constructor(readonly limit: number) {
    super(`The streamed response is larger than ${limit} bytes.`);
  }
}
