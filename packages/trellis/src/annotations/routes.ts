import './symbol-metadata.js';
import type { HttpMethod } from '../pipeline/index.js';
import { recordController, recordRoute } from './metadata.js';
import { usageError } from '../errors/index.js';

const invalid = (message: string) => usageError('TRELLIS_INVALID_ROUTE', message);

const METHODS: readonly HttpMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export function assertPath(path: unknown, where: string): string {
  if (typeof path !== 'string' || !path.startsWith('/')) {
    throw invalid(`${where}: a route path must be a string starting with "/", got ${JSON.stringify(path)}.`);
  }
  return path;
}

export function assertMethod(method: unknown): HttpMethod {
  const upper = typeof method === 'string' ? method.toUpperCase() : '';
  if (!METHODS.includes(upper as HttpMethod)) {
    throw invalid(`Unknown HTTP method ${JSON.stringify(method)}; use one of ${METHODS.join(', ')}.`);
  }
  return upper as HttpMethod;
}

function routeDecorator(method: HttpMethod) {
  return (path: string) => {
    assertPath(path, `@${method[0]}${method.slice(1).toLowerCase()}`);
    return (_target: unknown, context: ClassMethodDecoratorContext): void => {
      if (context.kind !== 'method' || context.private || typeof context.name === 'symbol') {
        throw invalid(`Route decorators go on public methods with string names.`);
      }
      recordRoute(context.metadata, context.name, { method, path });
    };
  };
}

/**
 * Route decorators for class methods. The method receives the request's `ExecutionContext`.
 *
 * @example
 * class Orders {
 *   @Get('/orders/:id') show(ctx: ExecutionContext) { return { id: ctx.params.id }; }
 * }
 */
export const Get = routeDecorator('GET');
export const Post = routeDecorator('POST');
export const Put = routeDecorator('PUT');
export const Patch = routeDecorator('PATCH');
export const Delete = routeDecorator('DELETE');
export const Head = routeDecorator('HEAD');
export const Options = routeDecorator('OPTIONS');

/**
 * A path prefix for every route of a class.
 *
 * @example
 * @Controller('/orders') class Orders { @Get('/:id') show(ctx) { ... } }
 */
export function Controller(prefix: string) {
  assertPath(prefix, '@Controller');
  return (_target: unknown, context: ClassDecoratorContext): void => {
    recordController(context.metadata, prefix.replace(/\/+$/, ''));
  };
}
