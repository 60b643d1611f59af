// parse5 set up to parse widget HTML exactly as the console's sanitizer does (DOMPurify with FORCE_BODY): the
// string `<remove></remove>` + html parsed as a whole document, whose body holds the widget's nodes.
// Parsing a whole document rather than a body fragment matters where HTML's tree construction differs: the
// document has no doctype, so it is in quirks mode (a `<table>` nests in an open `<p>`), and a comment after
// `</body>` or `</html>` lands outside the body, not in the element that was open.
import { defaultTreeAdapter, parse } from 'parse5';
import type { DefaultTreeAdapterTypes as T, Token } from 'parse5';
import { isElement, templateContent } from './tree.js';

const PREFIX = '<remove></remove>';

/**
 * The widget's nodes, moved into a document fragment, with source locations pointing into `source`. When a
 * `<frameset>` replaced the body (nothing before it set the parser's "frameset-ok" flag to "not ok"), the
 * frameset's children are the content, as the frameset is then the document's body.
 */
export function parseBodyFragment(source: string): T.DocumentFragment {
  const doc = parse(PREFIX + source, { sourceCodeLocationInfo: true, scriptingEnabled: false });
  const fragment = defaultTreeAdapter.createDocumentFragment();
  const body = bodyOf(doc);
  if (!body) return fragment;
  const kids = body.childNodes;
  const first = kids[0];
  const start = first && isElement(first) && first.tagName === 'remove' ? 1 : 0;
  for (let i = start; i < kids.length; i++) {
    const kid = kids[i]!;
    kid.parentNode = fragment;
    fragment.childNodes.push(kid);
  }
  shiftLocations(fragment, PREFIX.length);
  return fragment;
}

/** The document's body as the DOM's `document.body` finds it: the html element's first body or frameset child. */
function bodyOf(doc: T.Document): T.Element | undefined {
  for (const top of doc.childNodes) {
    if (!isElement(top) || top.tagName !== 'html') continue;
    for (const kid of top.childNodes) if (isElement(kid) && (kid.tagName === 'body' || kid.tagName === 'frameset')) return kid;
  }
  return undefined;
}

type Located = Partial<Token.ElementLocation>;

/**
 * Takes the prefix's length off every location under `root`: offsets, and columns on the first line. parse5
 * shares location objects between an element, its start tag and the copies its repair rules make, so each
 * object is shifted once.
 */
function shiftLocations(root: T.ParentNode, by: number): void {
  const seen = new Set<object>();
  const shift = (loc: Located | null | undefined): void => {
    if (!loc || seen.has(loc)) return;
    seen.add(loc);
    loc.startOffset! -= by;
    loc.endOffset! -= by;
    if (loc.startLine === 1) loc.startCol! -= by;
    if (loc.endLine === 1) loc.endCol! -= by;
    shift(loc.startTag);
    shift(loc.endTag);
    if (loc.attrs) for (const name in loc.attrs) shift(loc.attrs[name]);
  };
  const stack: T.Node[] = [];
  const push = (kids: T.ChildNode[]): void => {
    for (const kid of kids) stack.push(kid);
  };
  push(root.childNodes);
  while (stack.length > 0) {
    const node = stack.pop()!;
    shift((node as { sourceCodeLocation?: Located | null }).sourceCodeLocation);
    if ('childNodes' in node) push(node.childNodes);
    if (isElement(node)) {
      const content = templateContent(node);
      if (content) push(content.childNodes);
    }
  }
}
