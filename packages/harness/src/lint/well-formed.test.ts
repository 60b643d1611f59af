import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { DefaultTreeAdapterTypes as T } from 'parse5';
import { parseWellFormed } from './well-formed.js';
import { parseBodyFragment } from './body-fragment.js';
import { documentArbitrary, soupArbitrary, attributeArbitrary } from './html-arbitraries.test-suite.js';

function reference(source: string): T.DocumentFragment {
  return parseBodyFragment(source);
}

/** The tree without parent links (checked separately), so deepStrictEqual compares everything else. */
function plain(node: T.Node, parent?: T.ParentNode): unknown {
  if (parent !== undefined) assert.equal((node as T.ChildNode).parentNode, parent, 'parentNode points at the parent');
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'parentNode') continue;
    if (key === 'childNodes') out[key] = (value as T.ChildNode[]).map((k) => plain(k, node as T.ParentNode));
    else if (key === 'content') out[key] = plain(value as T.DocumentFragment);
    else out[key] = value;
  }
  return out;
}

/** True when the fast path took `source`; then its tree must be parse5's, locations and all. */
function sameTreeWhenTaken(source: string): boolean {
  const fast = parseWellFormed(source);
  if (fast === undefined) return false;
  assert.deepStrictEqual(plain(fast), plain(reference(source)), `tree of ${JSON.stringify(source)}`);
  return true;
}

// ---- well-formed widget-like documents, so that most generated cases take the fast path ----

const WORDS = [
  'Restart',
  'CPU',
  ' ',
  '\n',
  '  ',
  '42 %',
  'a < b',
  'x &amp; y',
  '&lt;b&gt;',
  '&copy 2026',
  '&notanentity;',
  '&#128512;',
  '&#x1F680;',
  '\u{1F600} ok',
  'caf\u00e9',
  '&nbsp;',
  '{"id":"i-1","force":false}',
  'R&D',
  '&#0;',
  '&#x80;',
];
const ATTR_VALUES = [
  '',
  'x',
  'https://console.aws.amazon.com/ec2/home?region=us-east-1&tab=1',
  'a&amp;b',
  '&copy=1',
  'javascript:go()',
  'Restart i-1?',
  'call',
  'popup',
  'color: red',
  '#a',
  '\u{1F600}',
  'line\nbreak',
  "it's",
];
const ATTR_NAMES = [
  'class',
  'id',
  'href',
  'title',
  'style',
  'onclick',
  'data-row',
  'Name',
  'endpoint',
  'action',
  'display',
  'event',
  'confirmation',
  'value',
  'type',
  'checked',
  'disabled',
];

