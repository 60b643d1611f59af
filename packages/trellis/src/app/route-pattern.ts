// A route path in the router's syntax, read once when the route is added: static text, parameters (`:id`,
// `:id(^\\d+$)`, several in one segment as in `/:from-:to`), a last wildcard (`*`) and an optional last parameter
// (`/:id?`). The syntax and the matching rules are find-my-way's, the router Fastify uses, so routes written
// for either behave alike.

/** One step of a route path. */
export type RoutePart =
  | { readonly kind: 'static'; readonly text: string }
  | {
      readonly kind: 'param';
      /** Matches the whole segment when the parameter has a pattern or shares its segment; null for a plain `:name`. */
      readonly regex: RegExp | null;
      /** The static text after the segment's last parameter, if any (orders parameters of one node). */
      readonly staticSuffix: string | null;
      /** The parameters this segment captures, in order. */
      readonly params: number;
      /** The static characters inside the segment (bounds what a pattern may be given). */
      readonly staticLength: number;
      /** The segment with names and patterns left out, as the route's key holds it. */
      readonly key: string;
    }
  | { readonly kind: 'wildcard' };

/** A piece of a route path as it was written: literal text (`::` read as `:`), or a parameter. */
export type RoutePiece = string | { readonly name: string; readonly pattern?: string; readonly rest?: true };

/** A route path read into parts, with its parameters' names and the shape two routes must not share. */
export interface RoutePattern {
  readonly parts: readonly RoutePart[];
  readonly names: readonly string[];
  /** The path as written, in literal text and parameters (what a document of the route shows). */
  readonly pieces: readonly RoutePiece[];
  /** The path with parameter names and patterns left out: equal keys under one method are the same route. */
  readonly key: string;
}

// A last parameter with a `?`: `/:id?` is routed as `/:id` and as the path without it.
const OPTIONAL_PARAM = /(\/:[^/()]*?)\?(\/?)/;
const SPECIAL = /[.*+?^${}()|[\]\\]/g;
/** How many repetitions a parameter's pattern may hold. */
const REPETITION_LIMIT = 25;

/** The paths a declared path stands for: two when its last parameter is optional, else itself. */
export function expandOptional(path: string): string[] {
  const optional = OPTIONAL_PARAM.exec(path);
  if (optional === null) return [path];
  if (path.length !== optional.index + optional[0].length) throw new Error('an optional parameter must be the last part of the path');
  return [path.replace(OPTIONAL_PARAM, '$1$2'), path.replace(OPTIONAL_PARAM, '$2') || '/'];
}

/** The paths a declared path stands for, each read into its pieces as written. Throws for a path the router refuses. */
export function routePieces(path: string): RoutePiece[][] {
  return expandOptional(path).map((one) => [...parseRoutePath(one).pieces]);
}

/** Static text as the router compares it: `::` is a literal colon, and a literal `%` is matched encoded. */
function staticText(text: string): string {
  return text.replaceAll('::', ':').replaceAll('%', '%25');
}

/** Adds literal text as written (`::` read as `:`) to the pieces, unless it is empty. */
function addText(pieces: RoutePiece[], raw: string): void {
  if (raw !== '') pieces.push(raw.replaceAll('::', ':'));
}

/** The index of the parenthesis closing the one at `open` (escaped characters skipped); past the end when none. */
function closingParenthesis(path: string, open: number): number {
  let depth = 1;
  let i = open;
  while (i < path.length) {
    i++;
    if (path.charCodeAt(i) === 0x5c) {
      i++;
      continue;
    }
    const c = path.charCodeAt(i);
    if (c === 0x29) depth--;
    else if (c === 0x28) depth++;
    if (depth === 0) return i;
  }
  throw new Error(`a parameter's pattern has no closing parenthesis`);
}

/** A pattern `(^…$)` as a capture group without its anchors: the segment's own anchors are added around all. */
function unanchored(group: string): string {
  let source = group;
  if (source.charCodeAt(1) === 0x5e) source = source[0] + source.slice(2);
  if (source.charCodeAt(source.length - 2) === 0x24) source = source.slice(0, -2) + source.slice(-1);
  return source;
}

/**
 * Reads one path (no optional parameter left) into parts. Throws an Error saying what is wrong with a path the
 * router cannot route.
 */
export function parseRoutePath(path: string): RoutePattern {
  if (path.length === 0) throw new Error('the path is empty');
  if (path[0] !== '/' && path[0] !== '*') throw new Error('a path starts with / or *');
  const parts: RoutePart[] = [];
  const names: string[] = [];
  const pieces: RoutePiece[] = [];
  let key = '';
  let staticStart = 0;
  const len = path.length;
  for (let i = 0; i <= len; i++) {
    const c = path.charCodeAt(i);
    if (c === 0x3a && path.charCodeAt(i + 1) === 0x3a) {
      i++;
      continue;
    }
    const isParam = c === 0x3a;
    const isWildcard = c === 0x2a;
    if ((isParam || isWildcard || i === len) && i > staticStart) {
      const raw = path.slice(staticStart, i);
      const text = staticText(raw);
      addText(pieces, raw);
      parts.push({ kind: 'static', text });
      key += text;
    }
    if (isParam) {
      const end = readParamSegment(path, i + 1, parts, names, pieces);
      const node = parts[parts.length - 1] as Extract<RoutePart, { kind: 'param' }>;
      key += ':' + node.key;
      i = end - 1;
      staticStart = end;
    } else if (isWildcard) {
      if (i !== len - 1) throw new Error('a wildcard (*) must be the last character of the path');
      parts.push({ kind: 'wildcard' });
      pieces.push({ name: '*', rest: true });
      names.push('*');
      key += '*';
      staticStart = i + 1;
    }
  }
  return { parts, names, pieces, key: key === '*' ? '/*' : key };
}

