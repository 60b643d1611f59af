// The rule catalogue: every finding the linter can report, its severity, and how a removal becomes one.
import { compactUrl, type AttributeRemoval, type ElementRemoval, type Removal } from './sanitizer-model.js';
import { attributePosition, elementPosition } from './locate.js';
import type { ParsedWidgetHtml } from './parse.js';

/** One problem in a widget's HTML: 1-based position of the element's `<` or the attribute's first character. */
export interface Finding {
  rule: string;
  severity: 'error' | 'warning';
  message: string;
  line: number;
  column: number;
  element: string;
  attribute?: string;
}

/**
 * Every rule id, with its severity and a one-line summary (docs/linter.md has examples).
 *
 * @example
 * RULES['javascript-url'].severity; // 'error'
 */
export const RULES = {
  script: { severity: 'error', summary: 'a <script> element; the console runs no JavaScript' },
  'event-handler': { severity: 'error', summary: 'an on* event-handler attribute' },
  'javascript-url': { severity: 'error', summary: 'a javascript:/vbscript: URL in an attribute' },
  iframe: { severity: 'error', summary: 'an <iframe> element' },
  object: { severity: 'error', summary: 'an <object> element' },
  embed: { severity: 'error', summary: 'an <embed> element' },
  'svg-use': { severity: 'error', summary: 'an SVG <use> element' },
  'disallowed-element': { severity: 'warning', summary: 'an element outside the console allowlist' },
  'namespace-mismatch': { severity: 'warning', summary: 'an element in a place no HTML parser would put it' },
  'markup-in-text': { severity: 'warning', summary: 'text that looks like markup inside raw text or beside a comment' },
  'dom-clobbering': { severity: 'warning', summary: 'an id/name that shadows a document or form property' },
  'disallowed-attribute': { severity: 'warning', summary: 'an attribute outside the console allowlist' },
  'unsafe-url': { severity: 'warning', summary: 'a URL with a scheme the console does not allow' },
  'markup-in-attribute': { severity: 'warning', summary: 'an attribute value that could close a comment or raw-text element' },
  'animated-href': { severity: 'warning', summary: 'an SVG attributeName that animates an href' },
  'animated-script-url': { severity: 'error', summary: 'an SVG animation whose values hold a javascript:/vbscript: URL' },
  'action-unbound': { severity: 'error', summary: '<cwdb-action> with no previous element to bind to' },
  'action-missing-endpoint': { severity: 'error', summary: 'action="call" without an endpoint' },
  'action-invalid-params': { severity: 'error', summary: 'action="call" content that is neither empty nor JSON' },
  'action-mouseenter-call': { severity: 'error', summary: 'event="mouseenter" with action="call"' },
  'action-invalid-value': { severity: 'error', summary: 'a <cwdb-action> attribute value outside the allowed ones' },
} as const satisfies Record<string, { severity: Finding['severity']; summary: string }>;

export type RuleId = keyof typeof RULES;

export function makeFinding(
  rule: RuleId,
  message: string,
  at: { line: number; column: number },
  element: string,
  attribute?: string,
): Finding {
  const f: Finding = { rule, severity: RULES[rule].severity, message, line: at.line, column: at.column, element };
  if (attribute !== undefined) f.attribute = attribute;
  return f;
}

const NAMED_ELEMENT_RULES: Record<string, RuleId> = {
  script: 'script',
  iframe: 'iframe',
  object: 'object',
  embed: 'embed',
  use: 'svg-use',
};

function elementFinding(r: ElementRemoval): Finding {
  const at = elementPosition(r.element);
  const name = r.element.tagName;
  const fate = r.contentKept ? 'the tag is removed, its content stays' : 'it is removed with its content';
  const named = NAMED_ELEMENT_RULES[r.tag];
  if (named) {
    const why = r.tag === 'script' ? 'the console runs no JavaScript in widgets' : 'the console does not allow embedded content';
    return makeFinding(named, `<${name}> is stripped by the console (${why}); ${fate}`, at, name);
  }
  switch (r.reason) {
    case 'clobbered-form':
      return makeFinding(
        'dom-clobbering',
        `<form> contains a control whose id or name shadows a form property; the whole form is removed. Rename the control`,
        at,
        name,
      );
    case 'markup-in-text':
      return makeFinding(
        'markup-in-text',
        `<${name}> holds text that looks like markup (a "<" followed by a letter, "/" or "!"); it is removed with its content. Escape the "<" as &lt; or drop the comment`,
        at,
        name,
      );
    case 'namespace':
      return makeFinding(
        'namespace-mismatch',
        `<${name}> cannot appear here (HTML, SVG and MathML elements only nest where a parser would put them); it is removed with its content`,
        at,
        name,
      );
    default:
      return makeFinding('disallowed-element', `<${name}> is not on the console's allowlist; ${fate}`, at, name);
  }
}

