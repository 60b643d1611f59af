// Parsing a widget's HTML once, as body content, with source locations that point into the input.
import { parse, defaultTreeAdapter } from 'parse5';
import type { DefaultTreeAdapterTypes as T, Token } from 'parse5';
import { isElement, walk, HTML_NS, type Element } from './tree.js';

/**
 * A widget's HTML parsed once: the parse5 document (with `sourceCodeLocation` on every node, lines and
 * columns 1-based, offsets 0-based into `source`) and its body element, whose children are the widget's nodes.
 * Pass it to `lint`, `extractActions` and `collectFormFields` so the input is parsed only once.
 */
export interface ParsedWidgetHtml {
  readonly source: string;
  readonly document: T.Document;
  /** The body element. Its childNodes are the widget's content; attributes of a stray `<body …>` land here. */
  readonly body: T.Element;
}

// Like DOMPurify's FORCE_BODY: a leading element keeps <style>, <meta>, <script> … out of <head>.
const MARKER = '<remove></remove>';

/**
 * Parses widget HTML as body content. Never throws: any string is some HTML.
 *
 * @example
 * const parsed = parseWidgetHtml('<p>Hello</p><cwdb-action>…</cwdb-action>');
 * lint(parsed); extractActions(parsed);
 */
export function parseWidgetHtml(html: string): ParsedWidgetHtml {
  const source = typeof html === 'string' ? html : String(html);
  const document = parse(MARKER + source, { sourceCodeLocationInfo: true, scriptingEnabled: false });
  const htmlEl = document.childNodes.find(isElement);
  let body = htmlEl?.childNodes.find((n): n is Element => isElement(n) && n.tagName === 'body');
  if (!body) {
    // A <frameset> can take the body's place; the widget then has no body content at all.
    body = defaultTreeAdapter.createElement('body', HTML_NS as T.Element['namespaceURI'], []);
    if (htmlEl) defaultTreeAdapter.appendChild(htmlEl, body);
  }
  const first = body.childNodes[0];
  if (first && isElement(first) && first.tagName === 'remove' && first.sourceCodeLocation?.startOffset === 0) {
    body.childNodes.splice(0, 1);
  }
  unshiftLocations(document);
  return { source, document, body };
}

/** Moves every location back by the marker's length so it points into the caller's string. */
function unshiftLocations(document: T.Document): void {
  const shift = MARKER.length;
  const seen = new Set<Token.Location>();
  const fix = (loc: Token.Location | null | undefined): void => {
    if (!loc || seen.has(loc)) return;
    seen.add(loc);
    loc.startOffset -= shift;
    loc.endOffset -= shift;
    if (loc.startLine === 1) loc.startCol -= shift;
    if (loc.endLine === 1) loc.endCol -= shift;
  };
  walk(
    document,
    (node) => {
      const loc = node.sourceCodeLocation as Token.ElementLocation | null | undefined;
      if (!loc) return;
      fix(loc);
      fix(loc.startTag);
      fix(loc.endTag);
      if (loc.attrs) for (const key in loc.attrs) fix(loc.attrs[key]);
    },
    true,
  );
}
