import type { HttpMethod } from '../pipeline/index.js';
import { expandOptional, parseRoutePath, type RoutePart } from './route-pattern.js';
import { usageError } from '../errors/index.js';

/** What the router keeps per route: anything the dispatcher needs, computed once at build time. */
export interface RouteMatch<T> {
  readonly entry: T;
  readonly params: Record<string, string>;
}

/** Longest parameter value a route is matched with (decoded); a longer one does not match. */
const MAX_PARAM_LENGTH = 500;
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

const enum Kind {
  Static,
  Param,
  Wildcard,
}

interface Leaf<T> {
  readonly entry: T;
  readonly names: readonly string[];
}

/**
 * A node of one method's tree. Static nodes match their `prefix` (a radix tree over characters, children by
 * first character); a parameter node matches up to the next `/`, checked by its `regex` when it has one; a
 * wildcard node matches the rest of the path.
 */
class Node<T> {
  prefix: string;
  leaf: Leaf<T> | null = null;
  /** Static children by the char code their prefix starts with. */
  readonly statics: (Node<T> | undefined)[] = [];
  /** Parameter children, tried in order: patterned ones (longest static suffix first), then a plain `:name`. */
  readonly params: Node<T>[] = [];
  wildcard: Node<T> | null = null;
  paramCount = 0;
  staticLength = 0;

  constructor(
    readonly kind: Kind,
    prefix: string,
    readonly regex: RegExp | null = null,
    readonly staticSuffix: string | null = null,
  ) {
    this.prefix = prefix;
  }

  /** The static node for `text` under this one, splitting a child whose prefix only partly matches. */
  staticChild(text: string): Node<T> {
    if (text.length === 0) return this;
    const first = text.charCodeAt(0);
    const child = this.statics[first];
    if (child === undefined) {
      const node = new Node<T>(Kind.Static, text);
      this.statics[first] = node;
      return node;
    }
    let i = 1;
    while (i < child.prefix.length && i < text.length && text.charCodeAt(i) === child.prefix.charCodeAt(i)) i++;
    if (i < child.prefix.length) {
      const head = new Node<T>(Kind.Static, child.prefix.slice(0, i));
      child.prefix = child.prefix.slice(i);
      head.statics[child.prefix.charCodeAt(0)] = child;
      this.statics[first] = head;
      return head.staticChild(text.slice(i));
    }
    return child.staticChild(text.slice(i));
  }

  paramChild(part: Extract<RoutePart, { kind: 'param' }>): Node<T> {
    const source = part.regex?.source;
    let child = this.params.find((p) => p.regex?.source === source);
    if (child === undefined) {
      child = new Node<T>(Kind.Param, '', part.regex, part.staticSuffix);
      this.params.push(child);
      this.params.sort(byPriority);
    }
    child.paramCount = Math.max(child.paramCount, part.params);
    child.staticLength = Math.max(child.staticLength, part.staticLength);
    return child;
  }
}

/** Patterned parameters before plain ones; of two patterned, the one whose static suffix ends the other's first. */
function byPriority<T>(a: Node<T>, b: Node<T>): number {
  if (a.regex === null) return 1;
  if (b.regex === null) return -1;
  if (a.staticSuffix === null) return 1;
  if (b.staticSuffix === null) return -1;
  if (b.staticSuffix.endsWith(a.staticSuffix)) return 1;
  if (a.staticSuffix.endsWith(b.staticSuffix)) return -1;
  return 0;
}

// Percent-encodings of the characters that stay encoded when a path is compared with static routes (a `/`
// inside a segment stays part of it); they are decoded only in parameter values.
const KEPT_ENCODED = /%(?:2[3-6BbCcFf]|3[AaBbDdFf]|40)/;

/**
 * Parameters as an object with no prototype (so `constructor` or `__proto__` are plain names), made by a
 * constructor rather than `Object.create(null)`, which the engine keeps as a slower dictionary.
 */
