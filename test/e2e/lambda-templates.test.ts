// The deployment templates in examples/ are valid CloudFormation/SAM by the published resource
// specification, and the validator used for them catches the mistakes a template can hold.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { parseTemplate, readTemplate } from '../support/cloudformation-yaml.js';
import { validateTemplate } from '../support/cloudformation-validate.js';

const API_TEMPLATE = fileURLToPath(new URL('../../examples/lambda-api/template.yaml', import.meta.url));

describe("the Lambda API example's SAM template", () => {
  it('is valid', () => {
    assert.deepEqual(validateTemplate(readTemplate(API_TEMPLATE)), []);
  });

  it('deploys the example handler behind an HTTP API with payload 2.0, on Node.js 24, its API keys read from SSM, its rate limits counted in DynamoDB', () => {
    const template = readTemplate(API_TEMPLATE) as any;
    const fn = template.Resources.OrdersFunction;
    assert.equal(fn.Type, 'AWS::Serverless::Function');
    assert.equal(fn.Properties.Handler, 'handler.handler');
    assert.deepEqual(fn.Metadata.BuildProperties.EntryPoints, ['handler.ts']);
    assert.equal(template.Globals.Function.Runtime, 'nodejs24.x');
    assert.deepEqual(fn.Properties.Events.Api, {
      Type: 'HttpApi',
      Properties: { ApiId: { Ref: 'OrdersApi' }, Path: '/{proxy+}', Method: 'ANY', PayloadFormatVersion: '2.0' },
    });
    assert.deepEqual(Object.keys(fn.Properties.Environment.Variables).sort(), [
      'API_KEYS_PARAMETER',
      'NODE_OPTIONS',
      'RATE_LIMIT_TABLE',
      'REDIS_URL',
    ]);
    assert.deepEqual(fn.Properties.Environment.Variables.RATE_LIMIT_TABLE, { Ref: 'RateLimitTable' });
    assert.deepEqual(fn.Properties.Policies, [
      { SSMParameterReadPolicy: { ParameterName: { Ref: 'ApiKeysParameter' } } },
      {
        Version: '2012-10-17',
        Statement: [
          { Effect: 'Allow', Action: ['dynamodb:UpdateItem', 'dynamodb:GetItem'], Resource: { 'Fn::GetAtt': ['RateLimitTable', 'Arn'] } },
        ],
      },
    ]);
  });

  it('makes the rate-limit table as the store defines it: on demand, key pk, Time to Live on ttl', async () => {
    const { dynamoDBRateLimitTable } = await import('../../packages/trellis/src/ratelimit/dynamodb/index.js');
    const table = (readTemplate(API_TEMPLATE) as any).Resources.RateLimitTable;
    const { createTable, timeToLive } = dynamoDBRateLimitTable('ignored');
    assert.equal(table.Type, 'AWS::DynamoDB::Table');
    assert.equal(table.Properties.BillingMode, createTable.BillingMode);
    assert.deepEqual(table.Properties.AttributeDefinitions, createTable.AttributeDefinitions);
    assert.deepEqual(table.Properties.KeySchema, createTable.KeySchema);
    assert.deepEqual(table.Properties.TimeToLiveSpecification, timeToLive.TimeToLiveSpecification);
  });
});

