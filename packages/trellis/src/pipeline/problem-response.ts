import type { OutgoingResponse } from './context.js';
import { ResponseHeaders } from './headers.js';
import type { ProblemDetails } from './problem.js';

/**
 * The response of a problem document, the one way the framework answers a failure: its status, the problem as
 * `application/problem+json`, and `headers` (copied) beside it.
 */
export function problemResponse(problem: ProblemDetails, headers?: ResponseHeaders): OutgoingResponse {
  const out = new ResponseHeaders(headers);
  out.set('content-type', 'application/problem+json; charset=utf-8');
  return { status: problem.status, headers: out, body: JSON.stringify(problem) };
}
