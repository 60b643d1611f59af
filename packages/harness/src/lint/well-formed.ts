// Parsing the well-formed HTML most widgets are made of, without parse5's general tree construction.
//
// For an input inside a simple subset of HTML — every end tag closes the current element, nothing is closed,
// moved or dropped by the parser's repair rules, no doctypes or CDATA — this builds exactly the tree parse5
// builds: the same node objects, attributes, namespaces and source locations. On anything outside the subset
// it returns undefined and the caller parses with parse5, so a result never depends on which parser ran (a
// property test compares both trees on generated documents). The subset is what template-built widget HTML
// looks like; it is several times faster to parse because it skips the general algorithm's bookkeeping.
import { decodeHTML, decodeHTMLAttribute } from 'entities/decode';
import { defaultTreeAdapter, foreignContent, html } from 'parse5';
import type { DefaultTreeAdapterTypes as T, Token } from 'parse5';
import { HTML_NS, SVG_NS } from './tree.js';
import { LineCursor } from './well-formed-lines.js';
import { OpenElements, type TagLocation } from './well-formed-stack.js';
import { endTagCloses, startTagCloses } from './well-formed-implied.js';
import { ESCAPABLE_RAW_TEXT, KEEPS_P_OPEN, NOT_SIMPLE, RAW_TEXT, SKIPS_FIRST_NEWLINE, TABLE_SECTIONS, VOID } from './well-formed-names.js';

/** Thrown inside the parser when the input leaves the subset; never escapes `parseWellFormed`. */
const OUTSIDE = new Error('outside the well-formed subset'); // made once: throwing it costs no stack trace

type Location = Token.Location;

const SPACE = 0x20;
const LF = 0x0a;
const TAB = 0x09;
const FF = 0x0c;
const SLASH = 0x2f;
const GT = 0x3e;
const EQ = 0x3d;

function isSpace(c: number): boolean {
  return c === SPACE || c === LF || c === TAB || c === FF;
}

function isAlpha(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

function allSpace(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isSpace(s.charCodeAt(i))) return false;
  return true;
}

/**
 * The tree parse5 builds for `source` as the widget's content (with source locations; see body-fragment.ts),
 * or undefined when the input needs HTML's repair rules, which only parse5 applies.
 */
export function parseWellFormed(source: string): T.DocumentFragment | undefined {
  // Carriage returns and NULs are rewritten by the input stream; after an `&` parse5 counts a newline twice.
  if (source.indexOf('\r') !== -1 || source.indexOf('\0') !== -1 || source.indexOf('&\n') !== -1) return undefined;
  try {
    return new WellFormedParser(source).parse();
  } catch {
    // OUTSIDE, or anything unforeseen: parse5 answers instead.
    return undefined;
  }
}

class WellFormedParser {
  readonly #src: string;
  readonly #lines: LineCursor;
  readonly #open: OpenElements;
  #skipNewline = false;
  /** The name #readTagName read last. */
  #tagName = '';

  constructor(source: string) {
    this.#src = source;
    this.#lines = new LineCursor(source);
    this.#open = new OpenElements();
  }

  parse(): T.DocumentFragment {
    const src = this.#src;
    const len = src.length;
    let i = 0;
    while (i < len) {
      let lt = src.indexOf('<', i);
      let kind: 'start' | 'end' | 'comment' = 'start';
      while (lt !== -1) {
        const c = src.charCodeAt(lt + 1);
        if (isAlpha(c)) break;
        if (c === SLASH) {
          if (!isAlpha(src.charCodeAt(lt + 2))) throw OUTSIDE;
          kind = 'end';
          break;
        }
        if (c === 0x21) {
          if (!src.startsWith('--', lt + 2)) throw OUTSIDE; // doctypes, CDATA, bogus comments
          kind = 'comment';
          break;
        }
        if (c === 0x3f) throw OUTSIDE; // processing instructions are bogus comments
        lt = src.indexOf('<', lt + 1); // a '<' that starts no tag is text
      }
      const textEnd = lt === -1 ? len : lt;
      if (textEnd > i) this.#text(i, textEnd);
      if (lt === -1) break;
      i = kind === 'start' ? this.#startTag(lt) : kind === 'end' ? this.#endTag(lt) : this.#comment(lt);
    }
    this.#lines.at(len);
    while (this.#open.stack.length > 0) this.#open.closeAt(this.#lines.line, this.#lines.col, len);
    return this.#open.root;
  }

  // ---- text ----

  #text(start: number, end: number): void {
    let locStart = start;
    let valueStart = start;
    if (this.#skipNewline) {
      this.#skipNewline = false;
      const src = this.#src;
      if (src.charCodeAt(start) === LF) {
        // parse5 drops the newline from the whitespace run it starts; a run of just the newline disappears.
        valueStart = start + 1;
        if (valueStart === end) return;
        if (!isSpace(src.charCodeAt(valueStart))) locStart = valueStart;
        if (src.charCodeAt(valueStart) === 0x26) throw OUTSIDE;
      } else if (src.charCodeAt(start) === 0x26) throw OUTSIDE; // a reference to a newline would be dropped too
    }
    const raw = this.#src.slice(valueStart, end);
    const hasReference = raw.indexOf('&') !== -1;
    const value = hasReference ? decodeHTML(raw) : raw;
    const mode = this.#open.mode();
    // Table text that is not all whitespace is moved before the table.
    if ((mode === 'table' || mode === 'section' || mode === 'row') && (hasReference || !allSpace(value))) throw OUTSIDE;
    this.#insertText(value, locStart, end);
  }

