import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TemplateError } from './errors.js';
import { errorOf } from './template-error.test-suite.js';
import { parseTemplateText } from './yaml-tags.js';

const parse = (text: string, file = 'template.yaml') => parseTemplateText(text, file).value;

test("every short form becomes CloudFormation's JSON form, in scalar, sequence and mapping forms", () => {
  const value = parse(`
A: !Ref Name
B: !Sub 'arn:\${AWS::Partition}:s3:::x'
C: !Sub
  - '\${Fn}'
  - Fn: !GetAtt Fn.Arn
D: !GetAtt [Fn, Arn]
E: !Join [',', [a, !Ref B]]
F: !Select [0, !Split [',', 'a,b']]
G: !If [IsProd, 1, !Ref AWS::NoValue]
H: !Equals [!Ref Stage, prod]
I: !Not [!Condition IsProd]
J: !And [!Condition A, !Or [!Condition B, !Condition C]]
K: !FindInMap [Map, !Ref AWS::Region, Key]
L: !Base64 text
M: !ImportValue shared-arn
N: !GetAZs ''
O: !ToJsonString { a: !Ref B }
`);
  assert.deepEqual(value, {
    A: { Ref: 'Name' },
    B: { 'Fn::Sub': 'arn:${AWS::Partition}:s3:::x' },
    C: { 'Fn::Sub': ['${Fn}', { Fn: { 'Fn::GetAtt': ['Fn', 'Arn'] } }] },
    D: { 'Fn::GetAtt': ['Fn', 'Arn'] },
    E: { 'Fn::Join': [',', ['a', { Ref: 'B' }]] },
    F: { 'Fn::Select': [0, { 'Fn::Split': [',', 'a,b'] }] },
    G: { 'Fn::If': ['IsProd', 1, { Ref: 'AWS::NoValue' }] },
    H: { 'Fn::Equals': [{ Ref: 'Stage' }, 'prod'] },
    I: { 'Fn::Not': [{ Condition: 'IsProd' }] },
    J: { 'Fn::And': [{ Condition: 'A' }, { 'Fn::Or': [{ Condition: 'B' }, { Condition: 'C' }] }] },
    K: { 'Fn::FindInMap': ['Map', { Ref: 'AWS::Region' }, 'Key'] },
    L: { 'Fn::Base64': 'text' },
    M: { 'Fn::ImportValue': 'shared-arn' },
    N: { 'Fn::GetAZs': '' },
    O: { 'Fn::ToJsonString': { a: { Ref: 'B' } } },
  });
});

test('!GetAtt splits at the first dot only (nested attributes keep theirs)', () => {
  assert.deepEqual(parse('A: !GetAtt Db.Endpoint.Address'), { A: { 'Fn::GetAtt': ['Db', 'Endpoint.Address'] } });
});

test('a block scalar under !Sub keeps its text (a dashboard body)', () => {
  const value = parse('Body: !Sub |\n  {"widgets":[{"properties":{"endpoint":"${Fn.Arn}"}}]}\n');
  assert.deepEqual(value, { Body: { 'Fn::Sub': '{"widgets":[{"properties":{"endpoint":"${Fn.Arn}"}}]}\n' } });
});

test('JSON templates parse, tabs included', () => {
  assert.deepEqual(parse('{\n\t"Resources": {\n\t\t"A": { "Type": "X" }\n\t}\n}', 'template.json'), { Resources: { A: { Type: 'X' } } });
});

test('errors give file, line and column', () => {
  const cases: Array<[string, RegExp, number, number]> = [
    ['A: 1\nB: !Foo x\n', /template\.yaml:2:4: Unresolved tag: !Foo \(CloudFormation's short forms are !Ref, /, 2, 4],
    ['A: 1\nA: 2\n', /template\.yaml:2:1: Map keys must be unique/, 2, 1],
    ['A:\n  B: !GetAtt nodot\n', /template\.yaml:2:6: !GetAtt needs "LogicalId\.Attribute", got "nodot"/, 2, 6],
    ['A: [1, 2\n', /template\.yaml:\d+:\d+: /, 0, 0],
    ['- a\n- b\n', /template\.yaml:1:1: a template is a mapping at the top level/, 1, 1],
    ['A: 1\n---\nB: 2\n', /template\.yaml:2:1: the file holds more than one YAML document; a template is one/, 2, 1],
  ];
  for (const [text, message, line, column] of cases) {
    const error = errorOf(() => parse(text));
    assert.match(error.message, message, text);
    assert.equal(error.kind, 'invalid');
    if (line) assert.deepEqual(error.position, { line, column }, text);
  }
});

test('a .json file must be strict JSON, with the place of the error', () => {
  const error = errorOf(() => parse('{\n  "A": 1,\n}', 'stack.json'));
  assert.match(error.message, /^stack\.json:\d+:\d+: not valid JSON: /);
});

test('hostile documents end in a TemplateError: alias bombs, deep nesting, huge keys', () => {
  const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 0; i < 8; i++)
    bomb.push(
      `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
        .fill(`*${String.fromCharCode(97 + i)}`)
        .join(', ')}]`,
    );
  assert.match(errorOf(() => parse(bomb.join('\n'))).message, /alias/i);
  assert.match(errorOf(() => parse(`${'['.repeat(20_000)}${']'.repeat(20_000)}`)).message, /template\.yaml/);
  assert.match(errorOf(() => parse(`A: ${'{'.repeat(20_000)}`)).message, /template\.yaml/);
});

test('locate finds where a path starts, through short forms, and stops at the deepest node the path reaches', () => {
  const parsed = parseTemplateText(
    'Resources:\n  Fn:\n    Properties:\n      Handler: !Sub\n        - "${A}"\n        - A: x\n',
    'template.yaml',
  );
  assert.deepEqual(parsed.locate(['Resources', 'Fn', 'Properties', 'Handler', 'Fn::Sub', 0]), { line: 5, column: 11 });
  assert.deepEqual(parsed.locate(['Resources', 'Fn', 'Properties', 'Handler', 'Fn::Sub', 1, 'A']), { line: 6, column: 14 });
  assert.deepEqual(parsed.locate(['Resources', 'Fn', 'Missing', 'Deeper']), { line: 3, column: 5 });
});

test('property: any text either parses to a mapping or throws a TemplateError', () => {
  const pieces = [
    '!Ref ',
    '!Sub ',
    '!GetAtt ',
    '!If ',
    '!Foo ',
    'a: ',
    '- ',
    '[',
    ']',
    '{',
    '}',
    ': ',
    '\n',
    '  ',
    '&a ',
    '*a ',
    '"',
    "'",
    '${',
    '}',
    'x',
    '.',
    ',',
    '#',
    '---\n',
    '|\n',
    '\t',
  ];
  fc.assert(
    fc.property(fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 4 })), { maxLength: 40 }), (parts) => {
      const text = parts.join('');
      try {
        const value = parse(text);
        assert.equal(typeof value, 'object');
      } catch (error) {
        assert.ok(error instanceof TemplateError, `${JSON.stringify(text)} threw ${String(error)}`);
      }
    }),
    { numRuns: 500 },
  );
});
