import type { StandardSchemaV1 } from '@standard-schema/spec';
import { HttpError } from '../../pipeline/index.js';

/** Runs a Standard Schema validator; failures become 400 problems listing the issues. */
export async function validate(schema: StandardSchemaV1, value: unknown, part: 'body' | 'query'): Promise<unknown> {
  const result = await schema['~standard'].validate(value);
  if (!result.issues) return result.value;
  const issues = result.issues.map((issue) => ({
    message: issue.message,
    path: (issue.path ?? []).map((p) => (typeof p === 'object' && p !== null ? p.key : p)).map(String),
  }));
  throw new HttpError(400, `The request ${part} is invalid: ${issues.map((i) => (i.path.length ? `${i.path.join('.')}: ` : '') + i.message).join('; ')}`, { issues });
}
