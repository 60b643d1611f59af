import type { StandardSchemaV1 } from '@standard-schema/spec';
import { annotation, stableJson } from './annotation.js';
import type { AnnotationKind } from '../pipeline/index.js';
import type { AnnotationDecorator } from './annotation.js';
import type { ValidateAnnotation, ValidateSchemas } from './typed-input.js';
import { usageError } from '../errors/index.js';

const invalid = (message: string) => usageError('TRELLIS_INVALID_ANNOTATION', message);

export type { ValidateSchemas };

/** Values of one kind apply at one level only: method-level ones replace class-level ones. */
function methodWins<T>(name: string, describe: (v: T) => string = stableJson): AnnotationKind<T>['combine'] {
  return (classLevel, methodLevel, handler) => {
    const level = methodLevel.length > 0 ? methodLevel : classLevel;
    const distinct = [...new Map(level.map((v) => [describe(v), v])).values()];
    if (distinct.length > 1) {
      throw invalid(
        `${handler}: @${name} is applied ${distinct.length} times with different settings (${distinct.map(describe).join(' and ')}); keep one.`,
      );
    }
    return distinct;
  };
}

export const AuthorizeKind: AnnotationKind<readonly string[]> = {
  name: 'Authorize',
  // Every grant named at any level is required.
  combine: (classLevel, methodLevel) => {
    const all = new Set<string>();
    for (const grants of [...classLevel, ...methodLevel]) for (const g of grants) all.add(g);
    return [[...all].sort()];
  },
  sortKey: (v) => v.join(','),
};

/**
 * Requires an authenticated caller holding every grant named (401 when anonymous, 403 when a grant is
 * missing). With no grants it requires authentication only. Repeats and class-level uses add up.
 *
 * @example
 * @Authorize('orders:read') @Get('/orders') list() { ... }
 */
export function Authorize(...grants: string[]): AnnotationDecorator<readonly string[]> {
  for (const g of grants) {
    if (typeof g !== 'string' || g === '') throw invalid(`@Authorize takes non-empty grant names, got ${JSON.stringify(g)}.`);
  }
  return annotation(AuthorizeKind, Object.freeze([...new Set(grants)].sort()));
}

/** The kind of an annotation without settings: a handler has it when it or its class is given it. */
const flagKind = (name: string): AnnotationKind<true> => ({
  name,
  combine: (c, m) => (c.length + m.length > 0 ? [true] : []),
  sortKey: () => '',
});

export const AllowAnonymousKind = flagKind('AllowAnonymous');

/** Lets anonymous callers in, overriding any `@Authorize` at either level. */
export function AllowAnonymous(): AnnotationDecorator<true> {
  return annotation(AllowAnonymousKind, true);
}

export const ETagKind = flagKind('ETag');

/**
 * Conditional requests on a route: a GET or HEAD answer of 200 with a whole body gets a strong `ETag` (the
 * SHA-1 of its bytes) unless the handler set one, and `If-None-Match` / `If-Modified-Since` are answered 304
 * with no body, a failed `If-Match` / `If-Unmodified-Since` 412. (Any answer the handler gives an `ETag` or
 * `Last-Modified` is weighed so, with or without this annotation.) On other methods the handler checks the
 * preconditions itself, against the resource as it is, before it changes it: `ctx.checkPreconditions({ etag })`.
 * The OpenAPI document lists the 304 and 412 answers.
 *
 * @example
 * route('GET', '/catalog', [ETag()], () => catalog());
 */
export function ETag(): AnnotationDecorator<true> {
  return annotation(ETagKind, true);
}

export type CacheVary = 'principal' | `header:${string}`;

export interface CacheSettings {
  /** How long a stored response stays fresh, in seconds. */
  readonly seconds: number;
  /** Besides path and query: `principal` (per caller; the response becomes private), or `header:<name>`. */
  readonly varyBy?: readonly CacheVary[];
  /**
   * Serve one stored response to every caller, authenticated or not (`public`). Without it, a request with a
   * principal is cached per principal (`private`), and one that sends `Authorization` or `Cookie` without
   * a principal is neither served from nor stored in the cache. Default false.
   */
  readonly shared?: boolean;
}

export const CacheKind: AnnotationKind<CacheSettings> = {
  name: 'Cache',
  combine: methodWins<CacheSettings>('Cache'),
  sortKey: stableJson,
};

/**
 * Caches successful GET/HEAD responses in memory for `seconds`, keyed by path and query, and by caller
 * whenever the request has a principal (or `varyBy` includes `principal`). A response that all callers may
 * share, authenticated or not, needs `shared: true`.
 *
 * @example
 * @Cache({ seconds: 30 }) @Authorize('orders:read') @Get('/me/orders') mine(ctx) { ... } // per caller, private
 * @Cache({ seconds: 300, shared: true }) @Get('/catalog') catalog() { ... } // one copy for everyone, public
 */
