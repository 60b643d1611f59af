import { callUserCodeSync, type FailureLog, type UserHook } from '../pipeline/index.js';
import type { JsonSchemaContext, JsonSchemaConverter, JsonSchemaObject } from './types.js';

/** The extension that marks a schema the document could not convert, saying why. */
export const UNCONVERTED = 'x-trellis-unconverted';

interface StandardProps {
  readonly vendor?: unknown;
  readonly validate?: unknown;
  readonly jsonSchema?: {
    readonly input?: (options: { target: string }) => unknown;
    readonly output?: (options: { target: string }) => unknown;
  };
}

/** A schema's Standard Schema properties, if it has any. */
export function standardOf(schema: object): StandardProps | undefined {
  const props = (schema as { '~standard'?: unknown })['~standard'];
  return props !== null && typeof props === 'object' ? props : undefined;
}

/** JSON data only (no functions, cycles or big integers): the schema as a document can hold it. */
function plain(value: unknown): JsonSchemaObject {
  const text = JSON.stringify(value);
  const parsed: unknown = text === undefined ? undefined : JSON.parse(text);
  if (parsed === true) return {};
  if (parsed === false) return { not: {} };
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new TypeError('the converter gave no JSON Schema object');
  return parsed as JsonSchemaObject;
}

const unconverted = (reason: string): JsonSchemaObject => ({ [UNCONVERTED]: reason });
const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** A converter that failed: why, for the schema's note. */
class ConverterFailed {
  constructor(readonly error: unknown) {}
}

const CONVERTER: UserHook<JsonSchemaObject | undefined, ConverterFailed> = {
  where: 'OpenApiOptions.jsonSchema',
  instead: 'the schema was shown as unconverted',
  accept: (answer) => (answer === undefined ? undefined : plain(answer)),
  fallback: ({ error }) => new ConverterFailed(error),
};

/**
 * The JSON Schema of a schema: a JSON Schema object as is; a validation library's schema through the converter
 * the options give, else what the schema itself offers (the Standard JSON Schema interface: the `input` schema
 * for what a request sends, the `output` schema for what a response holds). One that cannot be converted is `{}` with an `x-trellis-unconverted` note
 * saying why; nothing here throws. The converter must answer at once; one that throws or answers what is not a
 * JSON Schema object is logged (to `log`) besides.
 */
export function toJsonSchema(
  schema: object,
  context: JsonSchemaContext,
  converter: JsonSchemaConverter | undefined,
  log: FailureLog,
): JsonSchemaObject {
  const standard = standardOf(schema);
  const vendor = typeof standard?.vendor === 'string' ? standard.vendor : undefined;
  const what = vendor ? `a ${vendor} schema` : 'a schema';
  try {
    if (!standard) return withoutDialect(plain(schema));
    const given =
      converter === undefined
        ? undefined
        : callUserCodeSync(log, CONVERTER, () => converter(schema, { ...context, vendor }), `${context.part} of ${context.route.id}`);
    if (given instanceof ConverterFailed) return unconverted(`${what} that could not be converted: ${messageOf(given.error)}`);
    if (given !== undefined) return withoutDialect(given);
    // A request must send what the schema takes (its input); a response is what the handler gives (its output).
    const convert = context.part === 'response' ? standard.jsonSchema?.output : standard.jsonSchema?.input;
    if (typeof convert === 'function') return withoutDialect(plain(convert.call(standard.jsonSchema, { target: 'draft-2020-12' })));
    return unconverted(`${what} that offers no JSON Schema: give createOpenApiDocument a jsonSchema converter for it`);
  } catch (error) {
    return unconverted(`${what} that could not be converted: ${messageOf(error)}`);
  }
}

/** Inside an OpenAPI 3.1 document a schema's dialect is the document's. */
function withoutDialect(schema: JsonSchemaObject): JsonSchemaObject {
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}

const COMPONENT_NAME = /^[A-Za-z0-9._-]+$/;
const componentName = (name: string) => (COMPONENT_NAME.test(name) ? name : name.replace(/[^A-Za-z0-9._-]/g, '_') || 'Schema');

/** The document's named schemas: each name holds one schema, and one schema added twice keeps one name. */
export class SchemaComponents {
  readonly #byName = new Map<string, JsonSchemaObject>();
  readonly #texts = new Map<string, string>();

  /** Whether `name` is free or holds this very schema. */
  fits(name: string, schema: JsonSchemaObject): boolean {
    const held = this.#texts.get(name);
    return held === undefined || held === JSON.stringify(schema);
  }

  /** A name like `name` that holds nothing yet and is not in `taken`. */
  free(name: string, taken: ReadonlySet<string> = new Set()): string {
    const base = componentName(name);
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? base : `${base}_${n}`;
      if (!this.#texts.has(candidate) && !taken.has(candidate)) return candidate;
    }
  }

