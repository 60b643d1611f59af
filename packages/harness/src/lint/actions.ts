// <cwdb-action> extraction: what each action does, what it binds to, and why it might never work.
import { asParsed, type ParsedWidgetHtml } from './parse.js';
import {
  HTML_NS,
  getAttr,
  isElement,
  isText,
  normalizeWhitespace,
  textContent,
  walk,
  type ChildNode,
  type Element,
  type ParentNode,
} from './tree.js';
import { attributePosition, elementPosition } from './locate.js';
import { makeFinding, type Finding } from './rules.js';

/** One `<cwdb-action>` as the console reads it, with its defaults applied (docs/linter.md). */
export interface WidgetAction {
  /** Position among the widget's actions in document order, 0-based. */
  index: number;
  /** The bound element's text: whitespace collapsed and trimmed (see `elementText`). */
  text: string;
  action: 'call' | 'html';
  display: 'popup' | 'widget';
  event: 'click' | 'dblclick' | 'mouseenter';
  confirmation: string | null;
  /** For `call`: the Lambda function to invoke. */
  endpoint?: string;
  /** For `call`: the parsed JSON content (`{}` when empty); undefined when the content is not JSON. */
  params?: unknown;
  /** For `html`: the inner HTML content exactly as written. */
  html?: string;
  /** False when there is no previous element sibling: such an action never works. */
  bound: boolean;
  /** The element it binds to: tag name and the position of its `<` (absent when unbound). */
  target?: { element: string; line: number; column: number };
  /** Human-readable reasons this action is malformed (the same facts as the `action-*` findings). */
  problems: string[];
  line: number;
  column: number;
}

const ACTIONS = ['call', 'html'] as const;
const DISPLAYS = ['popup', 'widget'] as const;
const EVENTS = ['click', 'dblclick', 'mouseenter'] as const;

interface Extracted {
  action: WidgetAction;
  findings: Finding[];
}

/**
 * Every `<cwdb-action>` of the widget in document order. Actions inside another action's content belong to
 * that content (it is rendered when the outer action runs) and are not listed; neither is template content.
 *
 * @example
 * const [a] = extractActions('<button>Go</button><cwdb-action action="call" endpoint="fn">{"n":1}</cwdb-action>');
 * // a.text === 'Go', a.params → { n: 1 }
 */
export function extractActions(input: string | ParsedWidgetHtml): WidgetAction[] {
  return extractWithFindings(asParsed(input)).map((e) => e.action);
}

/** The malformed-action findings, for `lint`. */
export function actionFindings(parsed: ParsedWidgetHtml): Finding[] {
  return extractWithFindings(parsed).flatMap((e) => e.findings);
}

function extractWithFindings(parsed: ParsedWidgetHtml): Extracted[] {
  const out: Extracted[] = [];
  const indexes = new Map<ParentNode, Map<ChildNode, number>>();
  const texts = new Map<Element, string>();
  walk(parsed.root, (node) => {
    if (!isElement(node)) return;
    if (node.tagName !== 'cwdb-action' || node.namespaceURI !== HTML_NS) return;
    out.push(readAction(parsed, node, out.length, previousElement(node, indexes), texts));
    return false;
  });
  return out;
}

function previousElement(node: ChildNode, indexes: Map<ParentNode, Map<ChildNode, number>>): Element | undefined {
  const parent = node.parentNode;
  if (!parent) return undefined;
  let index = indexes.get(parent);
  if (!index) {
    index = new Map(parent.childNodes.map((k, i) => [k, i]));
    indexes.set(parent, index);
  }
  const kids = parent.childNodes;
  for (let i = index.get(node)! - 1; i >= 0; i--) {
    const k = kids[i]!;
    if (isElement(k)) return k;
  }
  return undefined;
}