const attribute = fc
  .tuple(
    fc.constantFrom(...ATTR_NAMES),
    fc.constantFrom(...ATTR_VALUES),
    fc.constantFrom('"', "'", '', 'none'),
    fc.constantFrom(' ', '\n  ', '\t'),
  )
  .map(([name, value, quote, space]) => {
    if (quote === 'none') return `${space}${name}`;
    if (quote === '') return /^[^\s"'=<>`&]+$/.test(value) ? `${space}${name}=${value}` : `${space}${name}="${value}"`;
    return `${space}${name}=${quote}${value.split(quote).join('')}${quote}`;
  });
const attributes = fc
  .uniqueArray(attribute, { maxLength: 3, selector: (a) => a.trim().split('=')[0]!.toLowerCase() })
  .map((a) => a.join(''));
const text = fc.constantFrom(...WORDS);

const SVG_CHILDREN = ['g', 'path', 'circle', 'rect', 'text', 'lineargradient', 'clipPath', 'polyline', 'a', 'style'];
const SVG_ATTRS = [
  ' viewbox="0 0 10 10"',
  ' xlink:href="#a"',
  ' stroke-width="2"',
  ' preserveAspectRatio="none"',
  ' xmlns="http://www.w3.org/2000/svg"',
  '',
];

function wrap(tag: string, attrs: string, inner: string, closeCase = tag): string {
  return `<${tag}${attrs}>${inner}</${closeCase}>`;
}

const { flow } = fc.letrec<{ flow: string; phrasing: string; svg: string; table: string; list: string; select: string }>((tie) => ({
  phrasing: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'wf' },
    text,
    text,
    fc
      .tuple(
        fc.constantFrom('span', 'b', 'i', 'em', 'strong', 'code', 'label', 'SPAN'),
        attributes,
        fc.array(tie('phrasing'), { maxLength: 3 }),
      )
      .map(([t, a, k]) => wrap(t, a, k.join(''), t.toLowerCase())),
    fc.constantFrom('<br>', '<br/>', '<img src="x.png" alt="">', '<input name="q" value="1">', '<wbr>'),
    fc.tuple(attributes, text).map(([a, t]) => `<button${a}>${t}</button>`),
    fc.tuple(attributes, text).map(([a, t]) => `<a${a}>${t}</a>`),
  ),
  flow: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'wf' },
    tie('phrasing'),
    fc
      .tuple(
        fc.constantFrom('div', 'section', 'x-gauge', 'cwdb-action', 'noscript', 'Div'),
        attributes,
        fc.array(tie('flow'), { maxLength: 3 }),
      )
      .map(([t, a, k]) => wrap(t, a, k.join(''), t.toLowerCase())),
    fc
      .tuple(fc.constantFrom('p', 'h3', 'h4'), attributes, fc.array(tie('phrasing'), { maxLength: 3 }))
      .map(([t, a, k]) => wrap(t, a, k.join(''))),
    fc.tuple(attributes, fc.array(tie('phrasing'), { maxLength: 3 })).map(([a, k]) => `<p${a}>${k.join('')}`),
    fc.tuple(fc.constantFrom('', '\n', '\n\n  ', '\n&amp;'), text).map(([lead, t]) => `<pre>${lead}${t}</pre>`),
    fc.tuple(fc.constantFrom('', '\n', '\n  '), text).map(([lead, t]) => `<textarea name="n">${lead}${t}</textarea>`),
    fc.constantFrom(
      '<script>fetch("/x") < 1</script>',
      '<style>p > b { color: red }</style>',
      '<title>T &amp; U</title>',
      '<iframe src="https://x"></iframe>',
      '<SCRIPT>1</script >',
    ),
    tie('table'),
    tie('list'),
    tie('svg'),
    tie('select'),
    fc.tuple(attributes, fc.array(tie('flow'), { maxLength: 3 })).map(([a, k]) => `<form${a}>${k.join('')}</form>`),
    fc.constantFrom('<hr>', '<div>unclosed', '<span>', '<cwdb-action action="call" endpoint="fn">{"n":1}'),
    fc.constantFrom('<!-- row -->', '<!---->', '<!-- a --->', '<!--<b>x</b>-->', '<!-- a -- b -->'),
  ),
  table: fc
    .tuple(
      fc.constantFrom('', 'tbody', 'thead', 'tfoot'),
      fc.array(fc.array(fc.tuple(fc.constantFrom('td', 'th'), tie('flow'), fc.boolean()), { minLength: 1, maxLength: 3 }), {
        minLength: 1,
        maxLength: 3,
      }),
      fc.constantFrom('', '\n', ' '),
      fc.boolean(),
      fc.boolean(),
    )
    .map(([section, rows, ws, closeSection, closeRows]) => {
      // End tags HTML lets authors leave out: cells, rows and sections.
      const body = rows
        .map(
          (cells) => `<tr>${cells.map(([c, k, close]) => `<${c}>${k}${close ? `</${c}>` : ''}`).join('')}${closeRows ? '</tr>' : ''}${ws}`,
        )
        .join('');
      const inner = section === '' ? body : `<${section}>${ws}${body}${closeSection ? `</${section}>` : ''}`;
      return `<table>${ws}${inner}</table>`;
    }),
  list: fc.tuple(fc.constantFrom('ul', 'ol', 'dl'), fc.array(fc.tuple(tie('flow'), fc.boolean()), { minLength: 1, maxLength: 3 })).map(
    ([l, items]) =>
      `<${l}>${items
        .map(([k, close], i) => {
          const item = l === 'dl' ? (i % 2 ? 'dd' : 'dt') : 'li';
          return `<${item}>${k}${close ? `</${item}>` : ''}`;
        })
        .join('')}</${l}>`,
  ),
  svg: fc
    .tuple(
      fc.constantFrom(...SVG_ATTRS),
      fc.array(fc.tuple(fc.constantFrom(...SVG_CHILDREN), fc.constantFrom(...SVG_ATTRS), fc.boolean(), text), { maxLength: 4 }),
      fc.boolean(),
    )
    .map(([a, kids, title]) =>
      wrap(
        'svg',
        a,
        `${title ? '<title>CPU &amp; memory</title>' : ''}${kids.map(([t, ka, self, x]) => (self ? `<${t}${ka}/>` : `<${t}${ka}>${x}</${t}>`)).join('')}`,
      ),
    ),
  select: fc
    .tuple(attributes, fc.array(fc.tuple(fc.boolean(), text), { minLength: 1, maxLength: 3 }))
    .map(
      ([a, opts]) =>
        `<select${a}>${opts.map(([group, t]) => (group ? `<optgroup label="g"><option>${t}</optgroup>` : `<option value="v">${t}</option>`)).join('')}</select>`,
    ),
}));

