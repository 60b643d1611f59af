// Holds the linter to the console model (docs/linter.md): DOMPurify with the console's configuration, on jsdom.
// Every element or attribute DOMPurify removes must have a finding at that element or attribute, and every
// finding (the cwdb-action rules aside) must match a removal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { lint, parseWidgetHtml } from '../../packages/harness/src/lint/index.js';
import { CONSOLE_PURIFY_CONFIG, consolePurifier } from '../fixtures/lint/console-purifier.js';
import { HAND_CASES } from '../fixtures/lint/differential-cases.js';
import { attributeArbitrary, documentArbitrary, soupArbitrary } from '../../packages/harness/src/lint/html-arbitraries.test-suite.js';

const { window, purify } = consolePurifier();
const CONFIG = CONSOLE_PURIFY_CONFIG;
const ID = 'data-differential-id';

interface ElementLike {
  tagName?: string;
  childNodes?: ElementLike[];
  content?: { childNodes: ElementLike[] };
}

/** Elements in document order, template content right after its template; the same order on both trees. */
function elementsOf(root: ElementLike, list: ElementLike[] = []): ElementLike[] {
  const stack: ElementLike[] = [root];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.tagName === undefined) continue;
    list.push(n);
    const kids = [...(n.childNodes ?? []), ...(n.content?.childNodes ?? [])];
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  return list;
}

function domChildren(n: Node): Node[] {
  const kids = [...n.childNodes];
  const content = (n as HTMLTemplateElement).content;
  if (content && n.nodeName === 'TEMPLATE') kids.push(...content.childNodes);
  return kids;
}

/** DOMPurify's removals as (element number, lowercased attribute name or ''). */
function purifyRemovals(html: string): string[] {
  const doc = new window.DOMParser().parseFromString('<remove></remove>' + html, 'text/html');
  const body = doc.body;
  let next = 0;
  const stack: Node[] = [body];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.nodeType !== 1) continue;
    if (n !== body && !(n === body.firstChild && n.nodeName === 'REMOVE')) (n as Element).setAttribute(ID, String(next++));
    const kids = domChildren(n);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]!);
  }
  try {
    purify.sanitize(body, CONFIG);
  } catch {
    // DOMPurify cannot detach a node-input root it decides to remove (a body holding only markup-like text
    // and comments). Such a body has no child elements, so the string input's removals say all there is.
    purify.sanitize(html, CONFIG);
    const keys: string[] = [];
    for (const r of purify.removed as Array<{ element?: Node; attribute?: Attr | null; from?: Element }>) {
      if (!r.attribute) assert.ok(r.element && ['BODY', 'REMOVE', '#comment'].includes(r.element.nodeName), 'only the body and comments');
    }
    return keys.sort();
  }
  const keys: string[] = [];
  for (const r of purify.removed as Array<{ element?: Node; attribute?: Attr | null; from?: Element }>) {
    if (r.element) {
      if (r.element.nodeType !== 1) continue; // comments are not something a person sees
      const id = (r.element as Element).getAttribute(ID);
      if (id !== null) keys.push(`${id}|`);
    } else if (r.attribute && r.from && r.from.nodeName !== 'BODY') {
      // (The body's own attributes, which a stray <body> tag sets, never reach the sanitized output.)
      if (!/^[A-Za-z_][\w.:\-\u00B7-\uFFFF]*$/.test(r.attribute.name)) continue; // typos a browser ignores
      keys.push(`${r.from.getAttribute(ID)}|${r.attribute.name.toLowerCase()}`);
    }
  }
  return keys.sort();
}

type Parsed = ReturnType<typeof parseWidgetHtml>;
type P5Element = Extract<Parsed['root']['childNodes'][number], { tagName: string }>;

/** Where an element starts; an element the parser made up has none, so it borrows its first located descendant's. */
function startOf(el: P5Element): string {
  const stack: ElementLike[] = [el as unknown as ElementLike];
  while (stack.length) {
    const n = stack.shift()! as unknown as P5Element;
    if (n.sourceCodeLocation) return `${n.sourceCodeLocation.startLine}:${n.sourceCodeLocation.startCol}`;
    stack.unshift(...((n as unknown as ElementLike).childNodes ?? []));
  }
  return '1:1';
}

/** DOMPurify's removals as positions in the source (clones the parser made share their original's position). */
function expectedKeys(parsed: Parsed, removals: string[]): string[] {
  const elements = parsed.root.childNodes.flatMap((n) => elementsOf(n as unknown as ElementLike)) as unknown as P5Element[];
  return removals
    .map((key) => {
      const [id, attr] = key.split('|') as [string, string];
      const el = elements[Number(id)]!;
      if (!attr) return `${startOf(el)}|${el.tagName}|`;
      const loc = el.sourceCodeLocation?.attrs?.[attr];
      return `${loc ? `${loc.startLine}:${loc.startCol}` : startOf(el)}|${el.tagName}|${attr}`;
    })
    .sort();
}

/** The linter's findings as the same keys. */
function findingKeys(parsed: Parsed): string[] {
  return (
    lint(parsed)
      // Broken actions and script URLs inside an animation the console removes whole are not removals of their own.
      .filter((f) => !f.rule.startsWith('action-') && f.rule !== 'animated-script-url')
      .map((f) => `${f.line}:${f.column}|${f.element}|${f.attribute?.toLowerCase() ?? ''}`)
      .sort()
  );
}

function check(html: string): void {
  const parsed = parseWidgetHtml(html);
  assert.deepEqual(
    findingKeys(parsed),
    expectedKeys(parsed, purifyRemovals(html)),
    `findings and DOMPurify removals differ for ${JSON.stringify(html)}`,
  );
}

test('the hand-written edge cases agree with DOMPurify', () => {
  assert.ok(HAND_CASES.length >= 100, 'at least 100 hand-written cases');
  for (const html of HAND_CASES) check(html);
});

test('generated widget documents agree with DOMPurify', () => {
  fc.assert(
    fc.property(documentArbitrary, (html) => check(html)),
    { numRuns: Number(process.env.LINT_DIFFERENTIAL_RUNS ?? 250) },
  );
});

test('generated tag soup agrees with DOMPurify', () => {
  fc.assert(
    fc.property(soupArbitrary, (html) => check(html)),
    { numRuns: Number(process.env.LINT_DIFFERENTIAL_RUNS ?? 150) },
  );
});

test('generated attribute names and values agree with DOMPurify', () => {
  fc.assert(
    fc.property(attributeArbitrary, (html) => check(html)),
    { numRuns: Number(process.env.LINT_DIFFERENTIAL_RUNS ?? 150) },
  );
});
