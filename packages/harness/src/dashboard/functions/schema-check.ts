// The harness's inputs are each described once, as a JSON Schema: the same object is checked here (by Ajv) and
// shown in the API's OpenAPI document. A schema's `description` says what a valid value is ("a whole number of
// pixels from 240 to 100000"), so a refusal can say what was expected where.
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { showValue } from './show-value.js';

/** A JSON Schema of the harness's inputs. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** The first thing a value gets wrong: a field the schema does not know, or a field that is not what it should be. */
export type SchemaProblem =
  | { readonly kind: 'unknown'; readonly path: readonly string[]; readonly known: readonly string[] }
  | { readonly kind: 'name'; readonly path: readonly string[]; readonly expected: string }
  | { readonly kind: 'invalid'; readonly path: readonly string[]; readonly expected: string; readonly value: unknown };

let ajv: Ajv | undefined;

/**
 * A check of values against `schema`, compiled on first use: undefined for a valid value, else the deepest
 * problem the validator found (within a `oneOf`, the branch that got furthest).
 *
 * @example
 * const check = schemaCheck({ type: 'object', additionalProperties: false, properties: { a: { type: 'integer', description: 'a whole number' } } });
 * check({ a: 1.5 }); // { kind: 'invalid', path: ['a'], expected: 'a whole number', value: 1.5 }
 */
export function schemaCheck(schema: JsonSchema): (value: unknown) => SchemaProblem | undefined {
  let validate: ValidateFunction | undefined;
  return (value) => {
    validate ??= (ajv ??= new Ajv({ allErrors: false, strict: true, allowUnionTypes: true })).compile(schema);
    if (validate(value)) return undefined;
    const errors: ErrorObject[] = validate.errors ?? [];
    const depth = (e: ErrorObject): number => (e.instancePath === '' ? 0 : e.instancePath.split('/').length);
    const deepest = Math.max(...errors.map(depth));
    const here = errors.filter((e) => depth(e) === deepest);
    const path = here[0] ? steps(here[0].instancePath) : [];
    const extra = here.find((e) => e.keyword === 'additionalProperties');
    if (extra) {
      const holder = schemaAt(schema, path);
      const withFields = holder && [holder, ...branches(holder)].find((c) => c.properties);
      const known = Object.keys((withFields?.properties as object | undefined) ?? {});
      return { kind: 'unknown', path: [...path, String(extra.params.additionalProperty)], known };
    }
    const name = here.find((e) => e.keyword === 'propertyNames');
    if (name) {
      const names = schemaAt(schema, path)?.propertyNames as JsonSchema | undefined;
      return { kind: 'name', path: [...path, String(name.params.propertyName)], expected: String(names?.description ?? 'a valid name') };
    }
    const missing = here.find((e) => e.keyword === 'required');
    // Said of the nearest field whose schema says what it should be (an array item's own type usually does not).
    const at = missing ? [...path, String(missing.params.missingProperty)] : path;
    while (at.length > 0 && typeof schemaAt(schema, at)?.description !== 'string') at.pop();
    const holder = schemaAt(schema, at);
    const found = valueAt(value, at);
    // Of a choice between kinds (a URL or an object), say what the kind given should be.
    const ofKind = holder && branches(holder).filter((b) => typeof b.description === 'string' && b.type === jsonType(found));
    const expected = (ofKind?.length === 1 ? ofKind[0] : holder)?.description;
    return { kind: 'invalid', path: at, expected: typeof expected === 'string' ? expected : 'valid', value: found };
  };
}

/** The steps of a JSON pointer. */
function steps(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map(unescapePointer);
}

const unescapePointer = (s: string): string => s.replace(/~1/g, '/').replace(/~0/g, '~');

/** The schema that describes the value at `path`, looking into `oneOf`/`anyOf` branches for the fields. */
function schemaAt(schema: JsonSchema, path: readonly string[]): JsonSchema | undefined {
  let at: JsonSchema | undefined = schema;
  for (const step of path) {
    const candidates = [at, ...branches(at)];
    at = undefined;
    for (const c of candidates) {
      const properties = c.properties as Record<string, JsonSchema> | undefined;
      const inner = properties && Object.hasOwn(properties, step) ? properties[step] : (c.additionalProperties ?? c.items);
      if (typeof inner === 'object' && inner !== null) {
        at = inner as JsonSchema;
        break;
      }
    }
    if (!at) return undefined;
  }
  return at;
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value;
}

function branches(schema: JsonSchema): JsonSchema[] {
  return (schema.oneOf ?? schema.anyOf ?? []) as JsonSchema[];
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const step of path)
    at = typeof at === 'object' && at !== null && Object.hasOwn(at, step) ? (at as Record<string, unknown>)[step] : undefined;
  return at;
}

/**
 * A problem as the harness words it: `Unknown field "a.b"; known fields are …` or `"a.b" should be …; got …`.
 *
 * @example
 * schemaProblemMessage({ kind: 'invalid', path: ['theme'], expected: '"light" or "dark"', value: 'blue' }); // '"theme" should be "light" or "dark"; got "blue"'
 */
export function schemaProblemMessage(problem: SchemaProblem): string {
  const field = problem.path.join('.');
  if (problem.kind === 'unknown') return `Unknown field "${field}"; known fields are ${problem.known.join(', ')}`;
  if (problem.kind === 'name') return `"${field}": ${problem.expected}`;
  return `"${field}" should be ${problem.expected}; got ${problem.value === undefined ? 'nothing' : showValue(problem.value)}`;
}

/**
 * A copy of a value built in code without its `undefined` members, which JSON cannot hold and a field left
 * `undefined` means absent; functions and other values stay as they are.
 *
 * @example
 * withoutUndefined({ theme: undefined, period: 60 }); // { period: 60 }
 */
export function withoutUndefined<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutUndefined) as T;
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, member] of Object.entries(value)) if (member !== undefined) copy[key] = withoutUndefined(member);
  return copy as T;
}
