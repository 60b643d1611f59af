import type { OutgoingResponse } from '../pipeline/index.js';
import { failure, problemResponse } from '../pipeline/index.js';
import type { IncomingRequest } from './dispatch.js';

/** node:http's default `maxHeaderSize`, which `listen()` also uses when none is set. */
export const DEFAULT_MAX_HEADER_SIZE = 16 * 1024;

/**
 * The size of a request's head as it would travel in HTTP/1.1 (request line, every header line), so that
 * requests that reach the app without a socket (`inject()`, the AWS Lambda front doors) are held to the same
 * `maxHeaderSize` as those `listen()` reads.
 */
export function headBytes(request: IncomingRequest): number {
  let bytes = request.method.length + request.url.length + 12; // ' ' + ' HTTP/1.1\r\n' + final '\r\n'
  const headers = request.headers;
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined) continue;
    if (typeof value === 'string') bytes += name.length + value.length + 4;
    else for (const item of value) bytes += name.length + item.length + 4;
  }
  return bytes;
}

/** The 431 a request gets whose head is larger than `maxHeaderSize`, as `listen()` answers it. */
export function headerFieldsTooLarge(): OutgoingResponse {
  return problemResponse(failure('TRELLIS_HEADERS_TOO_LARGE', 'The request headers are larger than the server accepts.'));
}

/** Default of `createApp({ maxUrlLength })`: 8 KiB of request target. */
export const DEFAULT_MAX_URL_LENGTH = 8 * 1024;
