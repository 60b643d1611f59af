// The document a widget image draws: what the harness page puts in a widget's frame (its sanitize.js
// `widgetDocument`, here over parse5 instead of the browser's DOMParser, so the browser that draws it never runs
// a script), with the console's default styles as the page has them, and styles that make two drawings the same.
import { readFileSync } from 'node:fs';
import { defaultTreeAdapter, html as parse5Html, parse, serializeOuter, type DefaultTreeAdapterTypes as T } from 'parse5';

export type Theme = 'light' | 'dark';

// The same lists and base styles as the page's sanitize.js; test/e2e/widget-image-document.test.ts holds the two
// to the same output.
const DROP = new Set([
  'script',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'portal',
  'base',
  'meta',
  'link',
  'noscript',
  'use',
]);
/** SVG's own animation elements run without scripts: an image shows what they animate as it is before they start. */
const SMIL = new Set(['animate', 'animateMotion', 'animateTransform', 'set']);
const SVG_NS = parse5Html.NS.SVG;
const URL_ATTRS = new Set(['href', 'src', 'action', 'formaction', 'xlink:href', 'data', 'poster', 'background']);
const BASE_CSS =
  'cwdb-action{display:none!important}[data-cwdb-action]{cursor:pointer}:root.cwdb-theme-dark{color-scheme:dark}' +
  ':root.cwdb-fill{height:100%;overflow:auto}:root.cwdb-fill body{height:100%;margin:0;box-sizing:border-box}';

/**
 * Two drawings of the same HTML are the same picture: nothing moves (animations and transitions are off, as for
 * a reader who asked for reduced motion) and no text caret blinks. Last in the document, so it wins over the
 * widget's own styles of equal weight.
 */
export const STILL_CSS =
  '*,*::before,*::after{animation:none!important;transition:none!important;caret-color:transparent!important;scroll-behavior:auto!important}';

let defaultCss: string | null = null;

/** The console's default styles inside a widget, read once from the page's own `widget.css`. */
export function consoleWidgetCss(): string {
  // Beside this module's room in src/ and in dist/ alike: the build copies the page's assets.
  defaultCss ??= readFileSync(new URL('../harness/web/assets/widget.css', import.meta.url), 'utf8');
  return defaultCss;
}

const isElement = (node: T.Node): node is T.Element => (node as T.Element).tagName !== undefined;
const qualified = (attr: { name: string; prefix?: string }) => (attr.prefix ? `${attr.prefix}:${attr.name}` : attr.name);

/** Removes what the console strips (as the page does): active elements, event handlers, script URLs. */
function clean(parent: T.ParentNode, still: boolean): void {
  const stack: T.ParentNode[] = [parent];
  const dropped = (el: T.Element) => DROP.has(el.tagName) || (still && el.namespaceURI === SVG_NS && SMIL.has(el.tagName));
  while (stack.length > 0) {
    const node = stack.pop()!;
    node.childNodes = node.childNodes.filter((child) => !(isElement(child) && dropped(child)));
    for (const child of node.childNodes) {
      if (!isElement(child)) continue;
      child.attrs = child.attrs.filter((attr) => {
        const name = qualified(attr).toLowerCase();
        // Browsers ignore whitespace and control characters inside a URL's scheme.
        const value = [...attr.value]
          .filter((c) => c.charCodeAt(0) > 0x20)
          .join('')
          .toLowerCase();
        return !(name.startsWith('on') || name === 'srcdoc' || (URL_ATTRS.has(name) && /^(javascript|vbscript):/.test(value)));
      });
      stack.push(child);
      const content = (child as T.Template).content;
      if (content) stack.push(content);
    }
  }
}

function find(parent: T.ParentNode, test: (el: T.Element) => boolean): T.Element | undefined {
  const stack: T.Node[] = [...parent.childNodes].reverse();
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (test(node)) return node;
    stack.push(...[...node.childNodes].reverse());
  }
  return undefined;
}

function style(css: string, attrs: T.Element['attrs'] = []): T.Element {
  const el = defaultTreeAdapter.createElement('style', parse5Html.NS.HTML, attrs);
  defaultTreeAdapter.insertText(el, css);
  return el;
}

const hasClass = (el: T.Element, name: string) =>
  el.attrs.some((a) => !a.prefix && a.name === 'class' && a.value.split(/[\t\n\f\r ]+/).includes(name));

/**
 * The complete document a widget's frame shows, for its HTML as the API returns it: stripped as the page
 * strips it, in the theme's class, filling the frame, with the console's default styles first (the widget's own
 * come after and win; any element of class `cwdb-no-default-styles` turns them off) and, unless `still` is false
 * (what the page itself shows), {@link STILL_CSS} last and SVG's animation elements removed.
 *
 * @example
 * widgetDocument('<p>Hi</p><script>x()</script>', { theme: 'dark' }); // '<!doctype html><html class="cwdb-theme-dark cwdb-fill">…<p>Hi</p>…'
 */
export function widgetDocument(html: string, options: { theme: Theme; defaultCss?: string; still?: boolean }): string {
  const still = options.still !== false;
  // As DOMParser parses (and a frame without scripts): scripting off, so <noscript> holds markup.
  const doc = parse(`<!doctype html>${html}`, { scriptingEnabled: false });
  clean(doc, still);
  const root = doc.childNodes.find(isElement)!;
  const classAttr = root.attrs.find((a) => !a.prefix && a.name === 'class');
  const classes = [...(classAttr?.value.split(/[\t\n\f\r ]+/).filter(Boolean) ?? [])];
  for (const name of [`cwdb-theme-${options.theme}`, 'cwdb-fill']) if (!classes.includes(name)) classes.push(name);
  if (classAttr) classAttr.value = classes.join(' ');
  else root.attrs.push({ name: 'class', value: classes.join(' ') });
  const head = root.childNodes.find((n): n is T.Element => isElement(n) && n.tagName === 'head')!;
  const body = root.childNodes.find((n): n is T.Element => isElement(n) && n.tagName === 'body')!;
  const optOut = find(doc, (el) => hasClass(el, 'cwdb-no-default-styles')) !== undefined;
  const own = style(options.defaultCss ?? consoleWidgetCss(), [
    { name: 'id', value: 'cwdb-default-styles' },
    ...(optOut ? [{ name: 'media', value: 'not all' }] : []),
  ]);
  const base = style(BASE_CSS);
  for (const el of [base, own]) el.parentNode = head;
  head.childNodes.unshift(base, own);
  if (still) defaultTreeAdapter.appendChild(body, style(STILL_CSS));
  return `<!doctype html>${serializeOuter(root)}`;
}

/** What the page shows in place of a widget whose function failed: the error's type and message. */
export function errorDocument(error: { type: string; message: string }, theme: Theme): string {
  const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const bad = theme === 'dark' ? '#ff5d64' : '#b4260e';
  return widgetDocument(
    `<style>.cwdb-error{padding:12px;margin:-8px -12px;color:${bad}}.cwdb-error p{margin:4px 0 0;color:var(--w-text);white-space:pre-wrap}</style>` +
      `<div class="cwdb-error" role="alert"><strong>${escape(error.type)}</strong><p>${escape(error.message)}</p></div>`,
    { theme },
  );
}
