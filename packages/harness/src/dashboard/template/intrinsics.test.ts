import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TemplateError } from './errors.js';
import { errorOf } from './template-error.test-suite.js';
import { NO_VALUE, Resolver } from './intrinsics.js';
import { resolveParameters } from './parameters.js';
import { parseSub } from './sub.js';
import { parseTemplateText } from './yaml-tags.js';

const STACK = { region: 'eu-west-1', accountId: '111122223333', stackName: 'ops' };

const BASE = `
Parameters:
  Stage: { Type: String, Default: dev, AllowedValues: [dev, prod] }
  Zones: { Type: CommaDelimitedList, Default: 'a, b,c' }
  Secret: { Type: 'AWS::SSM::Parameter::Value<String>', Default: /ops/secret }
Conditions:
  IsProd: !Equals [!Ref Stage, prod]
  NotProd: !Not [!Condition IsProd]
  Both: !And [!Condition NotProd, !Equals [eu-west-1, !Ref AWS::Region]]
Mappings:
  Sizes:
    dev: { Memory: 256 }
    prod: { Memory: 1024 }
Resources:
  Widget:
    Type: AWS::Serverless::Function
    Properties: { FunctionName: !Sub '\${AWS::StackName}-widget' }
  Unnamed:
    Type: AWS::Lambda::Function
  Table:
    Type: AWS::DynamoDB::Table
  Named:
    Type: AWS::S3::Bucket
    Properties: { BucketName: reports }
  Board:
    Type: AWS::CloudWatch::Dashboard
    Properties: { DashboardName: !Sub '\${Stage}-board' }
`;

function parsedWith(text: string, given: Record<string, string> = {}): { resolver: Resolver; template: Record<string, any> } {
  const parsed = parseTemplateText(text, 'template.yaml');
  const { values, problems } = resolveParameters(parsed.value.Parameters, given);
  assert.deepEqual(problems, []);
  return {
    resolver: new Resolver({ file: 'template.yaml', template: parsed.value, locate: parsed.locate, stack: STACK, parameters: values }),
    template: parsed.value,
  };
}

const resolverFor = (text: string): Resolver => parsedWith(text).resolver;

/** Resolves `expr` (YAML) as the value of an output added to the base template. */
function value(expr: string, given: Record<string, string> = {}): unknown {
  const { resolver, template } = parsedWith(`${BASE}\nOutputs:\n  Out:\n    Value: ${expr}\n`, given);
  return resolver.resolve(template.Outputs.Out.Value, ['Outputs', 'Out', 'Value']);
}

test('Ref: parameters give their value, functions their name, other resources their name or a stand-in', () => {
  assert.equal(value('!Ref Stage'), 'dev');
  assert.equal(value('!Ref Stage', { Stage: 'prod' }), 'prod');
  assert.deepEqual(value('!Ref Zones'), ['a', 'b', 'c']);
  assert.equal(value('!Ref Widget'), 'ops-widget');
  assert.equal(value('!Ref Unnamed'), 'ops-Unnamed');
  assert.equal(value('!Ref Named'), 'reports');
  assert.equal(value('!Ref Table'), 'ops-Table');
  assert.equal(value('!Ref Board'), 'dev-board');
});

test('a stand-in name is said in the notes', () => {
  const resolver = resolverFor(BASE);
  const notes: string[] = [];
  assert.equal(resolver.resolve({ Ref: 'Table' }, ['x'], notes), 'ops-Table');
  assert.match(notes[0]!, /Ref Table \(AWS::DynamoDB::Table\) stands in as "ops-Table"/);
});

test('pseudo parameters follow the stack', () => {
  assert.equal(
    value('!Sub "${AWS::Region} ${AWS::AccountId} ${AWS::StackName} ${AWS::Partition} ${AWS::URLSuffix}"'),
    'eu-west-1 111122223333 ops aws amazonaws.com',
  );
  assert.equal(value('!Ref AWS::StackId'), 'arn:aws:cloudformation:eu-west-1:111122223333:stack/ops/00000000-0000-0000-0000-000000000000');
  assert.deepEqual(value('!Ref AWS::NotificationARNs'), []);
});

