// The console's sanitizer as a pure function over the parse5 tree: which elements and attributes it removes.
// It follows DOMPurify's default decisions (see allowlists.ts) in the order DOMPurify takes them, walking the
// tree once, iteratively, in document order. Removing an element either drops its content or leaves the
// content in place, where it is judged against the nearest kept ancestor (as after DOMPurify's hoisting).
import type { Token } from 'parse5';
import {
  ALL_MATHML_TAGS,
  ALL_SVG_TAGS,
  ALLOWED_ATTRS,
  ALLOWED_TAGS,
  CONTENT_DROPPED_TAGS,
  DATA_URI_TAGS,
  FORBIDDEN_TAGS,
  LITERAL_TEXT_TAGS,
  MATHML_TEXT_INTEGRATION_POINTS,
  RAW_TEXT_TAGS,
  SHARED_SVG_HTML_TAGS,
  URI_SAFE_ATTRS,
} from './allowlists.js';
import { CLOBBERING_NAMES, FORM_PROBED_NAMES } from './clobbering.js';
import { HTML_NS, MATHML_NS, SVG_NS, isComment, isElement, isText, qualifiedName, templateContent, walk } from './tree.js';
import type { ChildNode, Element, ParentNode } from './tree.js';

/** An element's namespace, as parse5 names it. */
type Namespace = Element['namespaceURI'];

export type ElementReason = 'forbidden' | 'not-allowed' | 'namespace' | 'markup-in-text' | 'clobbered-form';
export type AttributeReason = 'not-allowed' | 'patch-linkage' | 'url' | 'clobbering' | 'markup-in-value' | 'animated-href';

export interface ElementRemoval {
  kind: 'element';
  element: Element;
  tag: string;
  reason: ElementReason;
  contentKept: boolean;
}
export interface AttributeRemoval {
  kind: 'attribute';
  element: Element;
  tag: string;
  attr: Token.Attribute;
  /** Lowercased qualified name. */
  name: string;
  value: string;
  reason: AttributeReason;
}
export type Removal = ElementRemoval | AttributeRemoval;

interface WalkContext {
  clobberedForms(): Set<Element>;
}

interface Pending {
  node: ChildNode;
  parentNs: Namespace;
  parentTag: string;
}

/** Every removal the console model makes in the widget's content (a body's children), in document order. */
export function findRemovals(root: ParentNode): Removal[] {
  const out: Removal[] = [];
  let clobbered: Set<Element> | undefined;
  const ctx: WalkContext = { clobberedForms: () => (clobbered ??= findClobberedForms(root)) };
  const stack: Pending[] = [];
  pushChildren(stack, root.childNodes, HTML_NS, 'body');
  while (stack.length > 0) {
    const { node, parentNs, parentTag } = stack.pop()!;
    if (!isElement(node)) continue;
    const tag = node.tagName.toLowerCase();
    const removal = judgeElement(node, tag, parentNs, parentTag, ctx);
    let childNs = node.namespaceURI;
    let childTag = tag;
    if (removal) {
      out.push(removal);
      // The sanitizer still cleans a removed template's own content (not the rest of what it drops).
      const content = templateContent(node);
      if (content) pushChildren(stack, content.childNodes, HTML_NS, 'template');
      if (!removal.contentKept) continue;
      childNs = parentNs;
      childTag = parentTag;
    } else {
      judgeAttributes(node, tag, out);
      const content = templateContent(node);
      if (content) pushChildren(stack, content.childNodes, HTML_NS, 'template');
    }
    pushChildren(stack, node.childNodes, childNs, childTag);
  }
  return out;
}

function pushChildren(stack: Pending[], kids: ChildNode[], parentNs: Namespace, parentTag: string): void {
  for (let i = kids.length - 1; i >= 0; i--) {
    const node = kids[i]!;
    if (isElement(node)) stack.push({ node, parentNs, parentTag });
  }
}

function judgeElement(el: Element, tag: string, parentNs: Namespace, parentTag: string, ctx: WalkContext): ElementRemoval | null {
  const ns = el.namespaceURI;
  let reason: ElementReason;
  let contentKept = false;
  if (tag === 'form' && ns === HTML_NS && ctx.clobberedForms().has(el)) reason = 'clobbered-form';
  else if (hasMarkupLikeText(el, tag, ns)) reason = 'markup-in-text';
  else if (FORBIDDEN_TAGS.has(tag) || !ALLOWED_TAGS.has(tag)) {
    reason = FORBIDDEN_TAGS.has(tag) ? 'forbidden' : 'not-allowed';
    contentKept = !CONTENT_DROPPED_TAGS.has(tag);
  } else if (!namespaceFits(ns, tag, parentNs, parentTag)) reason = 'namespace';
  else return null;
  return { kind: 'element', element: el, tag, reason, contentKept };
}

const MARKUP_PROBE = /<[/\w!]/;

/** Text that a later serialize-and-parse round trip could turn into markup (mutation XSS). */
function hasMarkupLikeText(el: Element, tag: string, ns: Namespace): boolean {
  const kids = el.childNodes;
  if (kids.length === 0) return false;
  let hasLt = false;
  let hasComment = false;
  let hasElement = false;
  for (const k of kids) {
    if (isText(k)) hasLt ||= k.value.includes('<');
    else if (isComment(k)) hasComment = true;
    else hasElement = true;
  }
  const html = ns === HTML_NS;
  const literal = html && LITERAL_TEXT_TAGS.has(tag);
  if (literal && hasElement) return true;
  // Only text with a "<" can look like markup; most elements stop here.
  if (!hasLt) return false;
  let text = '';
  for (const k of kids) if (isText(k)) text += k.value;
  if (!MARKUP_PROBE.test(text)) return false;
  return literal || (!hasElement && (hasComment || (html && RAW_TEXT_TAGS.has(tag))));
}

