import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lint, parseWidgetHtml, RULES } from './index.js';

const brief = (html: string) =>
  lint(html).map((f) => `${f.rule} ${f.line}:${f.column} ${f.element}${f.attribute ? ` ${f.attribute}` : ''}`);

test('clean widget HTML has no findings', () => {
  assert.deepEqual(lint('<h2>CPU</h2><table><tr><td style="color:red">90%</td></tr></table><a href="https://x.example">more</a>'), []);
});

test('script elements are errors at their "<", wherever they stand (FORCE_BODY: a leading <script> counts too)', () => {
  assert.deepEqual(brief('<script>x()</script>'), ['script 1:1 script']);
  assert.deepEqual(brief('<p>a</p>\n  <SCRIPT src=x></SCRIPT>'), ['script 2:3 script']);
  assert.deepEqual(brief('<svg><script>x</script></svg>'), ['script 1:6 script']);
  const [f] = lint('<script></script>');
  assert.equal(f!.severity, 'error');
});

test('on* attributes are reported with the name as written and the position of its first character', () => {
  assert.deepEqual(brief('<p onclick="a" ONMouseOver=b>x</p>'), ['event-handler 1:4 p onclick', 'event-handler 1:16 p ONMouseOver']);
  assert.deepEqual(brief('<p\n\tonclick=x>'), ['event-handler 2:2 p onclick']);
});

test('javascript: URLs are found however they are cased, spaced or entity-encoded', () => {
  for (const value of [
    'javascript:x',
    'JaVaScRiPt:x',
    ' javascript:x',
    'java\tscript:x',
    'java&#x09;script:x',
    '&#106;avascript:x',
    'javascript&colon;x',
    'vbscript:x',
    '\u0001javascript:x',
  ]) {
    assert.deepEqual(brief(`<a href="${value}">a</a>`), ['javascript-url 1:4 a href'], value);
  }
  assert.deepEqual(brief('<svg><a xlink:href="javascript:x"><text>t</text></a></svg>'), ['javascript-url 1:9 a xlink:href']);
  assert.deepEqual(brief('<button formaction="javascript:x">b</button>'), ['javascript-url 1:9 button formaction']);
  assert.deepEqual(brief('<img src="javascript:x">'), ['javascript-url 1:6 img src']);
});

test('URLs the console keeps are not reported', () => {
  assert.deepEqual(lint('<a href="/x">a</a><a href="#y">b</a><a href="mailto:a@b">c</a><img src="data:image/png;base64,AA">'), []);
  assert.deepEqual(lint('<div data-go="javascript:x" title="javascript:x">d</div>'), []);
});

test('other schemes are unsafe-url warnings; data: only passes on media src', () => {
  assert.deepEqual(brief('<a href="foo:bar">a</a><a href="data:text/html,x">b</a>'), ['unsafe-url 1:4 a href', 'unsafe-url 1:27 a href']);
  assert.equal(lint('<a href="foo:bar">a</a>')[0]!.severity, 'warning');
});

test('iframe, object, embed and SVG use are errors', () => {
  assert.deepEqual(brief('<iframe src=x></iframe><object></object><embed src=x><svg><use href="#a"/></svg>'), [
    'iframe 1:1 iframe',
    'object 1:24 object',
    'embed 1:41 embed',
    'svg-use 1:59 use',
  ]);
});

test('elements and attributes off the allowlist are warnings; data-* and aria-* are kept', () => {
  assert.deepEqual(brief('<x-chart foo=1>t</x-chart>'), ['disallowed-element 1:1 x-chart']);
  assert.deepEqual(brief('<p foo="1" data-foo="2" aria-label="3">x</p>'), ['disallowed-attribute 1:4 p foo']);
  assert.deepEqual(brief('<p is="fancy-p">x</p>'), ['disallowed-attribute 1:4 p is']);
});

test('attribute names a browser would not honour are not findings', () => {
  assert.deepEqual(lint('<p ;="x" "q"=1>x</p>'), []);
});

test('namespace confusion, markup-like text and value breakouts are reported', () => {
  assert.deepEqual(brief('<svg><desc><p>x</p></desc></svg>'), ['namespace-mismatch 1:12 p']);
  assert.deepEqual(brief('<style>a</style><style>/* <img> */</style>'), ['markup-in-text 1:17 style']);
  assert.deepEqual(brief('<p title="--><img>">x</p>'), ['markup-in-attribute 1:4 p title']);
  assert.deepEqual(brief('<svg><animateTransform attributeName="href"/></svg>'), ['animated-href 1:24 animateTransform attributeName']);
});

