import { DashboardError, DashboardValidationError, NotFoundError, UnprocessableError } from '../dashboard/index.js';
import { HttpError } from '../index.js';

/**
 * Turns the interpreter's typed refusals into problem details: validation → 400 (with
 * `validationMessages`), not found → 404 (with `target`), unprocessable → 422 (with `field`).
 * Anything else is rethrown and becomes the framework's 500.
 */
export function toHttpError(error: unknown): unknown {
  if (!(error instanceof DashboardError)) return error;
  if (error instanceof DashboardValidationError) {
    return new HttpError(400, error.message, { validationMessages: error.validationMessages });
  }
  if (error instanceof NotFoundError) return new HttpError(404, error.message, { target: error.target });
  if (error instanceof UnprocessableError) return new HttpError(422, error.message, { field: error.field });
  return new HttpError(error.kind === 'not-found' ? 404 : error.kind === 'validation' ? 400 : 422, error.message);
}

/** Runs an interpreter call, answering its refusals as problem details. */
export async function answer<T>(call: () => T | Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw toHttpError(error);
  }
}
