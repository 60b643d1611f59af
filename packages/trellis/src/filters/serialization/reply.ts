import type { HeaderValue } from '../../pipeline/index.js';
import { usageError } from '../../errors/index.js';

/** A handler result with an explicit status and headers. */
export class Reply {
  constructor(
    readonly body: unknown,
    readonly status: number,
    readonly headers: Readonly<Record<string, HeaderValue>>,
  ) {}
}

/**
 * Answers with an explicit status and headers; the body follows the usual rules (object → JSON,
 * string → text, undefined → no body).
 *
 * @example
 * return reply({ id }, { status: 201, headers: { location: `/orders/${id}` } });
 */
export function reply(body: unknown, init: { status?: number; headers?: Record<string, HeaderValue> } = {}): Reply {
  const status = init.status ?? (body === undefined ? 204 : 200);
  if (!Number.isInteger(status) || status < 100 || status > 599)
    throw usageError('TRELLIS_INVALID_ARGUMENT', `reply(): status must be 100–599, got ${String(status)}.`, RangeError);
  return new Reply(body, status, init.headers ?? {});
}