const wellFormed = fc.array(flow, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(''));

/** One small edit: what hand-written or generated HTML gets wrong. */
const mutated = fc
  .tuple(
    wellFormed,
    fc.nat(),
    fc.constantFrom(
      '',
      '<',
      '</p>',
      '</div>',
      '<p>',
      '<li>',
      '<td>',
      '&',
      '"',
      '\r',
      '<!-- c -->',
      '</table>',
      'x',
      '<b>',
      '=',
      '/',
      '<tr>',
      '</svg>',
      '<math>',
    ),
  )
  .map(([doc, at, edit]) => {
    const i = doc.length === 0 ? 0 : at % doc.length;
    return doc.slice(0, i) + edit + doc.slice(i + (edit === '' ? 1 : 0));
  });

test('on generated well-formed widget HTML the fast path is taken and builds exactly the tree parse5 builds', () => {
  let taken = 0;
  let runs = 0;
  fc.assert(
    fc.property(wellFormed, (source) => {
      runs++;
      if (sameTreeWhenTaken(source)) taken++;
    }),
    { numRuns: 1500 },
  );
  assert.ok(taken / runs > 0.6, `the fast path took ${taken} of ${runs} well-formed documents`);
});

test('after a random edit, whatever the fast path still takes matches parse5', () => {
  fc.assert(
    fc.property(mutated, (source) => void sameTreeWhenTaken(source)),
    { numRuns: 1500 },
  );
});

test('tag soup and arbitrary attributes: the fast path either matches parse5 or declines', () => {
  fc.assert(
    fc.property(documentArbitrary, (s) => void sameTreeWhenTaken(s)),
    { numRuns: 500 },
  );
  fc.assert(
    fc.property(soupArbitrary, (s) => void sameTreeWhenTaken(s)),
    { numRuns: 500 },
  );
  fc.assert(
    fc.property(attributeArbitrary, (s) => void sameTreeWhenTaken(s)),
    { numRuns: 500 },
  );
});