test('a <table> inside an open <p> nests there (the console parses in quirks mode): text moved out of the table is no markup-in-text', () => {
  // A table that closed the paragraph would leave the text moved out of it, with the comment, in a copy of the
  // open <a>, which would then hold nothing but markup-like text and a comment.
  assert.deepEqual(brief('<p>a<b<div><a><meta><table>&lt;b&gt;<!-- c -->hello'), [
    'disallowed-element 1:5 b<div',
    'disallowed-element 1:15 meta',
  ]);
  assert.deepEqual(lint('<p><a><table>&lt;b&gt;<!-- c -->hello'), []);
  const p = parseWidgetHtml('<p>a<table><tr><td>x</td></tr></table>b</p>').root.childNodes;
  assert.deepEqual(
    p.map((n) => n.nodeName),
    ['p'],
  );
  assert.deepEqual(
    (p[0] as Extract<(typeof p)[number], { tagName: string }>).childNodes.map((n) => n.nodeName),
    ['#text', 'table', '#text'],
  );
  // An element copied after its paragraph closed still holds only that text and comment, and is removed.
  assert.deepEqual(brief('<p><b>x</p>&lt;b&gt;<!-- c -->'), ['markup-in-text 1:4 b']);
});

test("a comment after </body> or </html> is outside the content (as in the console's document), so it makes no markup-in-text", () => {
  assert.deepEqual(lint('<b>&lt;b&gt;</body><!-- c -->'), []);
  assert.deepEqual(lint('<b>&lt;b&gt;\n</html>\n<!-- c -->x'), []);
  // Before the end tag it is content, and the element holding it is removed.
  assert.deepEqual(brief('<b>&lt;b&gt;<!-- c --></body>'), ['markup-in-text 1:1 b']);
});

test("a <frameset> before any text replaces the content (the console keeps only the frameset's own children)", () => {
  assert.deepEqual(brief('<div><frameset><frame src="javascript:x"></frameset>'), ['disallowed-element 1:16 frame']);
  assert.deepEqual(lint('<frameset><p onclick=x>a</p>'), []);
  assert.deepEqual(brief('<p>x</p><frameset><p onclick=x>a</p>'), ['event-handler 1:22 p onclick']);
});

test('a template removed for its namespace: the console still cleans its own content, so that is reported too', () => {
  assert.deepEqual(brief('<svg><desc><template onclick=x><b href="javascript:x">b</b></template></desc></svg>'), [
    'namespace-mismatch 1:12 template',
    'javascript-url 1:35 b href',
  ]);
  // Content dropped with another removed element is not cleaned, so nothing in it is reported.
  assert.deepEqual(brief('<svg><desc><p><template><b href="javascript:x">b</b></template></p></desc></svg>'), [
    'namespace-mismatch 1:12 p',
  ]);
});

test('DOM clobbering: id/name named like document properties, and forms whose controls shadow form properties', () => {
  assert.deepEqual(brief('<img name="cookie"><p id="main">x</p>'), ['dom-clobbering 1:6 img name']);
  assert.deepEqual(brief('<form><input name="attributes"></form>'), ['dom-clobbering 1:1 form']);
});

test('a <body> tag inside widget content is ignored by the parser, so its attributes are no findings', () => {
  assert.deepEqual(lint('<p>x</p>\n<body class=a onload="go()">'), []);
});

test('CRLF line ends count as one line', () => {
  assert.deepEqual(brief('\r\n<p onclick=x>'), ['event-handler 2:4 p onclick']);
});

test('findings are sorted by position and every rule is catalogued', () => {
  const findings = lint('<cwdb-action></cwdb-action><p onclick=x></p><script></script>');
  assert.deepEqual(
    findings.map((f) => f.column),
    [1, 31, 45],
  );
  for (const f of findings) assert.ok(f.rule in RULES, f.rule);
});

test('lint accepts a parsed document and gives the same findings', () => {
  const html = '<a href="javascript:x">a</a>';
  assert.deepEqual(lint(parseWidgetHtml(html)), lint(html));
});

test('parseWidgetHtml keeps positions pointing into the input', () => {
  const parsed = parseWidgetHtml('<p>x</p>');
  const p = parsed.root.childNodes[0] as Extract<(typeof parsed)['root']['childNodes'][number], { tagName: string }>;
  assert.equal(p.tagName, 'p');
  assert.deepEqual([p.sourceCodeLocation!.startLine, p.sourceCodeLocation!.startCol, p.sourceCodeLocation!.startOffset], [1, 1, 0]);
  assert.equal(parsed.root.childNodes.length, 1);
});

test('input that is not a string is read as text instead of throwing', () => {
  for (const bad of [undefined, null, 42, {}] as unknown as string[]) {
    assert.deepEqual(lint(bad), []);
  }
});

test("javascript: among an SVG animation's values is an error at that attribute, beside the element's own finding", () => {
  const set = lint('<svg><a><set attributeName="href" to=" JaVaScRiPt:alert(1)"/></a></svg>');
  assert.deepEqual(
    set.map((f) => [f.rule, f.severity, f.attribute ?? null]),
    [
      ['disallowed-element', 'warning', null],
      ['animated-script-url', 'error', 'to'],
    ],
  );
  const values = lint('<svg><a><animate attributeName="href" values="https://example.com;javascript:alert(1)"/></a></svg>');
  assert.deepEqual(
    values.map((f) => [f.rule, f.column]),
    [
      ['disallowed-element', 9],
      ['animated-script-url', 39],
    ],
  );
  assert.deepEqual(
    lint('<svg><animate attributeName="x" values="1;2"/></svg>').map((f) => f.rule),
    ['disallowed-element'],
  );
});