test('Fn::GetAtt gives a function its ARN, in every form', () => {
  const arn = 'arn:aws:lambda:eu-west-1:111122223333:function:ops-widget';
  assert.equal(value('!GetAtt Widget.Arn'), arn);
  assert.equal(value('!GetAtt [Widget, Arn]'), arn);
  assert.equal(value('{ "Fn::GetAtt": [Widget, Arn] }'), arn);
  assert.equal(value('!Sub "${Widget.Arn}"'), arn);
  assert.equal(value('!GetAtt Unnamed.Arn'), 'arn:aws:lambda:eu-west-1:111122223333:function:ops-Unnamed');
});

test('Fn::Sub: both forms, variables over names, ${!Literal}, and an unclosed ${ kept', () => {
  assert.equal(value('!Sub "x-${Stage}"'), 'x-dev');
  assert.equal(
    value('!Sub ["${Stage}/${Fn}", { Fn: !GetAtt Widget.Arn, Stage: mine }]'),
    'mine/arn:aws:lambda:eu-west-1:111122223333:function:ops-widget',
  );
  assert.equal(value('!Sub "SUM(${!SUM}) ${Stage}"'), 'SUM(${SUM}) dev');
  assert.equal(value('!Sub "a ${ b"'), 'a ${ b');
  assert.equal(value('!Sub ["${N}", { N: 7 }]'), '7');
});

test('Fn::Join, Fn::Select, Fn::Split, Fn::FindInMap, Fn::Base64, Fn::ToJsonString, Fn::Length', () => {
  assert.equal(value('!Join [",", [a, !Ref Stage, 3]]'), 'a,dev,3');
  assert.equal(value('!Join ["-", !Ref Zones]'), 'a-b-c');
  assert.equal(value('!Select [1, !Ref Zones]'), 'b');
  assert.equal(value('!Select ["2", [x, y, z]]'), 'z');
  assert.deepEqual(value('!Split ["/", "a/b"]'), ['a', 'b']);
  assert.equal(value('!FindInMap [Sizes, !Ref Stage, Memory]'), 256);
  assert.equal(value('!Base64 hi'), 'aGk=');
  assert.equal(value('!ToJsonString { a: !Ref Stage }'), '{"a":"dev"}');
  assert.equal(value('!Length [1, 2, 3]'), 3);
});

test('Fn::If with Conditions, and AWS::NoValue leaves a property or item out', () => {
  assert.equal(value('!If [IsProd, big, small]'), 'small');
  assert.equal(value('!If [IsProd, big, small]', { Stage: 'prod' }), 'big');
  assert.equal(value('!If [Both, yes, no]'), 'yes');
  assert.equal(value('!Ref AWS::NoValue'), NO_VALUE);
  assert.deepEqual(value('{ A: !If [IsProd, 1, !Ref AWS::NoValue], B: 2 }'), { B: 2 });
  assert.deepEqual(value('[a, !If [IsProd, b, !Ref AWS::NoValue]]'), ['a']);
});

test('resources with a false Condition are not created', () => {
  const resolver = resolverFor(`${BASE}\n  Extra:\n    Type: AWS::Lambda::Function\n    Condition: IsProd\n`);
  assert.equal(resolver.included('Extra'), false);
  assert.equal(resolver.included('Widget'), true);
});

