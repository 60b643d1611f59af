// Turning tree nodes back into 1-based line/column positions in the widget's source.
import type { Token } from 'parse5';
import type { ParsedWidgetHtml } from './parse.js';
import { walk, type Element } from './tree.js';

export interface Position {
  line: number;
  column: number;
}

/** Where the element's `<` is; elements the parser made up borrow the position of their first located descendant. */
export function elementPosition(el: Element): Position {
  const loc = el.sourceCodeLocation;
  if (loc) return { line: loc.startLine, column: loc.startCol };
  let found: Position | undefined;
  walk(el, (node) => {
    if (found) return false;
    const l = node.sourceCodeLocation;
    if (l) found = { line: l.startLine, column: l.startCol };
    return !found;
  });
  return found ?? { line: 1, column: 1 };
}

export interface AttributeSpot extends Position {
  /** The name exactly as written in the source. */
  written: string;
}

/** Where the attribute's name starts, and how it was spelled. */
export function attributePosition(parsed: ParsedWidgetHtml, el: Element, lcName: string): AttributeSpot | undefined {
  const loc: Token.Location | undefined = el.sourceCodeLocation?.attrs?.[lcName];
  if (loc) return { line: loc.startLine, column: loc.startCol, written: writtenName(parsed.source, loc.startOffset) };
  return undefined;
}

function writtenName(source: string, start: number): string {
  let end = start + 1;
  while (end < source.length && !/[\t\n\f\r />=]/.test(source[end]!)) end++;
  return source.slice(start, end);
}
