import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { FunctionRegistry } from './index.js';

const fixtures = fileURLToPath(new URL('../../../../../test/fixtures/functions/', import.meta.url));
const py = (fn: string, timeoutSeconds = 5) => ({ handler: `py/inventory.${fn}`, runtime: 'python' as const, timeoutSeconds });

describe('Python handlers', () => {
  const r = new FunctionRegistry({
    functions: {
      inventory: { ...py('lambda_handler'), environment: { STAGE: 'test' } },
      fails: py('fails'),
      sleeps: py('sleeps', 0.3),
      exits: py('exits'),
      notJson: py('not_json'),
      missing: py('no_such_function'),
      raw: py('raw_output'),
    },
    baseDir: fixtures,
  });
  after(() => r.close());

  test('runs lambda_handler(event, context) in a warm process with print and logging captured', async () => {
    const first = await r.invoke('inventory', { item: 'bolt' });
    assert.equal(first.ok, true, JSON.stringify(first.error));
    const v = first.value as Record<string, unknown>;
    assert.equal(v.html, '<table><tr><td>bolt</td><td>7</td></tr></table>');
    assert.equal(v.functionName, 'inventory');
    assert.equal(v.memory, '128');
    assert.equal(v.arn, 'arn:aws:lambda:us-east-1:123456789012:function:inventory');
    assert.equal(v.requestId, first.awsRequestId);
    assert.equal(v.logGroup, '/aws/lambda/inventory');
    assert.equal(v.stage, 'test');
    assert.equal(v.handlerEnv, 'py/inventory.lambda_handler');
    assert.ok((v.remaining as number) <= 5000 && (v.remaining as number) > 3000);
    assert.match(first.logs, /^inventory asked for bolt\n/);
    assert.match(first.logs, new RegExp(`\\[INFO\\]\\t\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\t${first.awsRequestId}\\tlogged via logging`));
    const second = await r.invoke('inventory', { item: 'nut' });
    assert.equal((second.value as Record<string, unknown>).calls, 2, 'the process stays warm');
    assert.doesNotMatch(second.logs, /bolt/);
  });

  test('raw writes to sys.stdout, its buffer and sys.stderr belong to the invocation', async () => {
    const outcome = await r.invoke('raw', {});
    assert.equal(outcome.value, 'ok');
    assert.equal(outcome.logs, 'bytes out\nno newlineto stderr\n');
  });

  test('an exception gives the error document with its type and stack', async () => {
    const outcome = await r.invoke('fails', { item: 'gear' });
    assert.equal(outcome.error?.type, 'ValueError');
    assert.equal(outcome.error?.message, 'no such item: gear');
    assert.match(outcome.error?.trace?.[0] ?? '', /inventory\.py", line \d+, in fails/);
  });

  test('timeout, crash, a result that is not JSON, a missing handler', async () => {
    assert.deepEqual((await r.invoke('sleeps', { seconds: 5 })).error, {
      type: 'Sandbox.Timedout',
      message: 'Task timed out after 0.30 seconds',
    });
    assert.equal((await r.invoke('sleeps', { seconds: 0 })).value, 'woke', 'a fresh process after the timeout');
    assert.deepEqual((await r.invoke('exits', {})).error, {
      type: 'Runtime.ExitError',
      message: 'Runtime exited with error: exit status 4',
    });
    assert.equal((await r.invoke('notJson', {})).error?.type, 'Runtime.MarshalError');
    const missing = await r.invoke('missing', {});
    assert.equal(missing.error?.type, 'Runtime.HandlerNotFound');
    assert.match(missing.error?.message ?? '', /no_such_function/);
  });
});