function readAction(
  parsed: ParsedWidgetHtml,
  el: Element,
  index: number,
  target: Element | undefined,
  texts: Map<Element, string>,
): Extracted {
  const at = elementPosition(el);
  const findings: Finding[] = [];
  const problems: string[] = [];
  const report = (f: Finding) => {
    findings.push(f);
    problems.push(f.message);
  };
  const pick = <V extends string>(name: string, allowed: readonly V[], fallback: V): V => {
    const raw = getAttr(el, name);
    if (raw === undefined) return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as V;
    const spot = attributePosition(parsed, el, name) ?? at;
    report(
      makeFinding(
        'action-invalid-value',
        `${name}="${raw}" on <cwdb-action> is not one of ${allowed.map((v) => `"${v}"`).join(', ')}; the console treats it as "${fallback}"`,
        spot,
        'cwdb-action',
        name,
      ),
    );
    return fallback;
  };
  const action = pick('action', ACTIONS, 'html');
  const display = pick('display', DISPLAYS, 'widget');
  const event = pick('event', EVENTS, 'click');
  const confirmation = getAttr(el, 'confirmation') ?? null;
  const result: WidgetAction = {
    index,
    text: '',
    action,
    display,
    event,
    confirmation,
    bound: target !== undefined,
    problems,
    line: at.line,
    column: at.column,
  };
  if (!target) {
    report(
      makeFinding(
        'action-unbound',
        '<cwdb-action> has no previous element sibling to bind to, so nothing triggers it; put it right after the element to click',
        at,
        'cwdb-action',
      ),
    );
  } else {
    result.text = boundElementText(target, texts);
    result.target = { element: target.tagName, ...elementPosition(target) };
  }
  if (action === 'call') {
    const endpoint = getAttr(el, 'endpoint');
    if (endpoint) result.endpoint = endpoint;
    else
      report(
        makeFinding(
          'action-missing-endpoint',
          '<cwdb-action action="call"> needs an endpoint attribute naming the Lambda function to call',
          at,
          'cwdb-action',
        ),
      );
    const content = textContent(el);
    if (content.trim() === '') {
      result.params = {};
    } else {
      try {
        result.params = JSON.parse(content) as unknown;
      } catch (e) {
        const why = e instanceof Error ? e.message : String(e);
        report(
          makeFinding(
            'action-invalid-params',
            `<cwdb-action action="call"> content must be empty or JSON params (${why})`,
            at,
            'cwdb-action',
          ),
        );
      }
    }
    if (event === 'mouseenter') {
      report(
        makeFinding(
          'action-mouseenter-call',
          '<cwdb-action> with event="mouseenter" only works with action="html"; use event="click" or "dblclick" for a call',
          at,
          'cwdb-action',
        ),
      );
    }
  } else {
    result.html = innerSource(parsed.source, el);
  }
  return { action: result, findings };
}

const SILENT = new Set(['script', 'style', 'cwdb-action']);
/** Raw text read per bound element; enough for any label, and it keeps pathological nesting linear. */
const TEXT_LIMIT = 10_000;

/**
 * The text a person sees on an element: its text content with whitespace collapsed and trimmed, ignoring
 * script, style and cwdb-action content; `input` buttons use their value; then `aria-label`, then `title`.
 * Only the first 10,000 characters of text content are read.
 *
 * @example
 * elementText(button); // 'Restart web-1'
 */
export function elementText(el: Element): string {
  return boundElementText(el, undefined);
}

function boundElementText(el: Element, memo: Map<Element, string> | undefined): string {
  if (el.tagName === 'input' && el.namespaceURI === HTML_NS) {
    const type = (getAttr(el, 'type') ?? '').trim().toLowerCase();
    if (type === 'button' || type === 'submit') {
      const value = normalizeWhitespace(getAttr(el, 'value') ?? '');
      if (value) return value;
    }
  }
  const text = SILENT.has(el.tagName) ? '' : normalizeWhitespace(rawText(el, memo));
  if (text) return text;
  return normalizeWhitespace(getAttr(el, 'aria-label') ?? '') || normalizeWhitespace(getAttr(el, 'title') ?? '');
}

/**
 * Text content up to TEXT_LIMIT characters. Elements whose text is already in `memo` (bound elements met
 * earlier, which are always inner ones) are not walked again, so every node is read once per widget.
 */
function rawText(el: Element, memo?: Map<Element, string>): string {
  const cached = memo?.get(el);
  if (cached !== undefined) return cached;
  let text = '';
  walk(el, (node) => {
    if (text.length >= TEXT_LIMIT) return false;
    if (isText(node)) text += node.value;
    else if (isElement(node)) {
      if (SILENT.has(node.tagName)) return false;
      const known = memo?.get(node);
      if (known !== undefined) {
        text += known;
        return false;
      }
    }
    return true;
  });
  if (text.length > TEXT_LIMIT) text = text.slice(0, TEXT_LIMIT);
  memo?.set(el, text);
  return text;
}

function innerSource(source: string, el: Element): string {
  const loc = el.sourceCodeLocation;
  if (!loc?.startTag) return '';
  const end = loc.endTag?.startOffset ?? loc.endOffset;
  return source.slice(loc.startTag.endOffset, Math.max(loc.startTag.endOffset, end));
}