export function Cache(settings: CacheSettings): AnnotationDecorator<CacheSettings> {
  if (!settings || !Number.isFinite(settings.seconds) || settings.seconds <= 0) {
    throw invalid(`@Cache needs { seconds } > 0, got ${JSON.stringify(settings)}.`);
  }
  for (const v of settings.varyBy ?? []) {
    if (v !== 'principal' && !(typeof v === 'string' && /^header:[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(v))) {
      throw invalid(`@Cache varyBy accepts "principal" or "header:<name>", got ${JSON.stringify(v)}.`);
    }
  }
  if (settings.shared !== undefined && typeof settings.shared !== 'boolean') {
    throw invalid(`@Cache shared should be true or false, got ${JSON.stringify(settings.shared)}.`);
  }
  if (settings.shared === true && settings.varyBy?.includes('principal')) {
    throw invalid('@Cache cannot both vary by principal and be shared across callers; choose one.');
  }
  const varyBy = [...new Set((settings.varyBy ?? []).map((v) => v.toLowerCase() as CacheVary))].sort();
  const value: CacheSettings = { seconds: settings.seconds, varyBy: Object.freeze(varyBy), ...(settings.shared ? { shared: true } : {}) };
  return annotation(CacheKind, Object.freeze(value));
}

const schemaIds = new WeakMap<object, number>();
let nextSchemaId = 1;
function schemaKey(s: object | undefined): string {
  if (!s) return '-';
  if (!schemaIds.has(s)) schemaIds.set(s, nextSchemaId++);
  return String(schemaIds.get(s));
}

export const ValidateKind: AnnotationKind<ValidateSchemas> = {
  name: 'Validate',
  combine: methodWins<ValidateSchemas>(
    'Validate',
    (v) =>
      `body#${schemaKey(v.body)} query#${schemaKey(v.query)} params#${schemaKey(v.params)} headers#${schemaKey(v.headers)} cookies#${schemaKey(v.cookies)} status#${v.fieldStatus ?? 400}`,
  ),
  sortKey: (v) =>
    `${schemaKey(v.body)}/${schemaKey(v.query)}/${schemaKey(v.params)}/${schemaKey(v.headers)}/${schemaKey(v.cookies)}/${v.fieldStatus ?? 400}`,
};

/**
 * Validates the request body, query, path parameters, headers and/or cookies with Standard Schema validators (zod,
 * valibot, arktype, …); failures give 400 (or `fieldStatus` when the first issue names a field) with the
 * `issues` and the `field` they name. The validated values are `ctx.body`, `ctx.validatedQuery`,
 * `ctx.validatedParams`, `ctx.validatedHeaders` and `ctx.validatedCookies`, typed from the schemas: in the functional form the
 * handler's `ctx` is inferred; a decorated method declares `ctx: ValidatedContext<typeof schemas>`, and the
 * decorator refuses (at compile time) a method whose `ctx` claims anything the schemas do not give.
 *
 * @example
 * const order = { body: z.object({ sku: z.string(), quantity: z.number().int() }) };
 * @Validate(order) @Post('/orders') create(ctx: ValidatedContext<typeof order>) { return ctx.body.sku; }
 * route('PUT', '/orders/:id', [Validate({ params: z.object({ id: z.coerce.number() }) })], (ctx) => ctx.validatedParams.id); // a number
 */
const VALIDATED_PARTS: readonly string[] = ['body', 'query', 'params', 'headers', 'cookies'];

export function Validate<const S extends ValidateSchemas>(schemas: S): ValidateAnnotation<S> {
  const { fieldStatus, ...parts } = schemas ?? {};
  if (fieldStatus !== undefined && fieldStatus !== 400 && fieldStatus !== 422) {
    throw invalid(`@Validate: "fieldStatus" must be 400 or 422, got ${JSON.stringify(fieldStatus)}.`);
  }
  for (const [part, schema] of Object.entries(parts)) {
    if (!VALIDATED_PARTS.includes(part)) {
      throw invalid(`@Validate: "${part}" is not a part of a request; it takes ${VALIDATED_PARTS.join(', ')} and fieldStatus.`);
    }
    if (schema !== undefined && typeof (schema as StandardSchemaV1)?.['~standard']?.validate !== 'function') {
      throw invalid(`@Validate: "${part}" must be a Standard Schema validator (zod, valibot, arktype, …).`);
    }
  }
  return annotation(ValidateKind, Object.freeze({ ...schemas }));
}
