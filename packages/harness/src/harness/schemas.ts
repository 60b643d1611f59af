import { isRecord } from '../dashboard/functions/index.js';
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { MAX_JSON_DEPTH, schemaCheck, schemaProblemMessage, tooDeep } from '../dashboard/index.js';
import type { JsonSchema, SchemaProblem } from '../dashboard/index.js';
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

/**
 * An object body, nested at most 64 levels, that passes `check` (none: its reader checks the fields); absent is
 * `{}` when `optional`.
 */
function objectBody<T>(what: string, optional: boolean, check?: (value: unknown) => SchemaProblem | undefined) {
  return schema<T>((value) => {
    if (value === undefined && optional) return { value: {} as T };
    if (!isRecord(value)) return { message: `The body should be ${what}${optional ? ' or empty' : ''}; got ${kindOf(value)}` };
    // Later steps (messages, cloning, copying into events) walk what is accepted; bounding depth keeps them safe.
    const deep = tooDeep(value);
    if (deep !== null) return { message: `The body nests deeper than ${MAX_JSON_DEPTH} levels of objects and arrays (at ${deep})` };
    const problem = check?.(value);
    return problem ? { message: schemaProblemMessage(problem), path: problem.path } : { value: value as T };
  });
}

/** The body of PUT …/state: an object of state fields, which the interpreter checks (a 422 naming the field). */
export const stateBody = described(objectBody<StateInput>('a JSON object of state fields', false), ref('StateInput'));

/** An optional JSON object body checked against `json`, which the document shows under `name`. */
const checkedBody = <T>(name: string, what: string, json: JsonSchema) => described(objectBody<T>(what, true, schemaCheck(json)), ref(name));

const actionRequest: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    forms: {
      type: 'object',
      additionalProperties: {
        description: 'a string, or an array of strings for a multi-valued field',
        oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }],
      },
      description: 'an object of field names to values',
    },
    confirm: { type: 'boolean', description: 'true or false' },
  },
};

const refreshRequest: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { mode: { type: 'string', enum: ['auto', 'manual'], description: '"auto" or "manual"' } },
};

/** The body of POST …/actions/{index}: `{ forms?, confirm? }`. */
export const actionBody = checkedBody<RunActionOptions>('ActionRequest', 'a JSON object with "forms" and/or "confirm"', actionRequest);
/** The body of POST …/refresh: `{ mode? }`. */
export const refreshBody = checkedBody<RefreshOptions>('RefreshRequest', 'a JSON object with "mode"', refreshRequest);
/** The JSON Schemas of those bodies, for the document's components. */
export const requestSchemas = { ActionRequest: actionRequest, RefreshRequest: refreshRequest };

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