const SCRIPT_URL = /^[\w]*script:/i;

function attributeFinding(parsed: ParsedWidgetHtml, r: AttributeRemoval): Finding | undefined {
  const spot = attributePosition(parsed, r.element, r.name);
  const written = spot?.written ?? r.name;
  if (!isHonouredName(written)) return undefined;
  const at = spot ?? elementPosition(r.element);
  const el = r.element.tagName;
  const mk = (rule: RuleId, message: string) => makeFinding(rule, message, at, el, written);
  if (/^on[a-z]/i.test(r.name) && r.reason === 'not-allowed') {
    return mk('event-handler', `${written} on <${el}> is an event handler; the console strips all JavaScript. Use a <cwdb-action> instead`);
  }
  if ((r.reason === 'url' || r.reason === 'not-allowed') && SCRIPT_URL.test(compactUrl(r.value))) {
    return mk(
      'javascript-url',
      `${written} on <${el}> holds a script URL; the console strips the attribute. Use an http(s) link or a <cwdb-action>`,
    );
  }
  switch (r.reason) {
    case 'url':
      return mk(
        'unsafe-url',
        `${written} on <${el}> uses a URL scheme the console does not allow (allowed: http, https, ftp, mailto, tel, relative URLs; data: only on media src); the attribute is removed`,
      );
    case 'clobbering':
      return mk(
        'dom-clobbering',
        `${written}="${r.value}" on <${el}> would shadow a document or form property; the attribute is removed. Choose another ${written}`,
      );
    case 'markup-in-value':
      return mk('markup-in-attribute', `${written} on <${el}> contains "-->", "]>" or a closing raw-text tag; the attribute is removed`);
    case 'animated-href':
      return mk('animated-href', `${written} on <${el}> names an href to animate; the attribute is removed`);
    case 'patch-linkage':
      return mk('disallowed-attribute', `${written} is only allowed on <label> and <output>; the attribute is removed from <${el}>`);
    default:
      if (r.name === 'is')
        return mk('disallowed-attribute', `is on <${el}> (customized built-in element) is not allowed; its value is emptied`);
      return mk(
        'disallowed-attribute',
        `${written} on <${el}> is not on the console's allowlist; the attribute is removed (data-* and aria-* attributes are kept)`,
      );
  }
}

/**
 * Whether a browser would have honoured an attribute of this name: not a stray quote, slash or semicolon
 * left by a typo. Attributes with other names are removed silently and not reported.
 */
export function isHonouredName(name: string): boolean {
  return /^[A-Za-z_][\w.:\-\u00B7-\uFFFF]*$/.test(name);
}

/** SVG animation elements, and the attributes whose values they write into the animated attribute. */
const ANIMATIONS = new Set(['animate', 'set', 'animatemotion', 'animatetransform', 'animatecolor']);
const ANIMATION_VALUES = ['values', 'to', 'from', 'by'];

/**
 * An SVG animation removed with a script URL among its values (`<set attributeName="href" to="javascript:…">`)
 * was an attempt to run JavaScript: an error at each such attribute, beside the finding for the element,
 * which the console removes whole (so this is not a removal of its own).
 */
function animationScriptFindings(parsed: ParsedWidgetHtml, r: Removal): Finding[] {
  if (r.kind !== 'element' || !ANIMATIONS.has(r.tag.toLowerCase())) return [];
  const el = r.element.tagName;
  const out: Finding[] = [];
  for (const attr of r.element.attrs) {
    if (!ANIMATION_VALUES.includes(attr.name) || !attr.value.split(';').some((v) => SCRIPT_URL.test(compactUrl(v)))) continue;
    const spot = attributePosition(parsed, r.element, attr.name);
    const written = spot?.written ?? attr.name;
    out.push(
      makeFinding(
        'animated-script-url',
        `${written} on <${el}> animates an attribute to a script URL; the console strips the element. Use an http(s) link or a <cwdb-action>`,
        spot ?? elementPosition(r.element),
        el,
        written,
      ),
    );
  }
  return out;
}

export function removalFinding(parsed: ParsedWidgetHtml, r: Removal): Finding[] {
  const own = r.kind === 'element' ? elementFinding(r) : attributeFinding(parsed, r);
  const scripts = animationScriptFindings(parsed, r);
  return own ? [own, ...scripts] : scripts;
}
