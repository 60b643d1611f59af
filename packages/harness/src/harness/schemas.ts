import { isRecord } from '../dashboard/functions/index.js';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { MAX_JSON_DEPTH, STATE_FIELDS, tooDeep } from '../dashboard/index.js';
import type { RefreshOptions, RunActionOptions, StateInput } from '../dashboard/index.js';
import { MAX_IMAGE_SCALE, MAX_IMAGE_SIDE } from '../snapshot/index.js';

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

/**
 * A validator that also gives its JSON Schema (the Standard JSON Schema interface), which the API's OpenAPI
 * document shows; refs name the document's schemas (openapi-schemas.ts).
 */
function described<T>(validator: StandardSchemaV1<unknown, T>, json: Record<string, unknown>): StandardSchemaV1<unknown, T> {
  const jsonSchema = { input: () => json, output: () => json };
  return { '~standard': { ...validator['~standard'], jsonSchema } } as StandardSchemaV1<unknown, T>;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

const show = (value: unknown): string => JSON.stringify(value) ?? String(value);
const quoted = (names: readonly string[]) => names.map((n) => `"${n}"`).join(', ');

/**
 * An object body with only the `known` fields, each passing its check, nested at most 64 levels; absent is
 * `{}` when `optional`. `retired` says, for a field that is no longer known, what replaced it.
 */
function fieldsBody<T>(
  what: string,
  known: readonly string[],
  checks: Record<string, (v: unknown) => string | undefined>,
  optional: boolean,
  retired: Record<string, string> = {},
) {
  return schema<T>((value) => {
    if (value === undefined && optional) return { value: {} as T };
    if (!isRecord(value)) return { message: `The body should be ${what}${optional ? ' or empty' : ''}; got ${kindOf(value)}` };
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
export const stateBody = described(
  fieldsBody<StateInput>('a JSON object of state fields', STATE_FIELDS, {}, false, { width: SIZE_FIELDS, height: SIZE_FIELDS }),
  ref('StateInput'),
);

/** One field of a request body, described once: its JSON Schema (as the API's document shows it) and its check. */
interface BodyField {
  readonly schema: Record<string, unknown>;
  readonly check: (value: unknown) => string | undefined;
}

/**
 * An optional JSON object body of `fields`, and its JSON Schema: the validator and the document's schema (under
 * `name` in the document's components) come from the one description, so they cannot disagree.
 */
function objectBody<T>(name: string, what: string, fields: Record<string, BodyField>) {
  const names = Object.keys(fields);
  const checks = Object.fromEntries(names.map((field) => [field, fields[field]!.check]));
  const schema = {
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(names.map((field) => [field, fields[field]!.schema])),
  };
  return { body: described(fieldsBody<T>(what, names, checks, true), ref(name)), schema };
}

const action = objectBody<RunActionOptions>('ActionRequest', 'a JSON object with "forms" and/or "confirm"', {
  forms: {
    schema: {
      type: 'object',
      additionalProperties: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
      description: 'Form values overriding the widget HTML values; a name that is not a field is a 422 listing the known names.',
    },
    check: (v) => (isRecord(v) ? undefined : `"forms" should be an object of field names to values; got ${show(v)}`),
  },
  confirm: {
    schema: { type: 'boolean', description: '`false` cancels an action that asks for confirmation.' },
    check: (v) => (typeof v === 'boolean' ? undefined : `"confirm" should be true or false; got ${show(v)}`),
  },
});

const refresh = objectBody<RefreshOptions>('RefreshRequest', 'a JSON object with "mode"', {
  mode: {
    schema: { type: 'string', enum: ['auto', 'manual'] },
    check: (v) => (v === 'auto' || v === 'manual' ? undefined : `"mode" should be "auto" or "manual"; got ${show(v)}`),
  },
});

/** The body of POST …/actions/{index}: `{ forms?, confirm? }`. */
export const actionBody = action.body;
/** The body of POST …/refresh: `{ mode? }`. */
export const refreshBody = refresh.body;
/** The JSON Schemas of those bodies, for the document's components. */
export const requestSchemas = { ActionRequest: action.schema, RefreshRequest: refresh.schema };

function kindOf(value: unknown): string {
  if (value === undefined) return 'an empty body';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value === 'object' ? 'JSON object' : typeof value}`;
}

/** The body of POST /api/dashboards: a JSON string whose content is the dashboard JSON text. */
export const dashboardTextBody = described(
  schema<string>((value) =>
    typeof value === 'string'
      ? { value }
      : {
          message: `The body should be a JSON string holding the dashboard JSON text, e.g. "{\\"widgets\\":[]}" (send JSON.stringify(text)); got ${kindOf(value)}`,
        },
  ),
  { type: 'string', description: 'The dashboard JSON text, as a JSON string.', examples: ['{"widgets":[]}'] },
);

/** The HTML to lint: `text/html` text, or a JSON string; an empty body is empty HTML. */
export const htmlBody = described(
  schema<string>((value) =>
    value === undefined
      ? { value: '' }
      : typeof value === 'string'
        ? { value }
        : { message: `The body should be the HTML as text/html, or a JSON string holding it; got ${kindOf(value)}` },
  ),
  { type: 'string', description: 'The HTML, as `text/html` or as a JSON string.' },
);

/**
 * A query the handler reads itself (a repeated parameter is its error, which an object of fields cannot show):
 * every query passes, and the document shows its fields.
 */
const queryOf = (properties: Record<string, unknown>) =>
  described(
    schema<Record<string, string>>((value) => ({ value: value as Record<string, string> })),
    { type: 'object', properties },
  );

/** The query of POST /api/dashboards. */
export const dashboardQuery = queryOf({
  name: { type: 'string', minLength: 1, maxLength: 255, description: 'Default `dashboard`; 1–255 characters.' },
});

/** The query of GET /api/changes. */
export const changesQuery = queryOf({
  after: { type: 'integer', minimum: 0, description: 'The last change number seen.' },
  wait: { type: 'integer', minimum: 0, maximum: 60, description: 'Seconds to wait for a change; default 25, at most 60.' },
});

/** The query of GET /api/dashboards/{id}/widgets/{wid}/image. */
export const imageQuery = queryOf({
  theme: { type: 'string', enum: ['light', 'dark'], description: "The frame's theme; default the dashboard's." },
  width: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_IMAGE_SIDE,
    description: "CSS pixels; default the widget's width at the dashboard's width (what its function is told).",
  },
  height: { type: 'integer', minimum: 1, maximum: MAX_IMAGE_SIDE, description: "CSS pixels; default the widget's height." },
  scale: { type: 'integer', minimum: 1, maximum: MAX_IMAGE_SCALE, description: 'Device pixels per CSS pixel; default 1.' },
});