  #insertText(value: string, start: number, end: number): void {
    const parent: T.ParentNode = this.#open.parent();
    const kids = parent.childNodes;
    const last = kids[kids.length - 1];
    if (last !== undefined && last.nodeName === '#text') {
      const node = last as T.TextNode;
      node.value += value;
      this.#lines.at(end);
      const loc = node.sourceCodeLocation!;
      loc.endLine = this.#lines.line;
      loc.endCol = this.#lines.col;
      loc.endOffset = end;
      return;
    }
    const node: T.TextNode = { nodeName: '#text', value, parentNode: parent };
    node.sourceCodeLocation = this.#lines.location(start, end);
    kids.push(node);
  }

  // ---- comments ----

  /** A `<!-- … -->` comment; the ones the tokenizer ends early or oddly (`<!-->`, `--!>`) are left to parse5. */
  #comment(lt: number): number {
    this.#skipNewline = false;
    const src = this.#src;
    const dataStart = lt + 4;
    if (src.charCodeAt(dataStart) === GT || src.startsWith('->', dataStart)) throw OUTSIDE;
    const end = src.indexOf('-->', dataStart);
    if (end === -1) throw OUTSIDE;
    const data = src.slice(dataStart, end);
    if (data.indexOf('--!') !== -1) throw OUTSIDE;
    const parent: T.ParentNode = this.#open.parent();
    const node: T.CommentNode = { nodeName: '#comment', data, parentNode: parent };
    node.sourceCodeLocation = this.#lines.location(lt, end + 3);
    parent.childNodes.push(node);
    return end + 3;
  }

  // ---- tags ----

  /**
   * Reads a tag name starting at `from` into #tagName, lower-cased, and returns where it ends (at white space,
   * `/` or `>`). Names of anything but ASCII letters, digits and hyphens leave the subset.
   */
  #readTagName(from: number): number {
    const src = this.#src;
    const len = src.length;
    let j = from;
    let upper = false;
    for (;;) {
      if (j >= len) throw OUTSIDE;
      const c = src.charCodeAt(j);
      if (isSpace(c) || c === SLASH || c === GT) break;
      if (c >= 0x41 && c <= 0x5a) upper = true;
      else if (!((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39) || c === 0x2d)) throw OUTSIDE;
      j++;
    }
    this.#tagName = upper ? src.slice(from, j).toLowerCase() : src.slice(from, j);
    return j;
  }

  /** Reads the start tag at `lt` and inserts its element; returns where scanning goes on. */
  #startTag(lt: number): number {
    this.#skipNewline = false;
    const src = this.#src;
    const len = src.length;
    let j = this.#readTagName(lt + 1);
    const name = this.#tagName;
    this.#lines.at(lt);
    const startLine = this.#lines.line;
    const startCol = this.#lines.col;
    const attrs: Token.Attribute[] = [];
    let attrLocations: Record<string, Location> | undefined;
    let names: Set<string> | undefined;
    let selfClosing = false;
    for (;;) {
      let c = src.charCodeAt(j);
      while (isSpace(c)) c = src.charCodeAt(++j);
      if (j >= len) throw OUTSIDE;
      if (c === GT) {
        j++;
        break;
      }
      if (c === SLASH) {
        if (src.charCodeAt(j + 1) !== GT) throw OUTSIDE;
        selfClosing = true;
        j += 2;
        break;
      }
      if (c === EQ) throw OUTSIDE;
      const nameStart = j;
      let attrUpper = false;
      for (;;) {
        if (j >= len) throw OUTSIDE;
        c = src.charCodeAt(j);
        if (isSpace(c) || c === SLASH || c === GT || c === EQ) break;
        if (c === 0x22 || c === 0x27 || c === 0x3c || c < 0x20 || c >= 0x7f) throw OUTSIDE;
        if (c >= 0x41 && c <= 0x5a) attrUpper = true;
        j++;
      }
      const attrName = attrUpper ? src.slice(nameStart, j).toLowerCase() : src.slice(nameStart, j);
      let attrEnd = j;
      let value = '';
      let k = j;
      while (isSpace(c)) c = src.charCodeAt(++k);
      if (c === EQ) {
        c = src.charCodeAt(++k);
        while (isSpace(c)) c = src.charCodeAt(++k);
        if (c === 0x22 || c === 0x27) {
          const close = src.indexOf(c === 0x22 ? '"' : "'", k + 1);
          if (close === -1) throw OUTSIDE;
          const raw = src.slice(k + 1, close);
          value = raw.indexOf('&') === -1 ? raw : decodeHTMLAttribute(raw);
          j = attrEnd = close + 1;
          c = src.charCodeAt(j);
          if (!(isSpace(c) || c === SLASH || c === GT)) throw OUTSIDE;
        } else {
          const valueStart = k;
          for (;;) {
            if (k >= len) throw OUTSIDE;
            c = src.charCodeAt(k);
            if (isSpace(c) || c === GT) break;
            if (c === 0x22 || c === 0x27 || c === 0x3c || c === EQ || c === 0x60) throw OUTSIDE;
            k++;
          }
          if (k === valueStart) throw OUTSIDE;
          const raw = src.slice(valueStart, k);
          value = raw.indexOf('&') === -1 ? raw : decodeHTMLAttribute(raw);
          j = attrEnd = k;
        }
      } else {
        j = k;
      }
      if (attrs.length < 16) {
        for (let a = 0; a < attrs.length; a++) if (attrs[a]!.name === attrName) throw OUTSIDE;
        if (attrs.length === 15) names = new Set(attrs.map((a) => a.name)).add(attrName);
      } else {
        if (names!.has(attrName)) throw OUTSIDE;
        names!.add(attrName);
      }
      attrs.push({ name: attrName, value });
      attrLocations ??= Object.create(null) as Record<string, Location>;
      attrLocations[attrName] = this.#lines.location(nameStart, attrEnd);
    }
    this.#lines.at(j);
    const tag: TagLocation =
      attrLocations === undefined
        ? { startLine, startCol, startOffset: lt, endLine: this.#lines.line, endCol: this.#lines.col, endOffset: j }
        : { startLine, startCol, startOffset: lt, endLine: this.#lines.line, endCol: this.#lines.col, endOffset: j, attrs: attrLocations };
    return this.#insert(name, attrs, tag, selfClosing, j);
  }

  #insert(name: string, attrs: Token.Attribute[], tag: TagLocation, selfClosing: boolean, next: number): number {
    this.#closeLeftOpen(name, tag.startLine, tag.startCol, tag.startOffset, startTagCloses);
    const mode = this.#open.mode();
    if (mode === 'foreign') return this.#insertForeign(name, attrs, tag, selfClosing, next);
    const cur = this.#open.current;
    switch (mode) {
      case 'table':
        if (TABLE_SECTIONS.has(name) || name === 'caption') this.#open.push(this.#open.element(name, HTML_NS, attrs), tag);
        else if (name === 'tr') {
          const tbody = defaultTreeAdapter.createElement('tbody', HTML_NS, []);
          tbody.sourceCodeLocation = null;
          this.#open.push(tbody, null);
          this.#open.push(this.#open.element(name, HTML_NS, attrs), tag);
        } else throw OUTSIDE;
        return next;
      case 'section':
        if (name !== 'tr') throw OUTSIDE;
        this.#open.push(this.#open.element(name, HTML_NS, attrs), tag);
        return next;
      case 'row':
        if (name !== 'td' && name !== 'th') throw OUTSIDE;
        this.#open.push(this.#open.element(name, HTML_NS, attrs), tag);
        return next;
      case 'select':
        // An open option or optgroup was closed above, so these go straight in.
        if (name !== 'option' && name !== 'optgroup') throw OUTSIDE;
        this.#open.push(this.#open.element(name, HTML_NS, attrs), tag);
        return next;
    }
    if (NOT_SIMPLE.has(name)) throw OUTSIDE;
    if (this.#open.openP > 0 && !KEEPS_P_OPEN.has(name) && name.indexOf('-') === -1) throw OUTSIDE;
    const curName = cur?.tagName;
    switch (name) {
      case 'li':
        if (curName !== 'ul' && curName !== 'ol' && curName !== 'menu') throw OUTSIDE;
        break;
      case 'dd':
      case 'dt':
        if (curName !== 'dl') throw OUTSIDE;
        break;
      case 'a':
        if (this.#open.openA > 0) throw OUTSIDE;
        break;
      case 'nobr':
        if (this.#open.openNobr > 0) throw OUTSIDE;
        break;
      case 'button':
        if (this.#open.openButton > 0) throw OUTSIDE;
        break;
      case 'form':
        if (this.#open.openForm > 0) throw OUTSIDE;
        break;
      case 'svg': {
        const token = { tagName: name, attrs } as unknown as Token.TagToken;
        foreignContent.adjustTokenSVGAttrs(token);
        foreignContent.adjustTokenXMLAttrs(token);
        const el = this.#open.element(name, SVG_NS, token.attrs);
        if (selfClosing) this.#open.appendVoid(el, tag);
        else this.#open.push(el, tag);
        return next;
      }
    }
    const el = this.#open.element(name, HTML_NS, attrs);
    if (VOID.has(name)) {
      this.#open.appendVoid(el, tag);
      return next;
    }
    this.#open.push(el, tag);
    if (RAW_TEXT.has(name)) return this.#rawText(name, next, false);
    if (ESCAPABLE_RAW_TEXT.has(name)) return this.#rawText(name, next, true);
    if (SKIPS_FIRST_NEWLINE.has(name)) this.#skipNewline = true;
    return next;
  }

  #insertForeign(name: string, attrs: Token.Attribute[], tag: TagLocation, selfClosing: boolean, next: number): number {
    const cur = this.#open.current!;
    if (isSvgIntegrationPoint(cur)) throw OUTSIDE;
    const token = { tagName: name, tagID: html.getTagID(name), attrs } as unknown as Token.TagToken;
    if (foreignContent.causesExit(token)) throw OUTSIDE;
    foreignContent.adjustTokenSVGTagName(token);
    foreignContent.adjustTokenSVGAttrs(token);
    foreignContent.adjustTokenXMLAttrs(token);
    const el = this.#open.element(token.tagName, SVG_NS, token.attrs);
    if (selfClosing) this.#open.appendVoid(el, tag);
    else this.#open.push(el, tag);
    return next;
  }

  /** Reads a raw-text or escapable raw-text element's content and its end tag. */
  #rawText(name: string, from: number, escapable: boolean): number {
    const src = this.#src;
    let k = from;
    for (;;) {
      k = src.indexOf('</', k);
      if (k === -1) throw OUTSIDE;
      const after = k + 2 + name.length;
      const c = src.charCodeAt(after);
      if ((isSpace(c) || c === SLASH || c === GT) && src.slice(k + 2, after).toLowerCase() === name) break;
      k += 2;
    }
    if (name === 'script' && src.slice(from, k).indexOf('<!--') !== -1) throw OUTSIDE;
    if (k > from) {
      if (escapable) {
        if (name === 'textarea') this.#skipNewline = true;
        this.#text(from, k);
      } else this.#insertText(src.slice(from, k), from, k);
    }
    return this.#endTag(k);
  }

  #endTag(lt: number): number {
    this.#skipNewline = false;
    const src = this.#src;
    let j = this.#readTagName(lt + 2);
    const name = this.#tagName;
    let c = src.charCodeAt(j);
    while (isSpace(c)) c = src.charCodeAt(++j);
    if (c !== GT) throw OUTSIDE;
    j++;
    this.#lines.at(lt);
    this.#closeLeftOpen(name, this.#lines.line, this.#lines.col, lt, endTagCloses);
    const cur = this.#open.current;
    if (cur === undefined) throw OUTSIDE;
    const curName = cur.namespaceURI === HTML_NS ? cur.tagName : cur.tagName.toLowerCase();
    if (curName !== name) throw OUTSIDE;
    this.#open.close(this.#lines.location(lt, j));
    return j;
  }

  /** Closes HTML elements whose end tags were left out, while `closes` says the tag starting there ends them. */
  #closeLeftOpen(
    name: string,
    line: number,
    col: number,
    offset: number,
    closes: (name: string, current: string, inSelect: boolean) => boolean,
  ): void {
    const open = this.#open;
    for (;;) {
      const cur = open.current;
      if (cur === undefined || cur.namespaceURI !== HTML_NS || !closes(name, cur.tagName, open.openSelect > 0)) return;
      open.closeAt(line, col, offset);
    }
  }
}

function isSvgIntegrationPoint(el: T.Element): boolean {
  return el.namespaceURI === SVG_NS && (el.tagName === 'foreignObject' || el.tagName === 'desc' || el.tagName === 'title');
}
