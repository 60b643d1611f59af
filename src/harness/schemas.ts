import type { StandardSchemaV1 } from '@standard-schema/spec';
import { MAX_JSON_DEPTH, tooDeep } from '../dashboard/index.js';

type Check<T> = (value: unknown) => { value: T } | { message: string };

function schema<T>(check: Check<T>): StandardSchemaV1<unknown, T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'trellis-harness',
      validate(value) {
        const result = check(value);
        return 'message' in result ? { issues: [{ message: result.message }] } : { value: result.value };
      },
    },
  };
}

function kindOf(value: unknown): string {
  if (value === undefined) return 'an empty body';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value === 'object' ? 'JSON object' : typeof value}`;
}

/** The body of POST /api/dashboards: a JSON string whose content is the dashboard JSON text. */
export const dashboardTextBody = schema<string>((value) =>
  typeof value === 'string'
    ? { value }
    : {
        message: `The body should be a JSON string holding the dashboard JSON text, e.g. "{\\"widgets\\":[]}" (send JSON.stringify(text)); got ${kindOf(value)}`,
      },
);

// Later steps (validation messages, cloning, copying into events) walk what is accepted; bounding the depth
// here keeps every one of them safe.
function shallowObject(value: Record<string, unknown>): { value: Record<string, unknown> } | { message: string } {
  const deep = tooDeep(value);
  return deep === null ? { value } : { message: `The body nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays (at ${deep})` };
}

/** A body that must be a JSON object, nested at most 64 levels. */
export const objectBody = schema<Record<string, unknown>>((value) =>
  isObject(value) ? shallowObject(value) : { message: `The body should be a JSON object; got ${kindOf(value)}` },
);

/** A body that may be absent (then `{}`) or a JSON object nested at most 64 levels. */
export const optionalObjectBody = schema<Record<string, unknown>>((value) =>
  value === undefined ? { value: {} } : isObject(value) ? shallowObject(value) : { message: `The body should be a JSON object or empty; got ${kindOf(value)}` },
);

/** The HTML to lint: `text/html` text, or a JSON string; an empty body is empty HTML. */
export const htmlBody = schema<string>((value) =>
  value === undefined
    ? { value: '' }
    : typeof value === 'string'
      ? { value }
      : { message: `The body should be the HTML as text/html, or a JSON string holding it; got ${kindOf(value)}` },
);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
