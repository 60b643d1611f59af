import type { StandardSchemaV1 } from '@standard-schema/spec';
import { failureError } from '../../pipeline/index.js';

/**
 * Runs a Standard Schema validator; failures become problems listing the issues and the `field` the first one
 * names: 400, or `fieldStatus` when that issue has a path. A validator that answers at once is answered at once
 * (no promise, so no extra turn of the event loop); an asynchronous one with a promise.
 */
export function validate(
  schema: StandardSchemaV1,
  value: unknown,
  part: 'body' | 'query' | 'params' | 'headers' | 'cookies',
  fieldStatus: 400 | 422 = 400,
): unknown {
  const result = schema['~standard'].validate(value);
  if (result instanceof Promise) return result.then((settled) => validated(settled, part, fieldStatus));
  return validated(result, part, fieldStatus);
}

/** The validated value, or the problem that lists the issues. */
function validated(
  result: StandardSchemaV1.Result<unknown>,
  part: 'body' | 'query' | 'params' | 'headers' | 'cookies',
  fieldStatus: 400 | 422,
): unknown {
  if (!result.issues) return result.value;
  const issues = result.issues.map((issue) => ({
    message: issue.message,
    path: (issue.path ?? []).map((p) => (typeof p === 'object' && p !== null ? p.key : p)).map(String),
  }));
  const field = issues[0]?.path.join('.') ?? '';
  const what = part === 'params' ? 'path parameters are' : part === 'headers' || part === 'cookies' ? `${part} are` : `${part} is`;
  const detail = `The request ${what} invalid: ${issues.map((i) => (i.path.length ? `${i.path.join('.')}: ` : '') + i.message).join('; ')}`;
  throw failureError('TRELLIS_VALIDATION_FAILED', detail, field ? { issues, field } : { issues }, field ? fieldStatus : 400);
}
