// Small readers over the parse5 default tree, shared by the sanitizer model, actions and forms.
import { html, type DefaultTreeAdapterTypes as T } from 'parse5';

export type Node = T.Node;
export type ChildNode = T.ChildNode;
export type Element = T.Element;
export type ParentNode = T.ParentNode;

export const HTML_NS = html.NS.HTML;
export const SVG_NS = html.NS.SVG;
export const MATHML_NS = html.NS.MATHML;

export function isElement(node: Node): node is Element {
  return (node as Element).tagName !== undefined && (node as Element).attrs !== undefined;
}

export function isText(node: Node): node is T.TextNode {
  return node.nodeName === '#text';
}

export function isComment(node: Node): node is T.CommentNode {
  return node.nodeName === '#comment';
}

/** The attribute's qualified name as the DOM reports it (`xlink:href`, `viewBox`). */
export function qualifiedName(attr: { name: string; prefix?: string }): string {
  return attr.prefix ? `${attr.prefix}:${attr.name}` : attr.name;
}

export function getAttr(el: Element, name: string): string | undefined {
  for (const a of el.attrs) if (!a.prefix && a.name === name) return a.value;
  return undefined;
}

export function hasAttr(el: Element, name: string): boolean {
  return getAttr(el, name) !== undefined;
}

/** Template content lives beside the element's childNodes in parse5. */
export function templateContent(el: Element): T.DocumentFragment | undefined {
  return (el as T.Template).content;
}

/**
 * Visits every node under `root` (not `root` itself) in document order, without recursion.
 * `visit` returns false to skip a node's children. Template content is entered only when asked.
 */
export function walk(root: ParentNode, visit: (node: ChildNode) => boolean | void, intoTemplates = false): void {
  const stack: ChildNode[] = [];
  pushChildren(stack, root, intoTemplates);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (visit(node) === false) continue;
    if ('childNodes' in node) pushChildren(stack, node, intoTemplates);
  }
}

function pushChildren(stack: ChildNode[], node: ParentNode, intoTemplates: boolean): void {
  const kids = node.childNodes;
  for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  if (intoTemplates && isElement(node)) {
    const content = templateContent(node);
    if (content) for (let i = content.childNodes.length - 1; i >= 0; i--) stack.push(content.childNodes[i]!);
  }
}

/** Concatenated data of the text nodes under `root` (the DOM's textContent), skipping some elements. */
export function textContent(root: ParentNode, skip?: (el: Element) => boolean): string {
  const parts: string[] = [];
  walk(root, (node) => {
    if (isText(node)) parts.push(node.value);
    else if (skip && isElement(node) && skip(node)) return false;
    return true;
  });
  return parts.join('');
}

/** Collapses runs of ASCII whitespace to one space and trims, as testing libraries normalise text. */
export function normalizeWhitespace(text: string): string {
  return text.replace(/[\t\n\f\r ]+/g, ' ').trim();
}