test('the constructs widgets are built from take the fast path and match parse5', () => {
  const cases = [
    '<table><tr><td>1</td></tr></table>',
    '<table>\n<tbody>\n<tr><td>1</td></tr>\n</table>',
    '<table><thead><tr><th>Name</th></tr></thead><tbody><tr><td><a href="https://x/?a=1&b=2" target="_blank">open</a> <button>Restart</button><cwdb-action action="call" endpoint="arn:aws:lambda:us-east-1:1:function:f" confirmation="Sure?">{"id":"i-1"}</cwdb-action></td></tr></tbody></table>',
    '<pre>\nx</pre><pre>\n  x</pre><textarea>\nnote</textarea>',
    '<svg viewBox="0 0 10 10" xmlns="http://www.w3.org/2000/svg"><title>CPU</title><lineargradient id="g"/><path d="M0 0"/><use xlink:href="#g"/></svg>',
    '<form><select name="r"><option value="a" selected>A</option><optgroup label="g"><option>B</option></optgroup></select><input type="checkbox" checked> <textarea name="n" rows="3">x &amp; y</textarea></form>',
    '<p>Caf\u00e9 \u{1F600} &copy 2026 &#x1F680; a < b</p>\n<div>unclosed',
    '<script>if (a < b) go()</script><style>p > b {}</style><x-gauge value="3">3</x-gauge>',
    '<!-- generated --><table><!-- rows --><tr><td>1</td></tr></table><svg><!-- c --></svg>',
    '<ul><li>a<li>b <b>c</b>\n</ul><dl><dt>k<dd>v<dt>k2<dd><p>v2</dl><p>one<p>two<div>three</div>',
    '<table><tr><td>1<td>2<tr><th>3<td><p>4</table><table><thead><tr><td>h<tbody><tr><td>b</tbody></table>',
    '<select><option>a<option>b<optgroup label=g><option>c<optgroup label=h><option>d</select><h1>x<h2>y</h2>',
    '<div><p>para</div><form><p>in form</form><ul><li><p>x<li>y</ul>',
    '<xmp><b>x</b></xmp><noembed><i>y</i></noembed><iframe><p>z</p></iframe>',
    // A table nests in a paragraph (widget HTML is parsed in quirks mode, as the console parses it).
    '<p>Status <table><tr><td>ok</td></tr></table> done</p><p><b><table></table></b>',
  ];
  for (const source of cases) assert.ok(sameTreeWhenTaken(source), `fast path for ${JSON.stringify(source)}`);
});

test('input that needs the HTML repair rules is left to parse5', () => {
  const declined = [
    '<!DOCTYPE html><p>x</p>',
    '<!--> x -->',
    '<!-- a --!> b -->',
    '<!-- open',
    '<?php x ?>',
    '<p>a<div>b</div></p>',
    '<b><i>x</b></i>',
    '<ul><li>a<span>b<li>c</ul>',
    '<span><p>x</span>',
    '<table>text</table>',
    '<table><td>x</td></table>',
    '<select><div>x</div></select>',
    '<a href=x><a href=y>z</a></a>',
    'a\r\nb',
    '<p>a</p></div>',
    '<math><mi>x</mi></math>',
    '<svg><p>x</p></svg>',
    '<template><b>x</b></template>',
    '<img src="x" src="y">',
    '<script><!--<script></script>--></script>',
    '<div a="1"b="2">',
    '<svg><foreignObject><p>x</p></foreignObject></svg>',
    '<h1><h2>x</h2></h1>',
    '<form><form></form></form>',
    '<p><table>x</table></p>',
    '<div></div foo>',
    '<a href="x',
  ];
  for (const source of declined) assert.equal(parseWellFormed(source), undefined, JSON.stringify(source));
});

test('large and deeply nested input stays on the fast path without recursion', () => {
  const deep = '<div>'.repeat(100_000) + 'x' + '</div>'.repeat(100_000);
  const root = parseWellFormed(deep);
  assert.ok(root);
  let depth = 0;
  let node: T.ParentNode = root;
  while (node.childNodes[0] && 'tagName' in node.childNodes[0]) {
    node = node.childNodes[0];
    depth++;
  }
  assert.equal(depth, 100_000);
});
