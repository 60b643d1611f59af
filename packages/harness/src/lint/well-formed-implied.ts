// Which open element a tag ends without naming it: the end tags HTML lets authors leave out (`<li>`, `<p>`,
// `<td>`, `<tr>`, `<option>` …). The well-formed parser closes the current element when one of these rules
// applies to it, and otherwise leaves anything unusual to parse5.
import { CLOSES_P, HEADINGS, TABLE_SECTIONS } from './well-formed-names.js';

/** Elements that "generate implied end tags" pops while one of them is the current node. */
const IMPLIED = new Set(['p', 'li', 'dd', 'dt', 'option', 'optgroup']);

/** End tags whose rule generates implied end tags before closing their element. */
const GENERATES_IMPLIED = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'button',
  'center',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'header',
  'hgroup',
  'listing',
  'main',
  'menu',
  'nav',
  'ol',
  'pre',
  'search',
  'section',
  'summary',
  'ul',
  'form',
  'p',
  'li',
  'dd',
  'dt',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'applet',
  'marquee',
  'object',
  'td',
  'th',
  'tr',
  'tbody',
  'thead',
  'tfoot',
  'table',
  'select',
]);

const CELLS = new Set(['td', 'th']);

/** Whether the start tag `name` ends the current element `current` (both HTML), as HTML's rules say. */
export function startTagCloses(name: string, current: string, inSelect: boolean): boolean {
  if (current === 'p' && CLOSES_P.has(name)) return true;
  switch (name) {
    case 'li':
      return current === 'li';
    case 'dd':
    case 'dt':
      return current === 'dd' || current === 'dt';
    case 'option':
      return current === 'option';
    case 'optgroup':
      return current === 'option' || (current === 'optgroup' && inSelect);
    case 'td':
    case 'th':
      return CELLS.has(current);
    case 'tr':
      return CELLS.has(current) || current === 'tr';
    case 'tbody':
    case 'thead':
    case 'tfoot':
      return CELLS.has(current) || current === 'tr' || TABLE_SECTIONS.has(current);
    default:
      return HEADINGS.has(name) && HEADINGS.has(current);
  }
}

/** Whether the end tag `name` ends the current element `current` (both HTML) on its way to its own element. */
export function endTagCloses(name: string, current: string, inSelect: boolean): boolean {
  if (current === name) return false;
  if (name === 'optgroup') return inSelect && current === 'option';
  if (!GENERATES_IMPLIED.has(name)) return false;
  if (IMPLIED.has(current)) return true;
  switch (name) {
    case 'tr':
      return CELLS.has(current);
    case 'tbody':
    case 'thead':
    case 'tfoot':
      return CELLS.has(current) || current === 'tr';
    case 'table':
      return CELLS.has(current) || current === 'tr' || TABLE_SECTIONS.has(current);
    default:
      return false;
  }
}