/**
 * Reads the parameters of one segment from `start` (just after a `:`), adds its part and names, and returns
 * the index where the segment ends (a `/` or the end of the path).
 */
function readParamSegment(path: string, start: number, parts: RoutePart[], names: string[], pieces: RoutePiece[]): number {
  const len = path.length;
  const sources: string[] = [];
  let isRegex = false;
  // The first parameter of a segment (or the first after a pattern) takes as little as it can; a later one stops
  // at the static text before it.
  let lazy = true;
  let separator = '';
  let params = 0;
  let staticLength = 0;
  let suffix: string;
  let key = '';
  let nameStart = start;
  for (let j = start; ; j++) {
    const c = path.charCodeAt(j);
    const hasPattern = c === 0x28;
    const endsName = c === 0x2d || c === 0x2e;
    const endsSegment = c === 0x2f || j >= len;
    if (!hasPattern && !endsName && !endsSegment) continue;
    const name = path.slice(nameStart, j);
    names.push(name);
    params++;
    isRegex ||= hasPattern || endsName;
    if (hasPattern) {
      const close = closingParenthesis(path, j);
      const group = path.slice(j, close + 1);
      checkPattern(group);
      pieces.push({ name, pattern: group.slice(1, -1) });
      sources.push(unanchored(group));
      j = close + 1;
      lazy = true;
    } else {
      sources.push(lazy ? '(.*?)' : `(${separator}|(?:(?!${separator}).)*)`);
      lazy = false;
      pieces.push({ name });
    }
    const staticStart = j;
    for (; j < len; j++) {
      const s = path.charCodeAt(j);
      if (s === 0x2f) break;
      if (s === 0x3a) {
        if (path.charCodeAt(j + 1) === 0x3a) j++;
        else break;
      }
    }
    suffix = path.slice(staticStart, j);
    addText(pieces, suffix);
    if (suffix !== '') {
      suffix = staticText(suffix);
      separator = suffix.replace(SPECIAL, '\\$&');
      sources.push(separator);
      staticLength += suffix.length;
    }
    key += '()' + suffix;
    nameStart = j + 1;
    if (j >= len || path.charCodeAt(j) === 0x2f) {
      parts.push({
        kind: 'param',
        regex: isRegex ? new RegExp('^' + sources.join('') + '$') : null,
        staticSuffix: suffix === '' ? null : suffix,
        params,
        staticLength,
        key: isRegex ? key : suffix,
      });
      return j;
    }
  }
}

/**
 * Refuses a parameter's pattern that could take exponential time on a long segment: a repetition inside a
 * repetition (`(a+)+`), or more than 25 repetitions; and one that is not a regular expression.
 */
function checkPattern(group: string): void {
  try {
    new RegExp(group);
  } catch (error) {
    throw new Error(`the pattern ${group} is not a regular expression: ${(error as Error).message}`, { cause: error });
  }
  if (!isSafePattern(group)) throw new Error(`the pattern ${group} is not safe: it repeats a repetition or repeats too often`);
}

/** True when no repetition holds another and there are at most 25 repetitions (JavaScript's syntax, read simply). */
export function isSafePattern(source: string): boolean {
  // For each open group: whether it holds a repetition.
  const groups: boolean[] = [false];
  let repetitions = 0;
  let lastAtomRepeats = false; // the atom just read (a closed group holding a repetition, or else false)
  let hasAtom = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    let quantifierEnd = -1;
    if (c === '\\') {
      i++;
      lastAtomRepeats = false;
      hasAtom = true;
      continue;
    }
    if (c === '[') {
      i++;
      if (source[i] === '^') i++;
      if (source[i] === ']') i++;
      while (i < source.length && source[i] !== ']') {
        if (source[i] === '\\') i++;
        i++;
      }
      lastAtomRepeats = false;
      hasAtom = true;
      continue;
    }
    if (c === '(') {
      groups.push(false);
      if (source[i + 1] === '?') {
        // (?: (?= (?! (?<= (?<! (?<name>: the group's own syntax is not a repetition.
        i++;
        if (source[i + 1] === '<' && source[i + 2] !== '=' && source[i + 2] !== '!') {
          const close = source.indexOf('>', i);
          if (close !== -1) i = close;
        } else i++;
      }
      hasAtom = false;
      continue;
    }
    if (c === ')') {
      lastAtomRepeats = groups.pop() ?? false;
      if (groups.length === 0) groups.push(false);
      hasAtom = true;
      if (lastAtomRepeats) groups[groups.length - 1] = true;
      continue;
    }
    if (c === '*' || c === '+' || c === '?') quantifierEnd = i;
    else if (c === '{') {
      const m = /^\{\d+(,\d*)?\}/.exec(source.slice(i));
      if (m !== null) quantifierEnd = i + m[0].length - 1;
    }
    if (quantifierEnd !== -1 && hasAtom) {
      repetitions++;
      if (lastAtomRepeats || repetitions > REPETITION_LIMIT) return false;
      groups[groups.length - 1] = true;
      i = quantifierEnd;
      if (source[i + 1] === '?') i++; // lazy
      lastAtomRepeats = false;
      hasAtom = false;
      continue;
    }
    lastAtomRepeats = false;
    hasAtom = c !== '|' && c !== '^' && c !== '$';
  }
  return true;
}