const Params = function (this: Record<string, string>) {} as unknown as new () => Record<string, string>;
Params.prototype = Object.create(null) as object;

/** Where the path ends: at a query or a fragment, if any. */
function pathEnd(target: string): number {
  const query = target.indexOf('?');
  const fragment = target.indexOf('#');
  if (fragment === -1) return query;
  return query === -1 || fragment < query ? fragment : query;
}

/**
 * The router: one radix tree per method, built once; static text first, then parameters, then a wildcard,
 * going back to the next candidate when a branch leads nowhere. HEAD follows GET unless a HEAD route is
 * declared. Paths are compared percent-decoded, except for the reserved characters (`%2F` is not a `/`);
 * parameter values are decoded whole.
 */
export class Router<T> {
  readonly #trees = new Map<string, Node<T>>();
  /** Routes without parameters by method and path: most requests are answered from here. */
  readonly #exact = new Map<string, Map<string, Leaf<T>>>();
  readonly #ids = new Set<string>();
  readonly #keys = new Set<string>();

  add(method: HttpMethod, path: string, entry: T): void {
    const id = `${method} ${path}`;
    if (this.#ids.has(id)) throw routeError(`Two handlers are declared for ${id}.`, 'TRELLIS_DUPLICATE_ROUTE');
    try {
      if (typeof path !== 'string') throw new Error('a path is a string');
      const patterns = expandOptional(path).map(parseRoutePath);
      for (const pattern of patterns) {
        if (this.#keys.has(`${method} ${pattern.key}`)) {
          throw routeError(`Cannot route ${id}: another ${method} route matches the same paths`, 'TRELLIS_DUPLICATE_ROUTE');
        }
      }
      for (const pattern of patterns) {
        this.#keys.add(`${method} ${pattern.key}`);
        this.#insert(method, pattern.parts, { entry, names: pattern.names });
      }
    } catch (error) {
      if ((error as { code?: unknown }).code === 'TRELLIS_DUPLICATE_ROUTE') throw error;
      throw routeError(`Cannot route ${id}: ${(error as Error).message}`, 'TRELLIS_INVALID_ROUTE');
    }
    this.#ids.add(id);
  }

  #insert(method: string, parts: readonly RoutePart[], leaf: Leaf<T>): void {
    let tree = this.#trees.get(method);
    if (tree === undefined) this.#trees.set(method, (tree = new Node<T>(Kind.Static, '')));
    let node = tree;
    for (const part of parts) {
      if (part.kind === 'static') node = node.staticChild(part.text);
      else if (part.kind === 'param') node = node.paramChild(part);
      else node = node.wildcard ??= new Node<T>(Kind.Wildcard, '');
    }
    node.leaf = leaf;
    const only = parts.length === 1 ? parts[0]! : undefined;
    if (only?.kind === 'static') {
      let exact = this.#exact.get(method);
      if (exact === undefined) this.#exact.set(method, (exact = new Map<string, Leaf<T>>()));
      exact.set(only.text, leaf);
    }
  }

