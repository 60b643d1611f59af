import { problem } from './problem.js';
import type { ProblemDetails } from './problem.js';

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
      throw new RangeError(`HttpError needs a 4xx or 5xx status, got ${String(status)}.`);
    }
    super(detail ?? `HTTP ${status}`);
    this.problem = problem(status, detail, extensions);
    this.headers = headers;
  }

  get status(): number {
    return this.problem.status;
  }
}
