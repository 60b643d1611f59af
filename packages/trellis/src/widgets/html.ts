// The `html` tagged template: every interpolation is escaped for where it stands, unless marked trusted.
import { usageError } from '../errors/index.js';

/**
 * HTML that is safe to insert as is: made by `html`, by the builders, or explicitly by `trusted()`.
 * It serializes to its string (`toString`, `toJSON`), so a handler can return it directly.
 *
 * @example
 * const fragment: SafeHtml = html`<b>${name}</b>`;
 * JSON.stringify(fragment); // '"<b>Ada</b>"'
 */
export class SafeHtml {
  readonly #value: string;
  constructor(value: string) {
    this.#value = value;
  }
  toString(): string {
    return this.#value;
  }
  toJSON(): string {
    return this.#value;
  }
}

/**
 * Marks a string as trusted HTML, inserted by `html` without escaping. Use it only for markup you wrote or
 * sanitized yourself; never for data.
 *
 * @example
 * html`<div>${trusted(renderedChartSvg)}</div>`;
 */
export function trusted(markup: string): SafeHtml {
  return new SafeHtml(String(markup));
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '`': '&#96;' };

/**
 * Escapes text for HTML text and quoted attribute values: `& < > " ' \``.
 *
 * @example
 * escapeHtml('<b>"hi"</b>'); // '&lt;b&gt;&quot;hi&quot;&lt;/b&gt;'
 */
export function escapeHtml(text: string): string {
  return String(text).replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
}

/** Unquoted attribute values end at whitespace, so those are escaped too. */
function escapeUnquoted(text: string): string {
  return escapeHtml(text).replace(/[\t\n\f\r =]/g, (c) => `&#${c.charCodeAt(0)};`);
}

type Context = 'text' | 'tag' | 'after-equals' | 'double' | 'single' | 'unquoted' | 'comment';

/** Where the template stands after `chunk`, starting from `state` (only the static parts are read). */
function advance(state: Context, chunk: string): Context {
  let s = state;
  for (let i = 0; i < chunk.length; i++) {
    const c = chunk[i]!;
    switch (s) {
      case 'text':
        if (c === '<') {
          if (chunk.startsWith('!--', i + 1)) {
            s = 'comment';
            i += 3;
          } else if (/[A-Za-z/]/.test(chunk[i + 1] ?? '')) s = 'tag';
        }
        break;
      case 'comment':
        if (chunk.startsWith('-->', i)) {
          s = 'text';
          i += 2;
        }
        break;
      case 'tag':
        if (c === '>') s = 'text';
        else if (c === '=') s = 'after-equals';
        break;
      case 'after-equals':
        if (c === '"') s = 'double';
        else if (c === "'") s = 'single';
        else if (c === '>') s = 'text';
        else if (!/[\t\n\f\r ]/.test(c)) s = 'unquoted';
        break;
      case 'double':
        if (c === '"') s = 'tag';
        break;
      case 'single':
        if (c === "'") s = 'tag';
        break;
      case 'unquoted':
        if (c === '>') s = 'text';
        else if (/[\t\n\f\r ]/.test(c)) s = 'tag';
        break;
    }
  }
  return s;
}

const URL_ATTRIBUTE = /(?:^|[\s"'])(?:href|src|xlink:href|action|formaction|poster|background|cite|data)\s*=\s*["']?$/i;
const SCRIPT_URL = /^[\w]*script:/i;
// eslint-disable-next-line no-control-regex -- browsers skip control characters and spaces in URLs
const URL_IGNORED = /[\u0000-\u0020\u00A0\u1680\u180E\u2000-\u2029\u205F\u3000]/g;

/** Blocks script URLs in URL-valued attributes: escaping alone cannot make them safe. */
function safeUrl(value: string, before: string): string {
  if (!URL_ATTRIBUTE.test(before)) return value;
  return SCRIPT_URL.test(value.replace(URL_IGNORED, '')) ? '#blocked' : value;
}

function stringify(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  return String(value);
}

/** One interpolated value, written for its context. Arrays are joined; SafeHtml goes in as is. */
function render(value: unknown, context: Context, before: string): string {
  if (value instanceof SafeHtml) {
    if (context === 'text' || context === 'tag') return value.toString();
    return escapeHtml(value.toString());
  }
  if (Array.isArray(value)) return value.map((v) => render(v, context, before)).join('');
  const text = stringify(value);
  switch (context) {
    case 'text':
      return escapeHtml(text);
    case 'comment':
      // Escapes do not work inside comments; only a "--" could end one early, so break those up.
      return escapeHtml(text).replace(/-(?=-)/g, '- ');
    case 'double':
    case 'single':
      return escapeHtml(safeUrl(text, before));
    case 'after-equals':
      return `"${escapeHtml(safeUrl(text, before))}"`;
    case 'unquoted':
      return escapeUnquoted(text);
    case 'tag':
      throw usageError(
        'TRELLIS_INVALID_ARGUMENT',
        `html: a value inside a tag must be an attribute value (name="\${value}"), not attribute names or markup; got ${JSON.stringify(text)}. Wrap markup you trust in trusted()`,
      );
  }
}

/**
 * Builds HTML from a template, escaping every interpolated value for its place: text, quoted or unquoted
 * attribute values (an unquoted value is quoted for you), comments. Script URLs in URL attributes become
 * `#blocked` (a harmless fragment link). Arrays are joined; `null`, `undefined` and `false` insert nothing; `SafeHtml`
 * (from `html`, the builders or `trusted()`) is inserted as is.
 *
 * @example
 * const rows = items.map((i) => html`<tr><td>${i.name}</td><td title=${i.note}>${i.value}</td></tr>`);
 * return html`<table>${rows}</table>`;
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  let context = advance('text', strings[0]!);
  for (let i = 0; i < values.length; i++) {
    out += render(values[i], context, strings[i]!);
    const next = strings[i + 1]!;
    // A value that opened an unquoted attribute value ends it; the rest of the tag follows.
    if (context === 'after-equals') context = 'tag';
    context = advance(context, next);
    out += next;
  }
  return new SafeHtml(out);
}
