import { NotFoundError } from './errors.js';
import type { ActionEntry } from './results.js';

/**
 * How to find an action: its text (exact after whitespace normalisation), a RegExp, `{ text, exact: false }`
 * for a substring, or `{ index }` as an escape hatch.
 */
export type ActionQuery = string | RegExp | { text: string; exact?: boolean } | { index: number };

const normalize = (s: string): string => s.replace(/\s+/g, ' ').trim();

/**
 * Finds exactly one action, testing-library style; none or several matches throw a NotFoundError that lists
 * the candidates.
 *
 * @example
 * findAction(actions, 'Refresh'); findAction(actions, /ref/i); findAction(actions, { text: 'Ref', exact: false });
 */
export function findAction(actions: ActionEntry[], query: ActionQuery, widgetId: string): ActionEntry {
  if (typeof query === 'object' && !(query instanceof RegExp) && 'index' in query) {
    const hit = actions.find((a) => a.index === query.index);
    if (!hit) throw new NotFoundError('action', `${widgetId} has no action with index ${query.index}; ${candidates(actions)}`);
    return hit;
  }
  let label: string;
  let matches: (a: ActionEntry) => boolean;
  if (query instanceof RegExp) {
    label = String(query);
    matches = (a) => {
      query.lastIndex = 0;
      return query.test(a.text);
    };
  } else {
    const wanted = normalize(typeof query === 'string' ? query : query.text);
    const exact = typeof query === 'string' || query.exact !== false;
    label = exact ? JSON.stringify(wanted) : `text containing ${JSON.stringify(wanted)}`;
    matches = exact ? (a) => normalize(a.text) === wanted : (a) => normalize(a.text).includes(wanted);
  }
  const found = actions.filter(matches);
  if (found.length === 1) return found[0]!;
  if (found.length === 0) throw new NotFoundError('action', `${widgetId} has no action ${label}; ${candidates(actions)}`);
  throw new NotFoundError(
    'action',
    `${widgetId} has ${found.length} actions ${label}, expected one: ${found.map(show).join(', ')}; narrow the text, use a RegExp, or pick { index }`,
  );
}

const show = (a: ActionEntry): string => `#${a.index} ${JSON.stringify(a.text)}`;

function candidates(actions: ActionEntry[]): string {
  return actions.length === 0 ? 'the widget has no actions' : `its actions are ${actions.map(show).join(', ')}`;
}
