import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterpreter } from '../index.js';
import { defaultStackName, loadTemplate, resolveTemplate, TemplateError, type LoadedTemplate } from './index.js';

const EXAMPLES = fileURLToPath(new URL('../../../../../examples/', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'trellis-template-'));
after(() => rmSync(work, { recursive: true, force: true }));

let count = 0;
/** A folder with `files` (path → text) and template.yaml; returns the template's path. */
function stack(template: string, files: Record<string, string> = {}): string {
  const dir = join(work, `stack${++count}`);
  for (const [path, text] of Object.entries({
    'src/app.mjs': 'export const handler = async (e) => `<p>${e.name ?? "app"}</p>`;\n',
    ...files,
  })) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  writeFileSync(join(dir, 'template.yaml'), template);
  return join(dir, 'template.yaml');
}

async function rejection(work: Promise<unknown>): Promise<TemplateError> {
  try {
    await work;
  } catch (error) {
    assert.ok(error instanceof TemplateError, `a TemplateError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a TemplateError');
}

const onlyFunction = (t: LoadedTemplate) => {
  const entries = Object.entries(t.functions.functions);
  assert.equal(entries.length, 1);
  return { key: entries[0]![0], spec: entries[0]![1] };
};

test('examples/lambda-widget/template.yaml: the function under its ARN, from the TypeScript entry point, and its dashboard calling it', async () => {
  const t = await loadTemplate(join(EXAMPLES, 'lambda-widget/template.yaml'), { region: 'eu-west-1', accountId: '111122223333' });
  const { key, spec } = onlyFunction(t);
  assert.equal(key, 'arn:aws:lambda:eu-west-1:111122223333:function:trellis-service-status');
  assert.equal(spec.handler, join(EXAMPLES, 'lambda-widget/handler.handler'));
  assert.equal(spec.runtime, 'nodejs24.x');
  assert.equal(spec.timeoutSeconds, 10);
  assert.equal(spec.memoryMB, 256);
  assert.deepEqual(spec.environment, { NODE_ENV: 'production' });
  assert.deepEqual(t.warnings, []);
  assert.equal(t.dashboards.length, 1);
  assert.equal(t.dashboards[0]!.name, 'service-status');
  const body = JSON.parse(t.dashboards[0]!.text) as { widgets: Array<{ properties: { endpoint: string } }> };
  assert.deepEqual(
    body.widgets.map((w) => w.properties.endpoint),
    [key, key],
  );
  assert.equal(
    (await loadTemplate(join(EXAMPLES, 'lambda-widget/template.yaml'), { parameters: { DashboardName: 'ops' } })).dashboards[0]!.name,
    'ops',
  );
});

test('examples/widget-project/template.yaml: an esbuild entry point in a subfolder, and a generated function name', async () => {
  const t = await loadTemplate(join(EXAMPLES, 'widget-project/template.yaml'));
  const { key, spec } = onlyFunction(t);
  assert.equal(key, 'arn:aws:lambda:us-east-1:123456789012:function:widget-project-GreetingFunction');
  assert.equal(spec.handler, join(EXAMPLES, 'widget-project/widgets/greeting.handler'));
  assert.match(t.dashboards[0]!.text, /"endpoint":"arn:aws:lambda:us-east-1:123456789012:function:widget-project-GreetingFunction"/);
});

test("examples/lambda-api/template.yaml: SAM's Globals.Function, and environment values from parameters", async () => {
  const t = await loadTemplate(join(EXAMPLES, 'lambda-api/template.yaml'), {
    stackName: 'orders',
    parameters: { RedisUrl: 'redis://127.0.0.1:6379' },
  });
  const { key, spec } = onlyFunction(t);
  assert.equal(key, 'arn:aws:lambda:us-east-1:123456789012:function:orders-OrdersFunction');
  assert.equal(spec.runtime, 'nodejs24.x');
  assert.equal(spec.memoryMB, 512);
  assert.equal(spec.timeoutSeconds, 10);
  assert.deepEqual(spec.environment, {
    NODE_OPTIONS: '--enable-source-maps',
    API_KEYS_PARAMETER: '/orders-api/api-keys',
    RATE_LIMIT_TABLE: 'orders-RateLimitTable',
    REDIS_URL: 'redis://127.0.0.1:6379',
  });
  assert.deepEqual(t.parameterNames, ['ApiKeysParameter', 'RedisUrl']);
});

test("Globals merge under the function's own settings; what exists only in AWS is left out with a warning", async () => {
  const file = stack(`Transform: AWS::Serverless-2016-10-31
Globals:
  Function:
    Runtime: nodejs22.x
    Handler: app.handler
    CodeUri: src
    Timeout: 20
    Environment:
      Variables: { STAGE: global, SHARED: yes }
Resources:
  Orders:
    Type: AWS::DynamoDB::Table
  Fn:
    Type: AWS::Serverless::Function
    Properties:
      FunctionName: widget
      MemorySize: '512'
      Environment:
        Variables:
          STAGE: own
          TOKEN: '{{resolve:ssm:/ops/token}}'
          SHARED_ARN: !ImportValue shared-arn
          TABLE: !Ref Orders
          REGION_NAME: !Sub '\${AWS::Region}'
`);
  const t = await loadTemplate(file);
  const { key, spec } = onlyFunction(t);
  assert.equal(key, 'arn:aws:lambda:us-east-1:123456789012:function:widget');
  assert.equal(spec.handler, join(file, '..', 'src/app.handler'));
  assert.equal(spec.runtime, 'nodejs22.x');
  assert.equal(spec.timeoutSeconds, 20);
  assert.equal(spec.memoryMB, 512);
  assert.deepEqual(spec.environment, { STAGE: 'own', SHARED: 'yes', TABLE: `stack${count}-Orders`, REGION_NAME: 'us-east-1' });
  assert.equal(t.warnings.length, 3, t.warnings.join('\n'));
  assert.match(
    t.warnings[0]!,
    /template\.yaml:21:18: Resources\.Fn\.Properties\.Environment\.Variables\.TOKEN: the dynamic reference \{\{resolve:ssm:…\}\} .*; TOKEN is left out of the function's environment$/,
  );
  assert.match(
    t.warnings[1]!,
    /Variables\.SHARED_ARN\.Fn::ImportValue: Fn::ImportValue reads another stack's export.*; SHARED_ARN is left out/,
  );
  assert.match(t.warnings[2]!, /Variables\.TABLE: Ref Orders \(AWS::DynamoDB::Table\) stands in as "stack\d+-Orders"/);
});

test('functions that cannot run here are left out with a warning: other runtimes, S3 code, images, false conditions', async () => {
  const file = stack(`Parameters:
  Extra: { Type: String, Default: 'no' }
Conditions:
  WithExtra: !Equals [!Ref Extra, 'yes']
Resources:
  Java:
    Type: AWS::Serverless::Function
    Properties: { Runtime: java21, Handler: a.B::handle, CodeUri: src }
  InS3:
    Type: AWS::Serverless::Function
    Properties: { Runtime: nodejs22.x, Handler: app.handler, CodeUri: { Bucket: b, Key: k } }
  Image:
    Type: AWS::Lambda::Function
    Properties: { PackageType: Image, Code: { ImageUri: x } }
  Maybe:
    Type: AWS::Serverless::Function
    Condition: WithExtra
    Properties: { Runtime: nodejs22.x, Handler: app.handler, CodeUri: src }
  Nested:
    Type: AWS::CloudFormation::Stack
`);
  const t = await loadTemplate(file);
  assert.deepEqual(t.functions.functions, {});
  assert.deepEqual(
    t.warnings.map((w) => w.replace(/^.*?template\.yaml:\d+:\d+: /, '')),
    [
      'Resources.Nested: the nested stack is not loaded; give its template as a template of its own',
      'Resources.Java: the function is left out: its Runtime java21 is neither Node.js (nodejsNN.x) nor Python (python3.NN)',
      'Resources.InS3: the function is left out: its code is in S3 ({"Bucket":"b","Key":"k"}); the harness runs code from a folder on this machine',
      'Resources.Image: the function is left out: it is a container image, which the harness does not run',
      'Resources.Maybe: not created here (its Condition WithExtra is false)',
    ],
  );
  const withExtra = await loadTemplate(file, { parameters: { Extra: 'yes' } });
  assert.deepEqual(Object.keys(withExtra.functions.functions), [`arn:aws:lambda:us-east-1:123456789012:function:stack${count}-Maybe`]);
});

test('inline code (Code.ZipFile) runs, as index.js beside nothing else; the dashboard reaches it', async () => {
  const file = stack(`Parameters:
  DoCreateExampleDashboard: { Type: String, AllowedValues: ['Yes', 'No'], Default: 'No' }
Conditions:
  CreateExampleDashboard: !Equals ['Yes', !Ref DoCreateExampleDashboard]
Resources:
  lambdaFunction:
    Type: AWS::Lambda::Function
    Properties:
      Code:
        ZipFile: |
          exports.handler = async (event) => '<h1>Hello ' + (event.name || 'world') + '</h1>';
      FunctionName: !Sub \${AWS::StackName}
      Handler: index.handler
      MemorySize: 128
      Runtime: nodejs20.x
      Timeout: 60
  demoDashboard:
    Type: AWS::CloudWatch::Dashboard
    Condition: CreateExampleDashboard
    Properties:
      DashboardName: !Sub \${AWS::StackName}-\${AWS::Region}
      DashboardBody:
        !Sub
          >
          {"widgets": [{"type": "custom", "width": 8, "height": 8,
            "properties": {"endpoint": "\${lambdaFunction.Arn}", "params": {"name": "Jim"}, "title": "SUM(\${!SUM})"}}]}
`);
  const without = await loadTemplate(file, { stackName: 'hello' });
  assert.deepEqual(without.dashboards, []);
  assert.match(without.warnings[0]!, /Resources\.demoDashboard: not created here \(its Condition CreateExampleDashboard is false\)/);
  const t = await loadTemplate(file, { stackName: 'hello', parameters: { DoCreateExampleDashboard: 'Yes' } });
  const { key, spec } = onlyFunction(t);
  assert.equal(key, 'arn:aws:lambda:us-east-1:123456789012:function:hello');
  assert.match(readFileSync(join(String(spec.handler), '..', 'index.js'), 'utf8'), /Hello/);
  assert.equal(t.dashboards[0]!.name, 'hello-us-east-1');
  assert.match(t.dashboards[0]!.text, /"title": "SUM\(\$\{SUM\}\)"/);
  const harness = createInterpreter({
    functions: { ...t.functions, functions: { ...t.functions.functions, [key]: { ...spec, runtime: 'nodejs' } } },
  });
  try {
    const dash = await harness.load(t.dashboards[0]!.text, { name: t.dashboards[0]!.name });
    const view = await dash.readWidget(0);
    assert.equal(view.error, null);
    assert.equal(view.html, '<h1>Hello Jim</h1>');
  } finally {
    await harness.close();
  }
});

test('parameters: a missing value or a broken constraint stops the load, naming the parameter and its line', async () => {
  const file = stack(`Parameters:
  Name: { Type: String }
  Stage: { Type: String, Default: dev, AllowedValues: [dev, prod] }
Resources:
  Fn:
    Type: AWS::Serverless::Function
    Properties: { Runtime: nodejs22.x, Handler: app.handler, CodeUri: src, FunctionName: !Ref Name }
`);
  assert.match(
    (await rejection(loadTemplate(file))).message,
    /template\.yaml:2:9: Parameters\.Name: has no Default; give it a value for the run \(--parameter Name=VALUE\)$/,
  );
  assert.match(
    (await rejection(loadTemplate(file, { parameters: { Name: 'x', Stage: 'test' } }))).message,
    /Parameters\.Stage: "test" \(given for the run\) is not one of its AllowedValues: "dev", "prod"/,
  );
  const t = await loadTemplate(file, { parameters: { Name: 'named', Unknown: 'ignored' } });
  assert.equal(onlyFunction(t).key, 'arn:aws:lambda:us-east-1:123456789012:function:named');
});

test('a template the harness cannot run is a TemplateError naming the place', async () => {
  const cases: Array<[string, RegExp]> = [
    [
      `Resources:
  Fn:
    Type: AWS::Serverless::Function
    Properties: { Runtime: nodejs22.x, Handler: app.handler, CodeUri: missing }
`,
      /template\.yaml:4:71: Resources\.Fn\.Properties\.CodeUri: no folder .*missing \(the path is relative to the template's folder\)/,
    ],
    [
      `Resources:
  Fn:
    Type: AWS::Serverless::Function
    Properties: { Runtime: nodejs22.x, Handler: nothere.handler, CodeUri: src }
`,
      /template\.yaml:3:5: Resources\.Fn: as the harness runs it: functions\[.*\]\.handler: no module .*nothere/,
    ],
    [
      `Resources:
  Fn:
    Type: AWS::Serverless::Function
    Properties: { Runtime: nodejs22.x, Handler: app.handler, CodeUri: src, FunctionName: 'not a name' }
`,
      /Resources\.Fn\.Properties\.FunctionName: "not a name" is not a function name/,
    ],
    [
      `Resources:
  A:
    Type: AWS::Serverless::Function
    Properties: { Runtime: nodejs22.x, Handler: app.handler, CodeUri: src, FunctionName: same }
  B:
    Type: AWS::Lambda::Function
    Properties: { Runtime: nodejs22.x, Handler: app.handler, Code: src, FunctionName: same }
`,
      /Resources\.B: A and B are both the function arn:aws:lambda:us-east-1:123456789012:function:same/,
    ],
    [
      `Resources:
  Board:
    Type: AWS::CloudWatch::Dashboard
    Properties: { DashboardBody: { widgets: [] } }
`,
      /Resources\.Board\.Properties\.DashboardBody: DashboardBody must be a string holding the dashboard JSON/,
    ],
    [
      `Resources:
  Board:
    Type: AWS::CloudWatch::Dashboard
    Properties: { DashboardBody: !Sub '\${Missing.Arn}' }
`,
      /Fn::GetAtt Missing\.Arn: the template has no resource named "Missing"/,
    ],
    ['Resources: {}\n', /a template needs Resources/],
    ['Resources:\n  A: { Properties: {} }\n', /template\.yaml:2:6: Resources\.A: a resource is a mapping with a Type/],
  ];
  for (const [template, message] of cases) assert.match((await rejection(loadTemplate(stack(template)))).message, message, template);
  assert.match((await rejection(loadTemplate(join(work, 'none.yaml')))).message, /none\.yaml: cannot read the template: no such file/);
  assert.match(
    (await rejection(loadTemplate(join(EXAMPLES, 'lambda-widget/template.yaml'), { region: 'mars' }))).message,
    /the region must look like "eu-west-1"/,
  );
});

test('a dashboard that needs what exists only in AWS is left out with a warning', async () => {
  const t = await loadTemplate(
    stack(`Resources:
  Board:
    Type: AWS::CloudWatch::Dashboard
    Properties: { DashboardName: ops, DashboardBody: !Sub ['{"widgets":[],"x":"\${A}"}', { A: !ImportValue other }] }
`),
  );
  assert.deepEqual(t.dashboards, []);
  assert.match(t.warnings[0]!, /Fn::ImportValue reads another stack's export.*; the dashboard Board is left out$/);
});

test('resolveTemplate takes the JSON form; the default stack name comes from the file or its folder', () => {
  const dir = join(stack('Resources: { A: { Type: AWS::SNS::Topic } }\n'), '..');
  const t = resolveTemplate(
    { Resources: { Fn: { Type: 'AWS::Lambda::Function', Properties: { Code: 'src', Handler: 'app.handler', Runtime: 'nodejs22.x' } } } },
    { baseDir: dir },
  );
  assert.equal(onlyFunction(t).key, `arn:aws:lambda:us-east-1:123456789012:function:stack${count}-Fn`);
  assert.ok(existsSync(join(dir, 'src/app.mjs')));
  assert.equal(defaultStackName('/work/examples/lambda-widget/template.yaml'), 'lambda-widget');
  assert.equal(defaultStackName('/work/build/cfn/customWidgetHelloWorld-js.yaml'), 'customWidgetHelloWorld-js');
  assert.equal(defaultStackName('/srv/1 my_stack.json'), 'my-stack');
  assert.equal(defaultStackName('/srv/123.yaml'), 'stack');
});

test('property: any template, however malformed, resolves or throws a TemplateError, never anything else', () => {
  const dir = join(stack('Resources: { A: { Type: AWS::SNS::Topic } }\n'), '..');
  const scalar = fc.oneof(
    fc.constantFrom(
      'src',
      'app.handler',
      'nodejs22.x',
      'python3.12',
      'java21',
      '{"widgets":[]}',
      '${Fn.Arn}',
      '${P}',
      '',
      '.',
      '..',
      'x.zip',
    ),
    fc.string({ maxLength: 8 }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
  );
  const { value } = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      scalar,
      fc.array(tie('value'), { maxLength: 3 }),
      fc.dictionary(fc.constantFrom('Ref', 'Fn::Sub', 'Fn::GetAtt', 'Fn::If', 'Fn::Join', 'Variables', 'Bucket', 'x'), tie('value'), {
        maxKeys: 2,
      }),
    ),
  }));
  const properties = fc.record(
    {
      Runtime: value,
      Handler: value,
      CodeUri: value,
      Code: value,
      FunctionName: value,
      Timeout: value,
      MemorySize: value,
      Environment: value,
      DashboardName: value,
      DashboardBody: value,
    },
    { requiredKeys: [] },
  );
  const resource = fc.record(
    {
      Type: fc.oneof(
        fc.constantFrom('AWS::Serverless::Function', 'AWS::Lambda::Function', 'AWS::CloudWatch::Dashboard', 'AWS::SNS::Topic'),
        value,
      ),
      Properties: fc.oneof(properties, value),
      Condition: fc.oneof(fc.constant(undefined), value),
    },
    { requiredKeys: ['Type'] },
  );
  const template = fc.record(
    {
      Parameters: fc.oneof(fc.constant({ P: { Type: 'String', Default: 'p' } }), value),
      Conditions: fc.oneof(fc.constant({ C: { 'Fn::Equals': [{ Ref: 'P' }, 'p'] } }), value),
      Globals: fc.oneof(fc.record({ Function: properties }), value),
      Resources: fc.oneof(fc.dictionary(fc.constantFrom('Fn', 'Board', 'Other'), resource, { minKeys: 1, maxKeys: 3 }), value),
      Transform: value,
    },
    { requiredKeys: [] },
  );
  fc.assert(
    fc.property(template, (t) => {
      try {
        resolveTemplate(t, { baseDir: dir, stackName: 'prop' });
      } catch (error) {
        assert.ok(error instanceof TemplateError, `${JSON.stringify(t)} threw ${String(error)}`);
      }
    }),
    { numRuns: 1000 },
  );
});