test('unknown and unsupported intrinsics are errors naming the path, the intrinsic and the line', () => {
  const cases: Array<[string, RegExp]> = [
    [
      '{ "Fn::Nope": 1 }',
      /^template\.yaml:\d+:\d+: Outputs\.Out\.Value\.Fn::Nope: Fn::Nope is not an intrinsic function the harness knows; it resolves Ref, /,
    ],
    ['!Cidr [a, 1, 2]', /Outputs\.Out\.Value\.Fn::Cidr: Fn::Cidr is not supported by the harness/],
    ['!Equals [a, b]', /Fn::Equals is a condition function: it belongs in Conditions/],
    ['!Ref Missing', /Ref Missing: the template has no parameter or resource named "Missing"/],
    ['!Ref AWS::Nope', /no such pseudo parameter/],
    ['!GetAtt Missing.Arn', /no resource named "Missing"/],
    ['!Sub "${Missing}"', /Ref Missing/],
    ['!Sub "${Zones}"', /is \["a","b","c"\], not a string \(join a list with Fn::Join\)/],
    ['!Sub "${}"', /\$\{\} is not a variable/],
    ['!Sub [a, b, c]', /Fn::Sub takes a string, or \[string, \{ Name: value \}\]/],
    ['!Join [",", a]', /Fn::Join takes a list/],
    ['!Join [",", [[a]]]', /Fn::Join takes strings/],
    ['!Select [5, [a]]', /index 5 is not within the list of 1/],
    ['!If [Nope, a, b]', /no condition named "Nope" in Conditions/],
    ['!If [IsProd, a]', /Fn::If takes \[ConditionName/],
    ['!FindInMap [Sizes, test, Memory]', /Mappings has no Sizes\.test\.Memory/],
    ['!Ref [a]', /Ref takes the name of a parameter or resource/],
  ];
  for (const [expr, message] of cases) {
    const error = errorOf(() => value(expr));
    assert.equal(error.kind, 'invalid', expr);
    assert.match(error.message, message, expr);
  }
  assert.ok(errorOf(() => value('{ "Fn::Nope": 1 }')).position!.line > 30);
});

test('what exists only in AWS is unresolvable, not invalid', () => {
  const cases: Array<[string, RegExp]> = [
    ["'{{resolve:ssm:/ops/token}}'", /dynamic reference \{\{resolve:ssm:…\}\} is read from AWS Systems Manager Parameter Store/],
    ['!Sub "{{resolve:secretsmanager:${Stage}:SecretString:key}}"', /AWS Secrets Manager/],
    ['!ImportValue shared', /Fn::ImportValue reads another stack's export/],
    ['!GetAZs ""', /Availability Zones/],
    ['!GetAtt Table.Arn', /AWS::DynamoDB::Table has no local Arn/],
    ['!Ref Secret', /parameter Secret is the value of the SSM parameter "\/ops\/secret"/],
  ];
  for (const [expr, message] of cases) {
    const error = errorOf(() => value(expr));
    assert.equal(error.kind, 'unresolvable', expr);
    assert.match(error.message, message, expr);
  }
  assert.equal(value('!Ref Secret', { Secret: 'given' }), 'given');
});

test('cycles are errors, not stack overflows', () => {
  const names = resolverFor(`Resources:
  A: { Type: AWS::Lambda::Function, Properties: { FunctionName: !Ref B } }
  B: { Type: AWS::Lambda::Function, Properties: { FunctionName: !Ref A } }
`);
  assert.match(errorOf(() => names.resolve({ Ref: 'A' }, ['x'])).message, /depends on itself/);
  const conditions = resolverFor(`Conditions:
  A: !Condition B
  B: !Not [!Condition A]
Resources:
  R: { Type: AWS::SNS::Topic, Condition: A }
`);
  assert.match(errorOf(() => conditions.included('R')).message, /condition A depends on itself/);
});

test('deep nesting is an error, not a stack overflow', () => {
  let expr: unknown = 'x';
  for (let i = 0; i < 500; i++) expr = { 'Fn::Join': ['', [expr]] };
  assert.match(errorOf(() => resolverFor(BASE).resolve(expr, ['x'])).message, /nested more than 64 levels deep/);
});

test('parseSub splits text and variables', () => {
  assert.deepEqual(parseSub('arn:${AWS::Partition}:s3:::${!Bucket}/${Fn.Arn}'), [
    { text: 'arn:' },
    { variable: 'AWS::Partition' },
    { text: ':s3:::${Bucket}/' },
    { variable: 'Fn.Arn' },
  ]);
});

test('parameters: missing values and broken constraints are problems naming the parameter', () => {
  const { problems } = resolveParameters(
    { A: { Type: 'String' }, B: { Type: 'String', Default: 'x', AllowedPattern: '[0-9]+' }, C: { Type: 'Number', Default: 'n' } },
    {},
  );
  assert.deepEqual(
    problems.map((p) => [p.path.join('.'), p.message.replace(/:.*/, '')]),
    [
      ['Parameters.A', 'has no Default; give it a value for the run (--parameter A=VALUE)'],
      ['Parameters.B', '"x" (its Default) does not match its AllowedPattern [0-9]+'],
      ['Parameters.C', 'is a Number, but "n" is not a number'],
    ],
  );
  assert.match(
    resolveParameters({ S: { Type: 'String', Default: 'dev', AllowedValues: ['dev'] } }, { S: 'prod' }).problems[0]!.message,
    /"prod" \(given for the run\) is not one of its AllowedValues: "dev"/,
  );
});

/** Arbitrary template values, with intrinsic functions (well and badly formed) among them. */
const intrinsicNames = [
  'Ref',
  'Fn::Sub',
  'Fn::GetAtt',
  'Fn::Join',
  'Fn::Select',
  'Fn::Split',
  'Fn::If',
  'Fn::FindInMap',
  'Fn::Base64',
  'Fn::ToJsonString',
  'Fn::Length',
  'Fn::ImportValue',
  'Fn::GetAZs',
  'Fn::Equals',
  'Fn::Not',
  'Fn::Cidr',
  'Fn::Nope',
  'Condition',
];
const words = fc.constantFrom(
  'Stage',
  'Zones',
  'Widget',
  'Table',
  'Board',
  'IsProd',
  'Both',
  'Sizes',
  'dev',
  'Memory',
  'Arn',
  'AWS::Region',
  'AWS::NoValue',
  'Missing',
  '__proto__',
  '',
);
const { value: templateValue } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    words,
    fc.string({ maxLength: 12 }),
    fc.constantFrom('${Stage}', '${Widget.Arn}', '${!X}', '${', '${}', '{{resolve:ssm:x}}', '${AWS::Region}-${Table}'),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(words, fc.string({ maxLength: 5 })), tie('value'), { maxKeys: 3 }),
    fc.tuple(fc.constantFrom(...intrinsicNames), tie('value')).map(([name, args]) => ({ [name]: args })),
  ),
}));

