import type { StandardSchemaV1 } from '@standard-schema/spec';
import { MAX_JSON_DEPTH, tooDeep } from '../dashboard/index.js';
import type { RefreshOptions, RunActionOptions, StateInput } from '../dashboard/index.js';

/** A failed check: what is wrong, and the field it is about (none: the body as a whole). */
type Failure = { message: string; path?: readonly string[] };
type Check<T> = (value: unknown) => { value: T } | Failure;

function schema<T>(check: Check<T>): StandardSchemaV1<unknown, T> {
  return {
    '~standard': {
      version: 1,
      vendor: 'trellis-harness',
      validate(value) {
        const result = check(value);
        return 'message' in result ? { issues: [{ message: result.message, path: result.path }] } : { value: result.value };
      },
    },
  };
}

const show = (value: unknown): string => JSON.stringify(value) ?? String(value);
const quoted = (names: readonly string[]) => names.map((n) => `"${n}"`).join(', ');

/**
 * An object body with only the `known` fields, each passing its check, nested at most 64 levels; absent is
 * `{}` when `optional`. `retired` says, for a field that is no longer known, what replaced it.
 */
function fieldsBody<T>(
  what: string, known: readonly string[], checks: Record<string, (v: unknown) => string | undefined>, optional: boolean,
  retired: Record<string, string> = {},
) {
  return schema<T>((value) => {
    if (value === undefined && optional) return { value: {} as T };
    if (!isObject(value)) return { message: `The body should be ${what}${optional ? ' or empty' : ''}; got ${kindOf(value)}` };
    // Later steps (messages, cloning, copying into events) walk what is accepted; bounding depth keeps them safe.
    const deep = tooDeep(value);
    if (deep !== null) return { message: `The body nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays (at ${deep})` };
    for (const key of Object.keys(value)) {
      if (!known.includes(key)) {
        const instead = Object.hasOwn(retired, key) ? ` (${retired[key]})` : '';
        return { message: `Unknown field "${key}"${instead}; known fields are ${quoted(known)}`, path: [key] };
      }
      const problem = checks[key]?.(value[key]);
      if (problem !== undefined) return { message: problem, path: [key] };
    }
    return { value: value as T };
  });
}

const SIZE_FIELDS = '"width" and "height" are no longer state fields: set "dashboardWidth" for every widget, or "widgetSizes" for one';

/** The body of PUT …/state: the state's fields (their values are checked by the interpreter). */
export const stateBody = fieldsBody<StateInput>(
  'a JSON object of state fields',
  ['timeRange', 'zoom', 'period', 'theme', 'timezone', 'locale', 'accountId', 'dashboardName', 'linkCharts', 'dashboardWidth', 'widgetSizes'],
  {},
  false,
  { width: SIZE_FIELDS, height: SIZE_FIELDS },
);

/** The body of POST …/actions/{index}: `{ forms?, confirm? }`. */
export const actionBody = fieldsBody<RunActionOptions>(
  'a JSON object with "forms" and/or "confirm"',
  ['forms', 'confirm'],
  {
    forms: (v) => (isObject(v) ? undefined : `"forms" should be an object of field names to values; got ${show(v)}`),
    confirm: (v) => (typeof v === 'boolean' ? undefined : `"confirm" should be true or false; got ${show(v)}`),
  },
  true,
);

/** The body of POST …/refresh: `{ mode? }`. */
export const refreshBody = fieldsBody<RefreshOptions>(
  'a JSON object with "mode"',
  ['mode'],
  { mode: (v) => (v === 'auto' || v === 'manual' ? undefined : `"mode" should be "auto" or "manual"; got ${show(v)}`) },
  true,
);

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