  /** Adds a schema under `name` (or `name_2`, … when the name holds another); returns the name it got. */
  add(name: string, schema: JsonSchemaObject): string {
    const text = JSON.stringify(schema);
    const base = componentName(name);
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? base : `${base}_${n}`;
      const held = this.#texts.get(candidate);
      if (held === text) return candidate;
      if (held === undefined) {
        this.#byName.set(candidate, schema);
        this.#texts.set(candidate, text);
        return candidate;
      }
    }
  }

  /** Every named schema, sorted by name. */
  sorted(): Record<string, JsonSchemaObject> {
    return Object.fromEntries([...this.#byName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  }
}

const ref = (name: string) => `#/components/schemas/${name}`;

/** A ref into the document itself (`#/components/schemas/Order`), which a schema given as JSON Schema may hold. */
const documentRef = (ref: string) => ref.startsWith('#/components/');
const isLocal = (key: string, v: unknown): v is string => key === '$ref' && typeof v === 'string' && v.startsWith('#') && !documentRef(v);

/** Every `$ref` inside a schema whose pointer is local to it (`#`, `#/$defs/Tag`, `#/properties/a`). */
function localRefs(value: unknown, found: Set<string> = new Set()): Set<string> {
  if (Array.isArray(value)) for (const v of value) localRefs(v, found);
  else if (value !== null && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (isLocal(key, v)) found.add(v);
      else localRefs(v, found);
    }
  }
  return found;
}

function rewriteRefs(value: unknown, rewrite: (ref: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => rewriteRefs(v, rewrite));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, isLocal(key, v) ? rewrite(v) : rewriteRefs(v, rewrite)]));
}

const asSchema = (value: unknown): JsonSchemaObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonSchemaObject) : {};
const escapePointer = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Places a converted schema in the document. A schema whose `$ref`s point inside itself (`$defs`, or `#` for a
 * recursive one) would point into the document once embedded: its definitions become named components
 * (`Tag`, the library's own name for it, when that name is free or holds the same schema; `<name>_Tag` when
 * not) and, when it refers to itself, so does the schema, under `name`; the refs are rewritten to match.
 */
export function placeSchema(schema: JsonSchemaObject, name: string, components: SchemaComponents): JsonSchemaObject {
  const refs = localRefs(schema);
  if (refs.size === 0) return schema;
  const { $defs, definitions, ...root } = schema as JsonSchemaObject & { $defs?: unknown; definitions?: unknown };
  const defs: Array<{ pointer: string; name: string; body: unknown }> = [];
  for (const [keyword, group] of [
    ['$defs', $defs],
    ['definitions', definitions],
  ] as const) {
    if (group === null || typeof group !== 'object') continue;
    for (const [defName, body] of Object.entries(group))
      defs.push({ pointer: `#/${keyword}/${escapePointer(defName)}`, name: defName, body });
  }
  defs.sort((a, b) => (a.pointer < b.pointer ? -1 : 1));
  const inDefs = (r: string) => defs.find((d) => r === d.pointer || r.startsWith(`${d.pointer}/`));
  const selfRef = [...refs].some((r) => !inDefs(r));
  const resolver = (names: ReadonlyMap<string, string>, rootName: string) => (r: string) => {
    const def = inDefs(r);
    return def ? ref(names.get(def.pointer)!) + r.slice(def.pointer.length) : ref(rootName) + r.slice(1);
  };
  // The libraries' own names where they are free or hold the same schemas; otherwise names of this schema's own.
  let names = new Map(defs.map((d) => [d.pointer, componentName(d.name)]));
  let rootName = componentName(name);
  const fits = () => {
    const rewrite = resolver(names, rootName);
    const all = [...names.values(), ...(selfRef ? [rootName] : [])];
    if (new Set(all).size !== all.length) return false;
    return (
      defs.every((d) => components.fits(names.get(d.pointer)!, asSchema(rewriteRefs(d.body, rewrite)))) &&
      (!selfRef || components.fits(rootName, asSchema(rewriteRefs(root, rewrite))))
    );
  };
  if (!fits()) {
    const taken = new Set<string>();
    const reserve = (wanted: string) => {
      const got = components.free(wanted, taken);
      taken.add(got);
      return got;
    };
    rootName = selfRef ? reserve(name) : name;
    names = new Map(defs.map((d) => [d.pointer, reserve(`${name}_${d.name}`)]));
  }
  const rewrite = resolver(names, rootName);
  for (const d of defs) components.add(names.get(d.pointer)!, asSchema(rewriteRefs(d.body, rewrite)));
  const body = asSchema(rewriteRefs(root, rewrite));
  if (!selfRef) return body;
  return { $ref: ref(components.add(rootName, body)) };
}