/** Whether an HTML parser could have produced this element under this parent. */
function namespaceFits(ns: Namespace, tag: string, parentNs: Namespace, parentTag: string): boolean {
  if (ns === SVG_NS) {
    if (parentNs === HTML_NS) return tag === 'svg';
    if (parentNs === MATHML_NS) {
      return tag === 'svg' && (parentTag === 'annotation-xml' || MATHML_TEXT_INTEGRATION_POINTS.has(parentTag));
    }
    return ALL_SVG_TAGS.has(tag);
  }
  if (ns === MATHML_NS) {
    if (parentNs === HTML_NS) return tag === 'math';
    if (parentNs === SVG_NS) return tag === 'math' && parentTag === 'annotation-xml';
    return ALL_MATHML_TAGS.has(tag);
  }
  if (ns === HTML_NS) {
    if (parentNs === SVG_NS && parentTag !== 'annotation-xml') return false;
    if (parentNs === MATHML_NS && !MATHML_TEXT_INTEGRATION_POINTS.has(parentTag)) return false;
    return !ALL_MATHML_TAGS.has(tag) && (SHARED_SVG_HTML_TAGS.has(tag) || !ALL_SVG_TAGS.has(tag));
  }
  return false;
}

const FORM_NAMED_TAGS = new Set(['button', 'fieldset', 'input', 'object', 'output', 'select', 'textarea', 'img']);

/**
 * Forms whose properties a control shadows (`<input name="attributes">` makes `form.attributes` the input in
 * browsers); the sanitizer cannot trust such a form and drops it whole. One pass, marking ancestors once.
 */
function findClobberedForms(root: ParentNode): Set<Element> {
  const forms = new Set<Element>();
  const climbed = new Set<unknown>();
  walk(
    root,
    (node) => {
      if (!isElement(node) || node.namespaceURI !== HTML_NS || !FORM_NAMED_TAGS.has(node.tagName)) return;
      const probed = node.attrs.some((a) => !a.prefix && (a.name === 'id' || a.name === 'name') && FORM_PROBED_NAMES.has(a.value));
      if (!probed) return;
      for (let p = node.parentNode as Element | null; p && !climbed.has(p); p = p.parentNode as Element | null) {
        climbed.add(p);
        if (isElement(p) && p.tagName === 'form' && p.namespaceURI === HTML_NS) forms.add(p);
      }
    },
    true,
  );
  return forms;
}

const VALUE_BREAKOUT = /((--!?|])>)|<\/(style|script|title|xmp|textarea|noscript|iframe|noembed|noframes)/i;
const DATA_ATTR = /^data-[-\w.\u00B7-\uFFFF]+$/;
const ARIA_ATTR = /^aria-[-\w]+$/;

function judgeAttributes(el: Element, tag: string, out: Removal[]): void {
  for (const attr of el.attrs) {
    const name = qualifiedName(attr).toLowerCase();
    const value = name === 'value' ? attr.value : attr.value.trim();
    const reason = judgeAttribute(tag, name, value);
    if (reason) out.push({ kind: 'attribute', element: el, tag, attr, name, value, reason });
  }
}

export function judgeAttribute(tag: string, name: string, value: string): AttributeReason | null {
  if (value.includes('>') || value.includes('</')) {
    if (VALUE_BREAKOUT.test(value)) return 'markup-in-value';
  }
  if (name === 'attributename' && value.includes('href')) return 'animated-href';
  if (name === 'patchsrc' || (name === 'for' && tag !== 'label' && tag !== 'output')) return 'patch-linkage';
  if ((name === 'id' || name === 'name') && CLOBBERING_NAMES.has(value)) return 'clobbering';
  if ((name.startsWith('data-') && DATA_ATTR.test(name)) || (name.startsWith('aria-') && ARIA_ATTR.test(name))) return null;
  if (!ALLOWED_ATTRS.has(name)) return 'not-allowed';
  if (URI_SAFE_ATTRS.has(name) || name === 'endpoint') return null;
  if (isAllowedUrl(compactUrl(value))) return null;
  if ((name === 'src' || name === 'href' || name === 'xlink:href') && value.startsWith('data:') && DATA_URI_TAGS.has(tag)) {
    return null;
  }
  return value === '' ? null : 'url';
}

// eslint-disable-next-line no-control-regex -- browsers skip control characters in URLs, so must we
const URL_WHITESPACE = /[\u0000-\u0020\u00A0\u1680\u180E\u2000-\u2029\u205F\u3000]/g;

/** The value with every character a browser skips or ignores in a URL removed. */
export function compactUrl(value: string): string {
  return value.replace(URL_WHITESPACE, '');
}

const SAFE_SCHEMES = new Set(['http', 'https', 'ftp', 'ftps', 'mailto', 'tel', 'callto', 'sms', 'cid', 'xmpp', 'matrix']);

function isSchemeChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 43 || c === 45 || c === 46;
}

/** Relative URLs and the listed schemes pass; anything else that looks like `scheme:` does not. */
function isAllowedUrl(url: string): boolean {
  if (url === '') return false;
  const first = url.charCodeAt(0);
  if (!((first >= 97 && first <= 122) || (first >= 65 && first <= 90))) return true;
  let i = 1;
  while (i < url.length && isSchemeChar(url.charCodeAt(i))) i++;
  if (i === url.length || url[i] !== ':') return true;
  return SAFE_SCHEMES.has(url.slice(0, i).toLowerCase());
}
