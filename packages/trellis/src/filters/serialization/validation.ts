import type { StandardSchemaV1 } from '@standard-schema/spec';
import { HttpError } from '../../pipeline/index.js';

/**
 * Runs a Standard Schema validator; failures become problems listing the issues and the `field` the first one
 * names: 400, or `fieldStatus` when that issue has a path.
 */
export async function validate(
  schema: StandardSchemaV1,
  value: unknown,
  part: 'body' | 'query' | 'params' | 'headers',
  fieldStatus: 400 | 422 = 400,
): Promise<unknown> {
  const result = await schema['~standard'].validate(value);
  if (!result.issues) return result.value;
  const issues = result.issues.map((issue) => ({
    message: issue.message,
    path: (issue.path ?? []).map((p) => (typeof p === 'object' && p !== null ? p.key : p)).map(String),
  }));
  const field = issues[0]?.path.join('.') ?? '';
  const what = part === 'params' ? 'path parameters are' : part === 'headers' ? 'headers are' : `${part} is`;
  const detail = `The request ${what} invalid: ${issues.map((i) => (i.path.length ? `${i.path.join('.')}: ` : '') + i.message).join('; ')}`;
  throw new HttpError(
    field ? fieldStatus : 400,
    detail,
    field ? { code: 'TRELLIS_VALIDATION_FAILED', issues, field } : { code: 'TRELLIS_VALIDATION_FAILED', issues },
  );
}
