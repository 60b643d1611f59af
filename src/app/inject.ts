import type { OutgoingResponse } from '../pipeline/index.js';
import { BufferBodySource } from '../pipeline/index.js';
import type { IncomingRequest } from './dispatch.js';

export interface InjectRequest {
  method?: string;
  url: string;
  headers?: Record<string, string | string[]>;
  /** A string or bytes as is; any other value is sent as JSON (content-type set when missing). */
  body?: unknown;
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
  if (!input || typeof input.url !== 'string') throw new TypeError('inject() needs { url } (and optionally method, headers, body).');
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
  };
}

export function injectResponse(method: string, response: OutgoingResponse): InjectResponse {
  const rawBody = method === 'HEAD' || response.body === null ? Buffer.alloc(0) : Buffer.from(response.body);
  const headers = response.headers.toObject();
  headers['content-length'] = String(rawBody.length);
  const body = rawBody.toString('utf8');
  return {
    statusCode: response.status,
    headers,
    body,
    rawBody,
    json: () => JSON.parse(body),
  };
}
