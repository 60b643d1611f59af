import { routePieces } from '../app/index.js';
import type { RoutePiece } from '../app/index.js';

/** A path parameter as the route declares it. */
export interface PathParam {
  readonly name: string;
  /** The regular expression the route gives it (`:id(^\\d+$)`), if any. */
  readonly pattern?: string;
  /** A wildcard (`*`): the rest of the path, slashes included. */
  readonly rest?: boolean;
}

/** A route path in OpenAPI's template syntax, with its parameters. */
export interface PathTemplate {
  readonly template: string;
  readonly params: readonly PathParam[];
}

/** The characters a template's literal text cannot hold as they are. */
const literal = (text: string) => text.replace(/[{}]/g, (c) => (c === '{' ? '%7B' : '%7D'));

/** One path (without an optional parameter), read by the router, in template syntax. */
function template(pieces: readonly RoutePiece[]): PathTemplate {
  let out = '';
  const params: PathParam[] = [];
  const seen = new Set<string>();
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      out += literal(piece);
      continue;
    }
    let name = piece.name.replace(/[{}]/g, '_') || `param${params.length + 1}`;
    while (seen.has(name)) name = `${name}_`;
    seen.add(name);
    params.push({ ...piece, name });
    out += `{${name}}`;
  }
  return { template: out, params };
}

/**
 * The OpenAPI path templates of a route path in the router's syntax: `/orders/:id` → `/orders/{id}`. A path
 * whose last parameter is optional (`/files/:name?`) has two. Literal `{` and `}` are percent-encoded.
 *
 * @example
 * pathTemplates('/orders/:id(^\\d+$)'); // [{ template: '/orders/{id}', params: [{ name: 'id', pattern: '^\\d+$' }] }]
 */
export function pathTemplates(path: string): PathTemplate[] {
  return routePieces(path).map(template);
}

const words = (text: string) => text.split(/[^A-Za-z0-9]+/).filter(Boolean);
const pascal = (text: string) =>
  words(text)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join('');

/**
 * An operation id from a method and a path template: `GET /orders/{id}` → `getOrdersById`, `GET /` → `getRoot`.
 * Stable: it depends on nothing but the route.
 */
export function operationIdFor(method: string, path: PathTemplate): string {
  const names = new Map(path.params.map((p) => [p.name, p]));
  const parts = path.template
    .split(/(\{[^}]*\})/)
    .filter(Boolean)
    .map((part) => {
      if (!part.startsWith('{')) return pascal(part);
      const param = names.get(part.slice(1, -1));
      return param?.rest ? 'Rest' : `By${pascal(part.slice(1, -1)) || 'Param'}`;
    });
  const rest = parts.join('');
  return `${method.toLowerCase()}${rest === '' ? 'Root' : rest}`;
}