describe('the template validator', () => {
  const base = () => readTemplate(API_TEMPLATE) as any;
  const problemsOf = (mutate: (t: any) => void) => {
    const t = base();
    mutate(t);
    return validateTemplate(t);
  };

  it('reads the short forms of intrinsic functions, and refuses unknown tags', () => {
    const t = parseTemplate(
      'Resources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      QueueName: !Sub "${AWS::StackName}-q"\n      DelaySeconds: !If [Slow, 5, !Ref AWS::NoValue]\nConditions:\n  Slow: !Equals [!Ref AWS::Region, eu-west-1]\n',
    );
    assert.deepEqual((t as any).Resources.Q.Properties.DelaySeconds, { 'Fn::If': ['Slow', 5, { Ref: 'AWS::NoValue' }] });
    assert.deepEqual(validateTemplate(t), []);
    assert.throws(() => parseTemplate('Resources:\n  Q:\n    Type: !Reff X\n'), /Unresolved tag: !Reff/);
    assert.throws(() => parseTemplate('a: [1\n'), /not a readable template/);
  });

  it('finds unknown properties, wrong types, missing required properties and unknown resource types', () => {
    assert.deepEqual(
      problemsOf((t) => {
        t.Resources.OrdersFunction.Properties.Runtim = 'nodejs24.x';
      }).map((p) => p.path),
      ['/Resources/OrdersFunction/Properties'],
    );
    assert.ok(
      problemsOf((t) => {
        t.Resources.OrdersFunction.Properties.MemorySize = 'lots';
      }).some((p) => p.path === '/Resources/OrdersFunction/Properties/MemorySize'),
    );
    assert.ok(
      problemsOf((t) => {
        t.Resources.OrdersLogs.Properties.RetentionInDays = [14];
      }).some((p) => p.path === '/Resources/OrdersLogs/Properties/RetentionInDays'),
    );
    assert.ok(
      problemsOf((t) => {
        t.Resources.Extra = { Type: 'AWS::SQS::Queue', Properties: { Nope: 1 } };
      }).some((p) => p.path === '/Resources/Extra/Properties'),
    );
    assert.ok(
      problemsOf((t) => {
        t.Resources.Topic = { Type: 'AWS::SNS::Subscription', Properties: { Protocol: 'email' } };
      }).some((p) => /TopicArn/.test(p.message)),
      'required property missing',
    );
    assert.ok(
      problemsOf((t) => {
        t.Resources.X = { Type: 'AWS::Lambda::Functio' };
      }).some((p) => /unknown resource type AWS::Lambda::Functio/.test(p.message)),
    );
    assert.ok(
      problemsOf((t) => {
        delete t.Resources;
      }).some((p) => /Resources/.test(p.message)),
    );
    assert.ok(
      problemsOf((t) => {
        t.Parameters.ApiKeysParameter.Type = 'Text';
      }).length > 0,
    );
  });

  it("knows today's resource properties: a function URL with response streaming, the nodejs24.x runtime", () => {
    assert.deepEqual(
      problemsOf((t) => {
        t.Resources.OrdersFunction.Properties.FunctionUrlConfig = { AuthType: 'AWS_IAM', InvokeMode: 'RESPONSE_STREAM' };
      }),
      [],
    );
    assert.ok(
      problemsOf((t) => {
        t.Resources.OrdersFunction.Properties.FunctionUrlConfig = { AuthTyp: 'NONE' };
      }).some((p) => p.path.includes('FunctionUrlConfig')),
    );
    assert.deepEqual(
      problemsOf((t) => {
        t.Resources.Url = {
          Type: 'AWS::Lambda::Url',
          Properties: { AuthType: 'NONE', TargetFunctionArn: { 'Fn::GetAtt': ['OrdersFunction', 'Arn'] } },
        };
      }),
      [],
    );
  });

  it('checks event sources by their type', () => {
    assert.ok(
      problemsOf((t) => {
        t.Resources.OrdersFunction.Properties.Events.Api.Properties.Verb = 'ANY';
      }).some((p) => p.path.startsWith('/Resources/OrdersFunction/Properties/Events/Api')),
    );
    assert.ok(
      problemsOf((t) => {
        t.Resources.OrdersFunction.Properties.Events.Api.Type = 'HttpAPI';
      }).length > 0,
    );
  });

  it('finds references to nothing', () => {
    assert.ok(
      problemsOf((t) => {
        t.Resources.OrdersFunction.Properties.Environment.Variables.API_KEYS_PARAMETER = { Ref: 'ApiKey' };
      }).some((p) => /Ref names nothing defined: "ApiKey"/.test(p.message)),
    );
    assert.ok(
      problemsOf((t) => {
        t.Outputs.FunctionArn.Value = { 'Fn::GetAtt': ['OrderFunction', 'Arn'] };
      }).some((p) => /names no resource: OrderFunction/.test(p.message)),
    );
    assert.ok(
      problemsOf((t) => {
        t.Outputs.ApiUrl.Value = { 'Fn::Sub': 'https://${OrderApi}.example' };
      }).some((p) => /\$\{OrderApi\}/.test(p.message)),
    );
    assert.ok(
      problemsOf((t) => {
        t.Outputs.LogArn = { Value: { 'Fn::GetAtt': ['OrdersLogs', 'Nme'] } };
      }).some((p) => /has no attribute Nme/.test(p.message)),
    );
    assert.deepEqual(
      problemsOf((t) => {
        t.Outputs.Role = { Value: { 'Fn::GetAtt': ['OrdersFunctionRole', 'Arn'] } };
      }),
      [],
      'SAM makes a role for a function without one',
    );
  });
});
