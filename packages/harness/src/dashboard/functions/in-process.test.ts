import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { FunctionRegistry, type InProcessHandler, type LambdaContext } from './index.js';

function only(handler: InProcessHandler, timeoutSeconds?: number): FunctionRegistry {
  return new FunctionRegistry({ functions: { fn: { handler, ...(timeoutSeconds ? { timeoutSeconds } : {}) } } });
}

describe('in-process JavaScript functions', () => {
  test('async, sync and promise results; the event and result make a JSON round trip', async () => {
    const event = { name: 'Ada', when: new Date(0) };
    let seen: unknown;
    const r = only(async (e) => {
      seen = e;
      e.name = 'changed';
      return { html: `<p>${e.when}</p>`, at: new Date(1000) };
    });
    const outcome = await r.invoke('fn', event);
    assert.deepEqual(outcome.value, { html: '<p>1970-01-01T00:00:00.000Z</p>', at: '1970-01-01T00:00:01.000Z' });
    assert.equal(event.name, 'Ada', 'the caller’s event is not shared with the function');
    assert.notEqual(seen, event);
    assert.equal((await only(() => '<b>sync</b>').invoke('fn', {})).value, '<b>sync</b>');
    assert.equal((await only(() => undefined).invoke('fn', {})).value, null);
  });

  test('callback style, including a callback called later', async () => {
    const r = only((_e, _c, callback) => {
      setTimeout(() => callback?.(null, 'called back'), 5);
    });
    assert.equal((await r.invoke('fn', {})).value, 'called back');
    const failing = only((_e, _c, callback) => callback?.('nope'));
    assert.deepEqual((await failing.invoke('fn', {})).error, { type: 'string', message: 'nope', trace: [] });
  });

  test('the context: fields, fresh request ids, remaining time', async () => {
    const contexts: LambdaContext[] = [];
    const r = new FunctionRegistry({
      functions: {
        'arn:aws:lambda:eu-west-1:111122223333:function:ctx': {
          handler: (_e: unknown, c: LambdaContext) => void contexts.push(c),
          timeoutSeconds: 2,
        },
      },
    });
    const first = await r.invoke('ctx', {});
    await r.invoke('arn:aws:lambda:eu-west-1:111122223333:function:ctx:prod', {});
    await r.invoke('ctx:7', {});
    const [a, b] = contexts as [LambdaContext, LambdaContext];
    assert.equal(a.functionName, 'ctx');
    assert.equal(a.functionVersion, '$LATEST');
    assert.equal(a.memoryLimitInMB, '128');
    assert.equal(a.logGroupName, '/aws/lambda/ctx');
    assert.equal(a.invokedFunctionArn, 'arn:aws:lambda:eu-west-1:111122223333:function:ctx');
    assert.equal(b.invokedFunctionArn, 'arn:aws:lambda:eu-west-1:111122223333:function:ctx:prod');
    assert.equal(contexts[2]?.invokedFunctionArn, 'arn:aws:lambda:eu-west-1:111122223333:function:ctx:7');
    assert.equal(a.awsRequestId, first.awsRequestId);
    assert.notEqual(a.awsRequestId, b.awsRequestId);
    const remaining = a.getRemainingTimeInMillis();
    assert.ok(remaining <= 2000 && remaining > 1000, `remaining ${remaining}`);
  });

  test('errors: Error, TypeError, thrown string, rejected promise', async () => {
    const error = (
      await only(() => {
        throw new TypeError('bad type');
      }).invoke('fn', {})
    ).error;
    assert.equal(error?.type, 'TypeError');
    assert.equal(error?.message, 'bad type');
    assert.match(error?.trace?.[0] ?? '', /^TypeError: bad type/);
    assert.deepEqual(
      (
        await only(() => {
          throw 'just a string';
        }).invoke('fn', {})
      ).error,
      { type: 'string', message: 'just a string', trace: [] },
    );
    assert.equal((await only(async () => Promise.reject(new Error('rejected'))).invoke('fn', {})).error?.message, 'rejected');
  });

  test('console output during an invocation is kept as its logs, concurrent invocations apart', async () => {
    const r = only(async (e) => {
      console.log('start %s', e.n);
      await new Promise((resolve) => setTimeout(resolve, 10 * e.n));
      console.error('end', e.n);
      return e.n;
    });
    const [a, b] = await Promise.all([r.invoke('fn', { n: 1 }), r.invoke('fn', { n: 2 })]);
    assert.match(a.logs, new RegExp(`^\\S+Z\\t${a.awsRequestId}\\tINFO\\tstart 1\\n\\S+Z\\t${a.awsRequestId}\\tERROR\\tend 1\\n$`));
    assert.match(b.logs, /start 2\n.*end 2\n$/);
    assert.doesNotMatch(b.logs, /start 1/);
  });

  test('a function that never settles ends at its timeout', async () => {
    const outcome = await only(() => new Promise(() => {}), 0.2).invoke('fn', {});
    assert.deepEqual(outcome.error, { type: 'Sandbox.Timedout', message: 'Task timed out after 0.20 seconds' });
    assert.ok(outcome.durationMs >= 190 && outcome.durationMs < 1000);
  });

  test('an abort rejects with the signal’s reason', async () => {
    const controller = new AbortController();
    const pending = only(() => new Promise(() => {}), 5).invoke('fn', {}, { signal: controller.signal });
    controller.abort(new Error('stop'));
    await assert.rejects(pending, /stop/);
  });
});