test('property: resolving any value either gives a value or throws a TemplateError, never anything else', () => {
  const resolver = resolverFor(BASE);
  fc.assert(
    fc.property(templateValue, (v) => {
      try {
        resolver.resolve(v, ['Resources', 'Widget', 'Properties', 'Any']);
      } catch (error) {
        assert.ok(error instanceof TemplateError, `${JSON.stringify(v)} threw ${String(error)}`);
        assert.match(error.message, /^template\.yaml(:\d+:\d+)?: /);
      }
    }),
    { numRuns: 2000 },
  );
});

test('long chains of names and conditions are errors, not stack overflows', () => {
  const conditions = Array.from({ length: 5000 }, (_, i) => `  C${i}: !Not [!Condition C${i + 1}]`).join('\n');
  const chained = resolverFor(
    `Conditions:\n${conditions}\n  C5000: !Equals [a, a]\nResources:\n  R: { Type: AWS::SNS::Topic, Condition: C0 }\n`,
  );
  assert.match(errorOf(() => chained.included('R')).message, /refer to each other more than 32 deep/);
  const names = Array.from(
    { length: 5000 },
    (_, i) => `  F${i}: { Type: AWS::Lambda::Function, Properties: { FunctionName: !Sub ['\${N}', { N: { Ref: F${i + 1} } }] } }`,
  ).join('\n');
  const named = resolverFor(`Resources:\n${names}\n  F5000: { Type: AWS::Lambda::Function }\n`);
  assert.match(errorOf(() => named.resolve({ Ref: 'F0' }, ['x'])).message, /refer to each other more than 32 deep|nested more than/);
  const short = resolverFor(
    `Resources:\n${names.split('\n').slice(0, 10).join('\n').replace(/F10\b/, 'F9x')}\n  F9x: { Type: AWS::Lambda::Function }\n`,
  );
  assert.equal(short.resolve({ Ref: 'F0' }, ['x']), 'ops-F9x');
});
