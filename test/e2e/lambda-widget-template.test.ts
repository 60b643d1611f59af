// The widget example's AWS SAM template, checked by a real CloudFormation validator, and what it grants.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { createInterpreter } from '../../packages/harness/src/dashboard/index.js';
import { readTemplate, validateTemplateFile, validateTemplateObject } from '../support/cloudformation-template.js';

const TEMPLATE = fileURLToPath(new URL('../../examples/lambda-widget/template.yaml', import.meta.url));
const ARN = 'arn:aws:lambda:eu-west-1:111122223333:function:trellis-service-status';

describe('examples/lambda-widget/template.yaml', () => {
  it('passes the CloudFormation validator (SAM transform included)', () => {
    assert.deepEqual(validateTemplateFile(TEMPLATE), { valid: true, errors: [] });
  });

  it('the validator is not a rubber stamp: a misspelt property, a missing resource or an unknown type fail', () => {
    const template = readTemplate(TEMPLATE);
    const broken = [
      (t: any) => {
        t.Resources.ServiceStatusFunction.Properties.Timeuot = 10;
      },
      (t: any) => {
        t.Resources.DashboardViewerPolicy.Properties.PolicyDocument.Statement[0].Resource = { 'Fn::GetAtt': ['Missing', 'Arn'] };
      },
      (t: any) => {
        t.Resources.Dashboard.Type = 'AWS::CloudWatch::Dashbord';
      },
    ];
    for (const breakIt of broken) {
      const copy = structuredClone(template);
      breakIt(copy);
      const check = validateTemplateObject(copy);
      assert.equal(check.valid, false);
      assert.ok(check.errors.length > 0);
    }
  });

  it('builds the TypeScript handler the harness runs, and lets dashboard viewers invoke exactly that function', () => {
    const t = readTemplate(TEMPLATE);
    const fn = t.Resources.ServiceStatusFunction;
    assert.equal(fn.Type, 'AWS::Serverless::Function');
    assert.equal(fn.Properties.Handler, 'handler.handler');
    assert.match(fn.Properties.Runtime, /^nodejs(22|24)\.x$/);
    assert.deepEqual(fn.Metadata.BuildProperties.EntryPoints, ['handler.ts']);
    assert.equal(fn.Metadata.BuildProperties.Format, 'esm');
    const statements = t.Resources.DashboardViewerPolicy.Properties.PolicyDocument.Statement;
    assert.deepEqual(statements, [
      { Effect: 'Allow', Action: 'lambda:InvokeFunction', Resource: { 'Fn::GetAtt': ['ServiceStatusFunction', 'Arn'] } },
    ]);
  });

  it('its dashboard body is a valid dashboard whose custom widgets call the function', async () => {
    const t = readTemplate(TEMPLATE);
    const [body, variables] = t.Resources.Dashboard.Properties.DashboardBody['Fn::Sub'] as [string, Record<string, unknown>];
    assert.deepEqual(variables, { FunctionArn: { 'Fn::GetAtt': ['ServiceStatusFunction', 'Arn'] } });
    const text = body.replaceAll('${FunctionArn}', ARN);
    assert.doesNotMatch(text, /\$\{/, 'every substitution is one the template provides');
    const harness = createInterpreter({ functions: { functions: {} } });
    try {
      const dash = await harness.load(text, { name: 'service-status' });
      assert.deepEqual(
        dash.widgets().map((w) => [w.type, w.title, w.endpoint]),
        [
          ['custom', 'Service status', ARN],
          ['custom', 'Failing services', ARN],
        ],
      );
    } finally {
      await harness.close();
    }
  });
});
