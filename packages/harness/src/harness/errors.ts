import { DashboardError, DashboardValidationError, NotFoundError, OverBudgetError, UnprocessableError } from '../dashboard/index.js';
import { HttpError } from 'trellis';

/**
 * The harness app's error handler: the interpreter's typed refusals become problem details — validation →
 * 400 (with `validationMessages`), not found → 404 (with `target`), unprocessable → 422 (with `field`), over
 * budget → 413 (with `budget` and `limit`, and `Retry-After` when room comes back after a known time).
 * Registered once with `app.onError(DashboardError, …)`; anything else becomes the framework's 500.
 */
export function dashboardErrorToProblem(error: DashboardError): never {
  throw toHttpError(error);
}

function toHttpError(error: DashboardError): HttpError {
  if (error instanceof DashboardValidationError) {
    return new HttpError(400, error.message, { validationMessages: error.validationMessages });
  }
  if (error instanceof NotFoundError) return new HttpError(404, error.message, { target: error.target });
  if (error instanceof UnprocessableError) return new HttpError(422, error.message, { field: error.field });
  if (error instanceof OverBudgetError) {
    // When room comes back is known when it waits only on time: say it as HTTP does, too.
    const retry: Record<string, string> = error.retryAfterSeconds === null ? {} : { 'retry-after': String(error.retryAfterSeconds) };
    return new HttpError(413, error.message, { budget: error.budget, limit: error.limit }, retry);
  }
  return new HttpError(
    error.kind === 'not-found' ? 404 : error.kind === 'validation' ? 400 : error.kind === 'over-budget' ? 413 : 422,
    error.message,
  );
}
