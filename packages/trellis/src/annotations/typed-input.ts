import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { Annotation, ExecutionContext } from '../pipeline/index.js';

export interface ValidateSchemas {
  readonly body?: StandardSchemaV1;
  readonly query?: StandardSchemaV1;
  /** The path parameters, as an object of strings (`{ id: '42' }`); coercing schemas turn them into numbers and the like. */
  readonly params?: StandardSchemaV1;
  /** The request headers, as an object with lower-case names (a repeated header's values joined with `, `). */
  readonly headers?: StandardSchemaV1;
  /** The request's cookies, as an object of their percent-decoded values by name (signatures are not checked: use `ctx.cookies.getSigned`). */
  readonly cookies?: StandardSchemaV1;
  /**
   * The status of a failure whose first issue names a field (has a path): 400 (default) or 422 for "well
   * formed, but a field cannot be applied". Issues about the whole body or query always answer 400.
   */
  readonly fieldStatus?: 400 | 422;
}

/** What a schema gives once it has validated a value; `Fallback` when there is no schema. */
type Output<S, Fallback> = S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : Fallback;

/** The names of a route path's parameters: `/orders/:id/lines/:line` → `'id' | 'line'`. */
export type PathParamNames<P extends string> = P extends `${string}:${infer Rest}`
  ? Rest extends `${infer Name}/${infer Tail}`
    ? ParamName<Name> | PathParamNames<`/${Tail}`>
    : ParamName<Rest>
  : never;

/** A parameter's name without what may follow it in the same segment (a regexp, a `-` or `.` suffix). */
type ParamName<S extends string> = S extends `${infer N}(${string}`
  ? ParamName<N>
  : S extends `${infer N}-${string}`
    ? ParamName<N>
    : S extends `${infer N}.${string}`
      ? ParamName<N>
      : S;

/** The path parameters of a route path, as `ctx.params` holds them (strings). */
export type PathParams<P extends string> = string extends P
  ? Readonly<Record<string, string>>
  : Readonly<Record<PathParamNames<P>, string>>;

/**
 * The context a handler validated by `schemas` gets: `body`, `validatedQuery`, `validatedParams`,
 * `validatedHeaders` and `validatedCookies` typed as the schemas' outputs (`unknown` where there is no schema), and `params` from the
 * path when it is known.
 *
 * @example
 * const order = { body: z.object({ sku: z.string() }) };
 * @Validate(order) @Post('/orders') create(ctx: ValidatedContext<typeof order>) { return ctx.body.sku; }
 */
export type ValidatedContext<S extends ValidateSchemas = ValidateSchemas, P extends string = string> = ExecutionContext & {
  body: Output<S['body'], unknown>;
  validatedQuery: Output<S['query'], unknown>;
  validatedParams: Output<S['params'], unknown>;
  validatedHeaders: Output<S['headers'], unknown>;
  validatedCookies: Output<S['cookies'], unknown>;
  readonly params: PathParams<P>;
};

declare const schemasOf: unique symbol;

/**
 * The `Validate` annotation, carrying its schemas' types: the functional form reads them from the route's
 * annotations, and as a method decorator it accepts only a method whose `ctx` the schemas satisfy.
 */
export type ValidateAnnotation<S extends ValidateSchemas> = Annotation<ValidateSchemas> & {
  readonly [schemasOf]?: S;
} & (<M extends (ctx: ValidatedContext<S>, ...rest: never[]) => unknown>(target: M, context: ClassMethodDecoratorContext) => void) &
  ((target: unknown, context: ClassDecoratorContext) => void);

/** The schemas of the `Validate` annotation among a route's annotations, or none. */
type SchemasIn<A extends readonly unknown[]> =
  Extract<A[number], { readonly [schemasOf]?: ValidateSchemas }> extends { readonly [schemasOf]?: infer S }
    ? S extends ValidateSchemas
      ? S
      : Record<never, never>
    : Record<never, never>;

/** The context of a route declared with `route(method, path, annotations, handler)`: typed from its path and its `Validate`. */
export type RouteContext<P extends string, A extends readonly unknown[]> = ValidatedContext<SchemasIn<A>, P>;
