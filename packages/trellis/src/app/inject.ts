import type { OutgoingResponse } from '../pipeline/index.js';
import { BufferBodySource, failure, problemResponse } from '../pipeline/index.js';
import type { IncomingRequest } from './dispatch.js';
import { ResponseTooLargeError, deliver, isStreamed, readWhole, type ResponseSink, type WholeResponse } from './response-writer.js';
import { usageError } from '../errors/index.js';

export interface InjectRequest {
  method?: string;
  url: string;
  headers?: Record<string, string | string[]>;
  /** A string or bytes as is; any other value is sent as JSON (content-type set when missing). */
  body?: unknown;
  /** The address the request comes from, as a socket's peer would be; default `127.0.0.1`. */
  remoteAddress?: string;
}

export interface InjectResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string | string[]>;
  readonly body: string;
  readonly rawBody: Buffer;
  json<T = any>(): T;
}

/** Builds the dispatcher's request from an inject() call. */
export function injectedRequest(input: InjectRequest): IncomingRequest {
  if (!input || typeof input.url !== 'string')
    throw usageError('TRELLIS_INVALID_ARGUMENT', 'inject() needs { url } (and optionally method, headers, body).');
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(input.headers ?? {})) headers[k.toLowerCase()] = v;
  let buffer: Buffer | null = null;
  if (input.body !== undefined) {
    if (typeof input.body === 'string') buffer = Buffer.from(input.body);
    else if (input.body instanceof Uint8Array) buffer = Buffer.from(input.body);
    else {
      buffer = Buffer.from(JSON.stringify(input.body));
      headers['content-type'] ??= 'application/json';
    }
    headers['content-length'] = String(buffer.length);
  }
  return {
    method: (input.method ?? 'GET').toUpperCase(),
    url: input.url,
    headers,
    body: new BufferBodySource(buffer),
    signal: () => new AbortController().signal,
    remoteAddress: input.remoteAddress ?? '127.0.0.1',
  };
}

// The characters node:http accepts in a header name (an HTTP token) and rejects in a header value. Names and
// values that pass are the ones node:http passes; anything else goes to node:http's own check, which throws
// its usual error. So node:http is loaded only for a header it will refuse, not on every cold start.
const TOKEN = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
const INVALID_VALUE_CHAR = /[^\t\x20-\x7e\x80-\xff]/;

function checkHeader(name: string, values: readonly string[]): void {
  if (!TOKEN.test(name)) process.getBuiltinModule('node:http').validateHeaderName(name);
  for (const v of values) {
    if (typeof v !== 'string' || INVALID_VALUE_CHAR.test(v)) process.getBuiltinModule('node:http').validateHeaderValue(name, v);
  }
}

/**
 * What inject() hands the shared response writer in place of a socket: it checks status and headers as
 * node:http does (so a response that cannot go over the wire fails here too) and records what was written.
 */
class RecordingSink implements ResponseSink {
  status = 0;
  readonly headers: Record<string, string | string[]> = {};
  body = Buffer.alloc(0);

  writeHead(status: number, flat: (string | string[])[]): void {
    if (!Number.isInteger(status) || status < 100 || status > 999) throw new RangeError(`Invalid status code: ${String(status)}`);
    const headers: Record<string, string | string[]> = {};
    for (let i = 0; i < flat.length; i += 2) {
      const name = String(flat[i]);
      const value = flat[i + 1]!;
      checkHeader(name, Array.isArray(value) ? value : [value]);
      const key = name.toLowerCase();
      const seen = headers[key];
      headers[key] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), ...(Array.isArray(value) ? value : [value])];
    }
    this.status = status;
    Object.assign(this.headers, headers);
  }

  end(body?: string | Buffer): void {
    if (body !== undefined) this.body = Buffer.from(body);
  }
}

/** A response as a host writes it: the status, the headers node:http would send (lower-case names), the bytes. */
export interface RecordedResponse {
  readonly statusCode: number;
  readonly headers: Record<string, string | string[]>;
  /** Empty for HEAD, 204 and 304. */
  readonly rawBody: Buffer;
}

/**
 * Runs the response through the writer every host uses and records what it wrote. A streamed body is read
 * whole first, up to `maxBodyBytes` (a buffered Lambda response's limit): past it the answer is a 500 problem
 * that says so, and the error is reported.
 */
export async function recordResponse(
  method: string,
  response: OutgoingResponse,
  onError: (error: unknown) => void,
  maxBodyBytes?: number,
): Promise<RecordedResponse> {
  const sink = new RecordingSink();
  deliver(sink, method, await whole(response, method, onError, maxBodyBytes), false, onError);
  return { statusCode: sink.status, headers: sink.headers, rawBody: sink.body };
}

async function whole(
  response: OutgoingResponse,
  method: string,
  onError: (error: unknown) => void,
  limit: number | undefined,
): Promise<WholeResponse> {
  if (!isStreamed(response)) return response as WholeResponse;
  if (method === 'HEAD') {
    response.body.destroy();
    return { ...response, body: null };
  }
  try {
    const body = await readWhole(response.body, limit);
    response.headers.delete('transfer-encoding');
    return { ...response, body };
  } catch (error) {
    onError(error);
    const detail =
      error instanceof ResponseTooLargeError
        ? `The streamed response is larger than the ${error.limit} bytes this door can answer with; serve it through a door that streams (a Lambda function URL with response streaming, or listen()).`
        : `The streamed response failed: ${error instanceof Error ? error.message : String(error)}.`;
    return problemResponse(
      failure(error instanceof ResponseTooLargeError ? 'TRELLIS_RESPONSE_TOO_LARGE' : 'TRELLIS_HANDLER_FAILED', detail),
    ) as WholeResponse;
  }
}

/** Reads a recorded response back as inject() answers it. */
export function injectResponse(recorded: RecordedResponse): InjectResponse {
  const { statusCode, headers, rawBody } = recorded;
  const body = rawBody.toString('utf8');
  return {
    statusCode,
    headers,
    body,
    rawBody,
    json: <T>() => JSON.parse(body) as T,
  };
}
