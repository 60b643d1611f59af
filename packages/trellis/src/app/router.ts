import FindMyWay from 'find-my-way';
import type { HttpMethod } from '../pipeline/index.js';

/** What the router keeps per route: anything the dispatcher needs, computed once at build time. */
export interface RouteMatch<T> {
  readonly entry: T;
  readonly params: Record<string, string>;
}

/** find-my-way, built once; HEAD follows GET unless a HEAD route is declared. */
export class Router<T> {
  readonly #fmw = FindMyWay({ ignoreTrailingSlash: false, ignoreDuplicateSlashes: false, caseSensitive: true, maxParamLength: 500 });
  readonly #ids = new Set<string>();

  add(method: HttpMethod, path: string, entry: T): void {
    const id = `${method} ${path}`;
    if (this.#ids.has(id)) throw new TypeError(`Two handlers are declared for ${id}.`);
    this.#ids.add(id);
    try {
      this.#fmw.on(method, path, () => undefined, { entry });
    } catch (error) {
      throw new TypeError(`Cannot route ${id}: ${(error as Error).message}`, { cause: error });
    }
  }

  /** Adds HEAD routes for GET routes that have none. */
  addImplicitHead(getPaths: Iterable<[string, T]>): void {
    for (const [path, entry] of getPaths) {
      if (!this.#ids.has(`HEAD ${path}`)) this.add('HEAD', path, entry);
    }
  }

  find(method: string, path: string): RouteMatch<T> | null {
    const found = this.#fmw.find(method as HttpMethod, path);
    if (!found) return null;
    return { entry: (found.store as { entry: T }).entry, params: found.params as Record<string, string> };
  }

  /** Methods that do match the path (for 405 answers). */
  allowedMethods(path: string): HttpMethod[] {
    const out: HttpMethod[] = [];
    for (const m of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const) {
      if (this.#fmw.find(m, path)) out.push(m);
    }
    return out;
  }
}
