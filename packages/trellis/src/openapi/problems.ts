import { FAILURES } from '../index.js';
import type { JsonSchemaObject } from './types.js';

/** The media type of every failure the framework answers. */
export const PROBLEM_JSON = 'application/problem+json';

const string = { type: 'string' } as const;
const strings = { type: 'array', items: string } as const;

/**
 * The shared `Problem` schema: an RFC 9457 problem document with the members the framework's failures carry, and
 * `code` one of the framework's codes (or the app's own, given as `problemCodes`).
 */
export function problemSchema(
  extraCodes: readonly string[] = [],
  extensions: Readonly<Record<string, JsonSchemaObject>> = {},
): JsonSchemaObject {
  const codes = [...new Set([...Object.keys(FAILURES), ...extraCodes])].sort();
  return {
    type: 'object',
    description:
      'A problem document (RFC 9457). `code` tells the failures apart without reading `detail`; extension members sit beside the standard ones.',
    required: ['title', 'status'],
    properties: {
      type: { ...string, description: 'A URI naming the kind of problem; `about:blank` for a plain HTTP status.' },
      title: { ...string, description: "The status's reason phrase." },
      status: { type: 'integer', minimum: 400, maximum: 599 },
      detail: { ...string, description: 'What went wrong, for a person to read.' },
      instance: string,
      code: { ...string, enum: codes, description: 'A stable code for the failure.' },
      issues: {
        type: 'array',
        description: 'What a schema refused (`TRELLIS_VALIDATION_FAILED`).',
        items: { type: 'object', required: ['message', 'path'], properties: { message: string, path: strings } },
      },
      field: { ...string, description: 'The field the first issue names, as a dotted path.' },
      supported: { ...strings, description: 'The media types the route takes (`TRELLIS_UNSUPPORTED_MEDIA_TYPE`).' },
      missingGrants: { ...strings, description: 'The grants the caller lacks (`TRELLIS_MISSING_GRANT`).' },
      limit: { type: ['integer', 'string'], description: 'The limit in bytes (413, 414), or the name of the rate limit (429, 500).' },
      retryAfter: { type: 'integer', minimum: 0, description: 'Seconds until a retry may succeed (429, 503).' },
      cost: { type: 'integer', minimum: 1, description: 'The permits the refused request would have spent, when more than one.' },
      blocked: { type: 'boolean', description: 'The caller is blocked for a while after overrunning the limit.' },
      reason: { ...string, description: 'Why the rate-limit store could not decide.' },
      ...extensions,
    },
  };
}

/** A failure response: a description and the shared `Problem` schema. */
export function problemResponseObject(
  description: string,
  problemRef: string,
  headers?: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  return {
    description,
    ...(headers && Object.keys(headers).length > 0 ? { headers } : {}),
    content: { [PROBLEM_JSON]: { schema: { $ref: problemRef } } },
  };
}
