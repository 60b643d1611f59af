// Builders for <cwdb-action>: the attributes the console reads, and JSON params the parser gives back intact.
import { SafeHtml, escapeHtml } from './html.js';
import { usageError } from '../errors/index.js';

const invalid = (message: string) => usageError('TRELLIS_INVALID_ARGUMENT', message);

interface CommonOptions {
  /** `widget` (default) replaces the widget's content with the result; `popup` shows it in a popup. */
  display?: 'popup' | 'widget';
  /** Text of a confirmation dialog shown before the action runs. */
  confirmation?: string;
}

export interface CallActionOptions extends CommonOptions {
  /** The Lambda function to call: a name or an ARN. */
  endpoint: string;
  /** JSON params, sent at the top level of the called function's event. */
  params?: unknown;
  /** What triggers it on the previous element; `mouseenter` is not possible for calls. */
  event?: 'click' | 'dblclick';
}

export interface HtmlActionOptions extends CommonOptions {
  /** The HTML to show; a plain string is escaped as text. */
  content: SafeHtml | string;
  event?: 'click' | 'dblclick' | 'mouseenter';
}

function attributes(pairs: Array<[string, string | undefined]>): string {
  return pairs
    .filter((p): p is [string, string] => p[1] !== undefined)
    .map(([n, v]) => ` ${n}="${escapeHtml(v)}"`)
    .join('');
}

const DISPLAYS = ['popup', 'widget'];

function check(name: string, value: string | undefined, allowed: string[]): void {
  if (value !== undefined && !allowed.includes(value)) {
    throw invalid(`${name} must be one of ${allowed.map((a) => `"${a}"`).join(', ')}; got ${JSON.stringify(value)}`);
  }
}

/**
 * JSON text escaped for element content: the HTML parser turns it back into exactly `JSON.stringify(params)`.
 *
 * @example
 * jsonContent({ q: '<b>' }); // '{&quot;q&quot;:&quot;&lt;b&gt;&quot;}'
 */
export function jsonContent(params: unknown): string {
  let json: string | undefined;
  try {
    json = JSON.stringify(params);
  } catch (e) {
    throw usageError('TRELLIS_INVALID_ARGUMENT', `action params must be JSON-serializable: ${(e as Error).message}`, TypeError, e);
  }
  if (json === undefined) throw invalid('action params must be a JSON value (got undefined, a function or a symbol)');
  return escapeHtml(json);
}

/**
 * A `<cwdb-action action="call">`: clicking the element right before it calls `endpoint` with `params`.
 *
 * @example
 * html`<button>Restart</button>${callAction({ endpoint: 'restart', params: { id }, confirmation: 'Restart?' })}`;
 */
export function callAction(options: CallActionOptions): SafeHtml {
  if (typeof options?.endpoint !== 'string' || options.endpoint.trim() === '') {
    throw invalid('callAction needs an endpoint: the name or ARN of the Lambda function to call');
  }
  check('display', options.display, DISPLAYS);
  check('event', options.event, ['click', 'dblclick']);
  const attrs = attributes([
    ['action', 'call'],
    ['endpoint', options.endpoint],
    ['display', options.display],
    ['event', options.event],
    ['confirmation', options.confirmation],
  ]);
  const content = options.params === undefined ? '' : jsonContent(options.params);
  return new SafeHtml(`<cwdb-action${attrs}>${content}</cwdb-action>`);
}

/**
 * A `<cwdb-action action="html">`: the element right before it shows `content` (in the widget or a popup).
 *
 * @example
 * html`<a>Details</a>${htmlAction({ display: 'popup', event: 'mouseenter', content: html`<p>${text}</p>` })}`;
 */
export function htmlAction(options: HtmlActionOptions): SafeHtml {
  check('display', options.display, DISPLAYS);
  check('event', options.event, ['click', 'dblclick', 'mouseenter']);
  const attrs = attributes([
    ['action', 'html'],
    ['display', options.display],
    ['event', options.event],
    ['confirmation', options.confirmation],
  ]);
  const content = options.content instanceof SafeHtml ? options.content.toString() : escapeHtml(String(options.content ?? ''));
  return new SafeHtml(`<cwdb-action${attrs}>${content}</cwdb-action>`);
}
