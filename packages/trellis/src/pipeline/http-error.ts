import { FAILURES, problem } from './problem.js';
import type { FailureCode, ProblemDetails } from './problem.js';
import { usageError } from '../errors/index.js';

/**
 * Thrown by a handler (or a filter) to answer with a problem-details error instead of a 500.
 *
 * @example
 * if (!order) throw new HttpError(404, `No order has the id ${id}.`);
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly problem: ProblemDetails;
  readonly headers: Record<string, string>;

  constructor(status: number, detail?: string, extensions: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw usageError('TRELLIS_INVALID_ARGUMENT', `HttpError needs a 4xx or 5xx status, got ${String(status)}.`, RangeError);
    }
    super(detail ?? `HTTP ${status}`);
    this.problem = problem(status, detail, extensions);
    this.headers = headers;
  }

  get status(): number {
    return this.problem.status;
  }
}

/**
 * The HttpError of one of the framework's own failures: its status from the table (unless `status` is given, as
 * for a validation failure configured to answer 422), its standard title and its stable `code`.
 */
export function failureError(
  code: FailureCode,
  detail: string,
  extensions: Record<string, unknown> = {},
  status: number = FAILURES[code],
): HttpError {
  return new HttpError(status, detail, { code, ...extensions });
}
