// The open elements of the well-formed parser: the stack, the insertion mode inside each, and the few counts
// of open elements that tree-construction rules look at. Elements get their location when they close.
import { defaultTreeAdapter } from 'parse5';
import type { DefaultTreeAdapterTypes as T, Token } from 'parse5';
import { HTML_NS } from './tree.js';

export type TagLocation = Token.LocationWithAttributes;

/** The insertion modes the well-formed subset uses ('foreign': inside SVG). */
export type Mode = 'body' | 'table' | 'section' | 'row' | 'select' | 'foreign';

export class OpenElements {
  readonly root: T.DocumentFragment = defaultTreeAdapter.createDocumentFragment();
  readonly stack: T.Element[] = [];
  current: T.Element | undefined = undefined;
  /** Open elements whose start tags have rules that look at what is already open. */
  openP = 0;
  openA = 0;
  openNobr = 0;
  openButton = 0;
  openForm = 0;
  openSelect = 0;
  /** Per open element: its start tag's location (null for a made-up element) and the mode inside it. */
  readonly #tags: (TagLocation | null)[] = [];
  readonly #modes: Mode[] = [];

  mode(): Mode {
    return this.current === undefined ? 'body' : this.#modes[this.#modes.length - 1]!;
  }

  /** Where new nodes go. */
  parent(): T.ParentNode {
    return this.current ?? this.root;
  }

  element(name: string, ns: string, attrs: Token.Attribute[]): T.Element {
    return defaultTreeAdapter.createElement(name, ns as T.Element['namespaceURI'], attrs);
  }

  append(node: T.ChildNode): void {
    const parent = this.parent();
    parent.childNodes.push(node);
    node.parentNode = parent;
  }

  /** A void or self-closing element: located at once, never open. */
  appendVoid(el: T.Element, tag: TagLocation): void {
    this.append(el);
    el.sourceCodeLocation = elementLocation(tag, tag.endLine, tag.endCol, tag.endOffset, undefined);
  }

  push(el: T.Element, tag: TagLocation | null): void {
    this.append(el);
    this.stack.push(el);
    this.#tags.push(tag);
    this.#modes.push(this.#modeInside(el));
    this.current = el;
    if (el.namespaceURI === HTML_NS) this.#count(el.tagName, 1);
  }

  /** Closes the current element with its end tag. */
  close(endTag: Token.Location): void {
    const el = this.#pop();
    const tag = this.#tags.pop()!;
    if (tag !== null) el.sourceCodeLocation = elementLocation(tag, endTag.endLine, endTag.endCol, endTag.endOffset, endTag);
  }

  /** Closes the current element without an end tag of its own: it ends where the closing token starts. */
  closeAt(line: number, col: number, offset: number): void {
    const el = this.#pop();
    const tag = this.#tags.pop()!;
    if (tag !== null) el.sourceCodeLocation = elementLocation(tag, line, col, offset, undefined);
  }

  #pop(): T.Element {
    const el = this.stack.pop()!;
    this.#modes.pop();
    this.current = this.stack[this.stack.length - 1];
    if (el.namespaceURI === HTML_NS) this.#count(el.tagName, -1);
    return el;
  }

  /** The insertion mode inside `el`, once it is the current node. */
  #modeInside(el: T.Element): Mode {
    if (el.namespaceURI !== HTML_NS) return 'foreign';
    switch (el.tagName) {
      case 'table':
        return 'table';
      case 'tbody':
      case 'thead':
      case 'tfoot':
        return 'section';
      case 'tr':
        return 'row';
      case 'select':
        return 'select';
      case 'option':
      case 'optgroup':
        return this.openSelect > 0 ? 'select' : 'body';
      default:
        return 'body';
    }
  }

  #count(name: string, by: 1 | -1): void {
    switch (name) {
      case 'p':
        this.openP += by;
        break;
      case 'a':
        this.openA += by;
        break;
      case 'nobr':
        this.openNobr += by;
        break;
      case 'button':
        this.openButton += by;
        break;
      case 'form':
        this.openForm += by;
        break;
      case 'select':
        this.openSelect += by;
        break;
    }
  }
}

/** An element's location as parse5 gives it: the start tag's, its end, and the end tag when there is one. */
function elementLocation(
  tag: TagLocation,
  endLine: number,
  endCol: number,
  endOffset: number,
  endTag: Token.Location | undefined,
): T.Element['sourceCodeLocation'] {
  const { startLine, startCol, startOffset, attrs } = tag;
  if (attrs === undefined) {
    return endTag === undefined
      ? { startLine, startCol, startOffset, endLine, endCol, endOffset, startTag: tag }
      : { startLine, startCol, startOffset, endLine, endCol, endOffset, startTag: tag, endTag };
  }
  return endTag === undefined
    ? { startLine, startCol, startOffset, endLine, endCol, endOffset, attrs, startTag: tag }
    : { startLine, startCol, startOffset, endLine, endCol, endOffset, attrs, startTag: tag, endTag };
}
