import type { OutgoingResponse } from '../../pipeline/index.js';
import { ResponseHeaders } from '../../pipeline/index.js';
import { Reply } from './reply.js';
import { isStreamBody, toByteStream } from './streams.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Turns a handler's return value into a response: object → JSON, string → text, bytes → octets, a stream (a
 * Node.js Readable, a web ReadableStream or an async iterable of strings and bytes) → streamed, undefined → 204.
 */
export function toResponse(result: unknown): OutgoingResponse {
  let status = 200;
  let headers = new ResponseHeaders();
  let body = result;
  if (result instanceof Reply) {
    status = result.status;
    headers = new ResponseHeaders(result.headers);
    body = result.body;
  }
  if (body === undefined || body === null) {
    return { status: result instanceof Reply ? status : 204, headers, body: null };
  }
  if (typeof body === 'string') {
    if (!headers.has('content-type')) headers.set('content-type', 'text/plain; charset=utf-8');
    return { status, headers, body };
  }
  if (isStreamBody(body)) {
    if (!headers.has('content-type')) headers.set('content-type', 'application/octet-stream');
    return { status, headers, body: toByteStream(body) };
  }
  if (body instanceof Uint8Array) {
    if (!headers.has('content-type')) headers.set('content-type', 'application/octet-stream');
    return { status, headers, body: Buffer.from(body.buffer, body.byteOffset, body.byteLength) };
  }
  if (!headers.has('content-type')) headers.set('content-type', JSON_TYPE);
  return { status, headers, body: JSON.stringify(body) };
}
