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

// What ends a parameter name in the router's syntax.
const NAME_END = new Set(['(', '-', '.', '/']);
// An optional last parameter: `/:id?` is routed as `/:id` and as the path without it.
const OPTIONAL_LAST = /(\/:[^/()]*?)\?(\/?)$/;

/** The characters a template's literal text cannot hold as they are. */
const literal = (text: string) => text.replace(/[{}]/g, (c) => (c === '{' ? '%7B' : '%7D'));

/** The index of the parenthesis that closes the one at `open`, or the end of the path. */
function closing(path: string, open: number): number {
  let depth = 0;
  for (let i = open; i < path.length; i++) {
    const c = path[i];
    if (c === '\\') i++;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return path.length - 1;
}

/** One path (without an optional parameter) in template syntax. */
function template(path: string): PathTemplate {
  let out = '';
  const params: PathParam[] = [];
  const seen = new Set<string>();
  const add = (param: PathParam): string => {
    let name = param.name.replace(/[{}]/g, '_') || `param${params.length + 1}`;
    while (seen.has(name)) name = `${name}_`;
    seen.add(name);
    params.push({ ...param, name });
    return `{${name}}`;
  };
  for (let i = 0; i < path.length; i++) {
    const c = path[i]!;
    if (c === ':' && path[i + 1] === ':') {
      out += ':';
      i++;
    } else if (c === ':') {
      let j = i + 1;
      while (j < path.length && !NAME_END.has(path[j]!)) j++;
      const name = path.slice(i + 1, j);
      let pattern: string | undefined;
      if (path[j] === '(') {
        const end = closing(path, j);
        pattern = path.slice(j + 1, end);
        j = end + 1;
      }
      out += add(pattern === undefined ? { name } : { name, pattern });
      i = j - 1;
    } else if (c === '*') {
      out += add({ name: '*', rest: true });
    } else out += literal(c);
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
  const optional = path.match(OPTIONAL_LAST);
  if (!optional) return [template(path)];
  const full = path.replace(OPTIONAL_LAST, '$1$2');
  const without = path.replace(OPTIONAL_LAST, '$2') || '/';
  return [template(full), template(without)];
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
