import { NotFoundError } from './errors.js';
import { showValue } from './functions/index.js';

const INDEX = /^(0|[1-9]\d{0,8})$/;

/**
 * Resolves a widget id (`3`, `"3"` or `"widget-3"`) to an index, or throws {@link NotFoundError}.
 *
 * @example
 * widgetIndex('widget-2', 5); // 2
 */
export function widgetIndex(wid: unknown, count: number): number {
  const text = typeof wid === 'number' ? String(wid) : typeof wid === 'string' ? wid.replace(/^widget-/, '') : '';
  const index = INDEX.test(text) ? Number(text) : -1;
  if (index < 0 || index >= count) {
    const range = count === 0 ? 'the dashboard has no widgets' : `use 0–${count - 1} or widget-0–widget-${count - 1}`;
    throw new NotFoundError('widget', `No widget ${showValue(wid)}: ${range}`);
  }
  return index;
}

/**
 * Resolves an action index (`0`, `"0"`) against how many actions the widget has, or throws {@link NotFoundError}.
 *
 * @example
 * actionIndex('1', 3); // 1
 */
export function actionIndex(index: unknown, count: number, widgetId: string): number {
  const text = typeof index === 'number' ? String(index) : typeof index === 'string' ? index : '';
  const n = INDEX.test(text) ? Number(text) : -1;
  if (n < 0 || n >= count) {
    const range = count === 0 ? `${widgetId} has no actions` : `${widgetId} has actions 0–${count - 1}`;
    throw new NotFoundError('action', `No action ${showValue(index)}: ${range}`);
  }
  return n;
}
