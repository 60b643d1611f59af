import type { OutgoingResponse } from '../pipeline/index.js';
import { problem } from '../pipeline/index.js';
import { problemResponse } from '../filters/index.js';

/** Where a response goes: a node:http `ServerResponse`, or inject()'s recording of one. */
export interface ResponseSink {
  writeHead(status: number, headers: (string | string[])[]): unknown;
  /** node:http keeps the reason phrase of a failed writeHead; it is cleared before the 500 goes out. */
  statusMessage?: string;
  end(body?: string | Buffer): unknown;
}

/**
 * Writes a finished response, the one way every host does: `Content-Length` from the body (`0` for an empty
 * one, none for 204 and 304), HEAD answered with the headers a GET would have and no body, and
 * `Connection: close` when the request body was never read (it may never come).
 */
export function writeResponse(sink: ResponseSink, method: string, response: OutgoingResponse, bodyUnread: boolean): void {
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
export function deliver(sink: ResponseSink, method: string, response: OutgoingResponse, bodyUnread: boolean, onError: (error: unknown) => void): void {
  try {
    writeResponse(sink, method, response, bodyUnread);
  } catch (error) {
    onError(error);
    if (sink.statusMessage !== undefined) sink.statusMessage = '';
    const detail = `The response could not be written: ${error instanceof Error ? error.message : String(error)}.`;
    writeResponse(sink, method, problemResponse(problem(500, detail)), bodyUnread);
  }
}
