import type { ExecutionContext, HttpMethod, RouteInfo } from '../pipeline/index.js';
import { combineAnnotations, isAnnotation } from './annotation.js';
import type { Annotation } from '../pipeline/index.js';
import { readClassDeclarations } from './metadata.js';
import { metadataSymbol } from './symbol-metadata.js';
import { assertMethod, assertPath } from './routes.js';
import type { RouteContext } from './typed-input.js';
import { usageError } from '../errors/index.js';

/** A request handler: returns the response body (object → JSON, string → text, undefined → 204) or a `reply()`. */
export type Handler = (ctx: ExecutionContext) => unknown;

/** A route declared in the functional form, before the app builds it. */
export interface RouteDefinition {
  readonly method: HttpMethod;
  readonly path: string;
  readonly name: string;
  readonly classLevel: readonly Annotation[];
  readonly methodLevel: readonly Annotation[];
  readonly handler: Handler;
}

function joinPath(prefix: string, path: string): string {
  const joined = `${prefix}${path === '/' && prefix ? '' : path}`;
  return joined === '' ? '/' : joined;
}

function checkAnnotations(list: readonly unknown[], where: string): Annotation[] {
  list.forEach((a, i) => {
    if (!isAnnotation(a))
      throw usageError(
        'TRELLIS_INVALID_ANNOTATION',
        `${where}: item ${i} is not an annotation (use RateLimit(...), Authorize(...), Cache(...), …).`,
      );
  });
  return list as Annotation[];
}

/**
 * Declares a handler in the functional form, with the same annotations the decorators take.
 *
 * @example
 * app.route(route('GET', '/orders/:id', [Authorize('orders:read'), RateLimit({ permitLimit: 10 })], (ctx) => ({ id: ctx.params.id })));
 * // ctx is typed from the path (ctx.params.id) and the Validate annotation's schemas (ctx.body, ctx.validatedQuery, …)
 */
export function route<const P extends string, const A extends readonly Annotation[]>(
  method: string,
  path: P,
  annotations: A,
  handler: (ctx: RouteContext<P, A>) => unknown,
): RouteDefinition;
export function route<const P extends string>(method: string, path: P, handler: (ctx: RouteContext<P, []>) => unknown): RouteDefinition;
export function route(method: string, path: string, a: readonly Annotation[] | Handler, b?: Handler): RouteDefinition {
  const handler = typeof a === 'function' && !isAnnotation(a) ? a : b;
  const annotations = Array.isArray(a) ? a : [];
  const m = assertMethod(method);
  assertPath(path, 'route()');
  if (typeof handler !== 'function')
    throw usageError('TRELLIS_INVALID_ROUTE', `route(${m} ${path}): the handler must be a function (ctx) => result.`);
  return Object.freeze({
    method: m,
    path,
    name: handler.name || `${m} ${path}`,
    classLevel: [],
    methodLevel: checkAnnotations(annotations, `route(${m} ${path})`),
    handler,
  });
}

/**
 * The functional twin of class-level annotations and `@Controller`: applies a prefix and annotations to
 * every route of the group (method-level annotations still win where a kind says so).
 *
 * @example
 * app.route(group({ prefix: '/admin', annotations: [Authorize('admin')] }, [route('GET', '/stats', stats)]));
 */
export function group(
  options: { prefix?: string; annotations?: readonly Annotation[] },
  routes: readonly RouteDefinition[],
): RouteDefinition[] {
  const prefix = options.prefix ? assertPath(options.prefix, 'group()').replace(/\/+$/, '') : '';
  const classLevel = checkAnnotations(options.annotations ?? [], 'group()');
  return routes.map((r) => Object.freeze({ ...r, path: joinPath(prefix, r.path), classLevel: [...classLevel, ...r.classLevel] }));
}

/** Turns a decorated class into route definitions; `instanceFor` supplies the object whose method runs. */
export function describeController(
  controller: abstract new (...args: any[]) => object,
  instanceFor: (ctx: ExecutionContext) => object,
): RouteDefinition[] {
  const metadata = (controller as unknown as Record<symbol, DecoratorMetadataObject | undefined>)[metadataSymbol];
  const declared = readClassDeclarations(metadata ?? undefined);
  const out: RouteDefinition[] = [];
  for (const [methodName, { routes, annotations }] of declared.methods) {
    if (routes.length === 0) continue;
    for (const mark of routes) {
      const handler: Handler = (ctx) => {
        const instance = instanceFor(ctx) as Record<string, (ctx: ExecutionContext) => unknown>;
        return instance[methodName]!(ctx);
      };
      out.push(
        Object.freeze({
          method: mark.method as HttpMethod,
          path: joinPath(declared.prefix, mark.path),
          name: `${controller.name}.${methodName}`,
          classLevel: declared.classLevel,
          methodLevel: annotations,
          handler,
        }),
      );
    }
  }
  if (out.length === 0) {
    throw usageError('TRELLIS_INVALID_ROUTE', `${controller.name} declares no routes: decorate its methods with @Get, @Post, … .`);
  }
  return out;
}

/** Combines a definition's annotations into the descriptor the pipeline uses. */
export function toRouteInfo(def: RouteDefinition): RouteInfo {
  const id = `${def.method} ${def.path}`;
  return Object.freeze({
    id,
    name: def.name,
    method: def.method,
    path: def.path,
    annotations: Object.freeze(combineAnnotations(def.classLevel, def.methodLevel, `${def.name} (${id})`)),
    invoke: def.handler,
  });
}