  /** Adds HEAD routes for GET routes that have none. */
  addImplicitHead(getPaths: Iterable<[string, T]>): void {
    for (const [path, entry] of getPaths) {
      if (!this.#ids.has(`HEAD ${path}`)) this.add('HEAD', path, entry);
    }
  }

  /** The route for a method and a request path (a query or fragment is left out); null when none matches. */
  find(method: string, target: string): RouteMatch<T> | null {
    let path = target;
    const end = pathEnd(path);
    if (end !== -1) path = path.slice(0, end);
    let decodeParams = false;
    if (path.includes('%')) {
      decodeParams = KEPT_ENCODED.test(path);
      try {
        // `%25` stays `%25`, as a literal `%` in a static route is matched encoded.
        path = decodeURI(path.replaceAll('%25', '%2525'));
      } catch {
        return null;
      }
    }
    const exact = this.#exact.get(method)?.get(path);
    if (exact !== undefined) return { entry: exact.entry, params: new Params() };
    const tree = this.#trees.get(method);
    return tree === undefined ? null : lookup(tree, path, decodeParams);
  }

  /** Methods that do match the path (for 405 answers). */
  allowedMethods(path: string): HttpMethod[] {
    return METHODS.filter((m) => this.find(m, path) !== null);
  }
}

/** A route the router cannot take, with a stable code: TRELLIS_DUPLICATE_ROUTE or TRELLIS_INVALID_ROUTE. */
function routeError(message: string, code: 'TRELLIS_DUPLICATE_ROUTE' | 'TRELLIS_INVALID_ROUTE'): TypeError {
  return usageError(code, message);
}

/** A candidate to come back to: a node to try at a place in the path with so many values taken. */
interface Branch<T> {
  readonly node: Node<T>;
  readonly at: number;
  readonly taken: number;
}

/** Walks `tree` for `path`: static children first, then parameters, then the wildcard, backtracking. */
function lookup<T>(tree: Node<T>, path: string, decodeParams: boolean): RouteMatch<T> | null {
  const values: string[] = [];
  // Candidates to come back to; most paths need none, so the array is made for the first.
  let pending: Branch<T>[] | null = null;
  const len = path.length;
  let node = tree;
  let at = tree.prefix.length;
  for (;;) {
    if (at === len && node.leaf !== null) return matched(node.leaf, values);
    // The static child the path goes on with, else the first parameter child; the other parameter children and
    // the wildcard are kept to come back to.
    let next: Node<T> | null = null;
    const child = at < len ? node.statics[path.charCodeAt(at)] : undefined;
    if (child !== undefined && path.startsWith(child.prefix, at)) next = child;
    const params = node.params;
    if (next === null && params.length === 0) next = node.wildcard;
    else {
      const firstKept = next === null ? 1 : 0;
      if (next === null) next = params[0]!;
      if (node.wildcard !== null || params.length > firstKept) {
        pending ??= [];
        if (node.wildcard !== null) pending.push({ node: node.wildcard, at, taken: values.length });
        for (let i = params.length - 1; i >= firstKept; i--) pending.push({ node: params[i]!, at, taken: values.length });
      }
    }
    for (;;) {
      if (next === null) {
        const branch = pending?.pop();
        if (branch === undefined) return null;
        next = branch.node;
        at = branch.at;
        values.length = branch.taken;
      }
      if (next.kind === Kind.Static) {
        at += next.prefix.length;
        break;
      }
      const stop = next.kind === Kind.Param ? slashOrEnd(path, at) : len;
      let value = path.slice(at, stop);
      if (decodeParams && value.includes('%')) value = decodeURIComponent(value);
      if (takeValues(next, value, values)) {
        at = stop;
        break;
      }
      next = null;
    }
    node = next;
  }
}

function slashOrEnd(path: string, from: number): number {
  const slash = path.indexOf('/', from);
  return slash === -1 ? path.length : slash;
}

/** Adds a parameter or wildcard node's values for `value`; false when the node does not match it. */
function takeValues<T>(node: Node<T>, value: string, values: string[]): boolean {
  if (node.regex === null) {
    if (node.kind === Kind.Param && value.length > MAX_PARAM_LENGTH) return false;
    values.push(value);
    return true;
  }
  // Bounded before the pattern runs: a segment longer than its parameters and static text can be never matches.
  if (value.length > node.paramCount * MAX_PARAM_LENGTH + node.staticLength) return false;
  const groups = node.regex.exec(value);
  if (groups === null) return false;
  for (let i = 1; i < groups.length; i++) if ((groups[i] ?? '').length > MAX_PARAM_LENGTH) return false;
  for (let i = 1; i < groups.length; i++) values.push(groups[i] ?? '');
  return true;
}

function matched<T>(leaf: Leaf<T>, values: readonly string[]): RouteMatch<T> {
  const params = new Params();
  for (let i = 0; i < leaf.names.length; i++) params[leaf.names[i]!] = values[i]!;
  return { entry: leaf.entry, params };
}
