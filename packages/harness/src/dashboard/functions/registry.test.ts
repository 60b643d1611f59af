import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { FunctionRegistry, type InvokeError } from './index.js';

const answer = (label: string) => () => label;

describe('FunctionRegistry: matching endpoints', () => {
  const registry = new FunctionRegistry({
    functions: {
      greeter: { handler: answer('greeter by name') },
      'arn:aws:lambda:eu-west-1:111122223333:function:report': { handler: answer('report by ARN') },
      'arn:aws:lambda:eu-west-1:111122223333:function:greeter': { handler: answer('greeter by ARN') },
    },
  });

  test('by name, by name with a qualifier, by full ARN with or without a qualifier', async () => {
    assert.equal((await registry.invoke('greeter', {})).value, 'greeter by name');
    assert.equal((await registry.invoke('greeter:prod', {})).value, 'greeter by name');
    assert.equal((await registry.invoke('arn:aws:lambda:eu-west-1:111122223333:function:greeter', {})).value, 'greeter by ARN');
    assert.equal((await registry.invoke('arn:aws:lambda:eu-west-1:111122223333:function:report:7', {})).value, 'report by ARN');
    assert.equal((await registry.invoke('report', {})).value, 'report by ARN', 'a name finds a function configured by ARN');
    assert.equal(
      (await registry.invoke('arn:aws:lambda:us-east-1:999999999999:function:greeter', {})).value,
      'greeter by name',
      'another ARN falls back to the name',
    );
    assert.equal(
      (await registry.invoke('arn:aws:lambda:us-east-1:999999999999:function:report', {})).value,
      'report by ARN',
      'even to a function configured by ARN',
    );
  });

  test('an unknown endpoint is FunctionNotFound naming it and listing the configured names', async () => {
    const endpoint = 'arn:aws:lambda:eu-west-1:111122223333:function:missing';
    const resolved = registry.resolve(endpoint) as InvokeError;
    assert.equal(resolved.type, 'FunctionNotFound');
    assert.ok(resolved.message.includes(JSON.stringify(endpoint)));
    for (const name of registry.names()) assert.ok(resolved.message.includes(name), name);
    const outcome = await registry.invoke('arn:aws:lambda:eu-west-1:999999999999:function:unknown', {});
    assert.equal(outcome.ok, false);
    assert.equal(outcome.error?.type, 'FunctionNotFound');
    assert.equal(outcome.logs, '');
    assert.equal((await registry.invoke('not a name!', {})).error?.type, 'FunctionNotFound');
    assert.match((new FunctionRegistry({ functions: {} }).resolve('x') as InvokeError).message, /no functions are configured/);
  });

  test('resolve returns the same warm target each time', () => {
    assert.equal(registry.resolve('greeter'), registry.resolve('greeter:1'));
    assert.deepEqual(registry.names(), [
      'greeter',
      'arn:aws:lambda:eu-west-1:111122223333:function:report',
      'arn:aws:lambda:eu-west-1:111122223333:function:greeter',
    ]);
  });

  test('property: invoke never rejects, whatever the endpoint', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string(), async (endpoint) => {
        const outcome = await registry.invoke(endpoint, {});
        assert.equal(typeof outcome.ok, 'boolean');
        if (!outcome.ok) assert.equal(outcome.error?.type, 'FunctionNotFound');
      }),
      { numRuns: 200 },
    );
  });

  test('after close, invocations fail without starting anything', async () => {
    const r = new FunctionRegistry({ functions: { a: { handler: answer('a') } } });
    await r.close();
    assert.equal((await r.invoke('a', {})).error?.type, 'Runtime.ExitError');
  });
});
