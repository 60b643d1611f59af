import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FunctionRegistry, type FunctionSpec, type InvokeOutcome } from './index.js';

const fixtures = fileURLToPath(new URL('../../../../../test/fixtures/functions/', import.meta.url));

function registry(functions: Record<string, FunctionSpec>): FunctionRegistry {
  const r = new FunctionRegistry({ functions, baseDir: fixtures });
  after(() => r.close());
  return r;
}

function errorOf(outcome: InvokeOutcome): { type: string; message: string } {
  assert.equal(outcome.ok, false, `expected an error, got ${JSON.stringify(outcome.value)}`);
  assert.ok(outcome.error);
  return outcome.error;
}

function valueOf(outcome: InvokeOutcome): any {
  assert.equal(outcome.ok, true, `expected a value, got ${JSON.stringify(outcome.error)}`);
  return outcome.value;
}

const behaviour = (name: string, extra: FunctionSpec = {}): FunctionSpec => ({
  handler: `cjs/behaviours.${name}`,
  timeoutSeconds: 5,
  ...extra,
});

describe('Node.js module handlers: finding the handler', () => {
  const r = registry({
    cjs: behaviour('hello'),
    esm: { handler: 'esm/widget.handler' },
    esmDefault: { handler: 'esm/widget.default.handler' },
    mjs: { handler: 'mixed/echo.handler' },
    cjsExt: { handler: 'mixed/legacy.handler' },
    nested: behaviour('nested.deeper.handler'),
    dots: { handler: 'dir.with.dots/file.group.handler' },
    absolute: { handler: `${fixtures}cjs/behaviours.hello` },
    ts: { handler: 'ts/widget.handler' },
    mts: { handler: 'ts/doubler.handlers.main' },
    tsCallback: { handler: 'ts-cjs/legacy.handler' },
  });

  test('CommonJS by the nearest package.json, and an absolute path', async () => {
    assert.equal(valueOf(await r.invoke('cjs', { name: 'Ada' })), '<h1>Hello Ada</h1>');
    assert.equal(valueOf(await r.invoke('absolute', { name: 'Bo' })), '<h1>Hello Bo</h1>');
  });

  test('ESM by the nearest package.json (with top-level await), and a nested property path', async () => {
    assert.equal(valueOf(await r.invoke('esm', { name: 'Ada' })), '<p>Hello from ESM, Ada</p><!-- esm -->');
    assert.equal(valueOf(await r.invoke('esmDefault', {})), 'default export');
    assert.equal(valueOf(await r.invoke('nested', {})), 'nested ok');
    assert.equal(valueOf(await r.invoke('dots', {})), 'from a folder with dots');
  });

  test('.mjs is loaded as ESM and .cjs as CommonJS, without the harness globals leaking in', async () => {
    assert.deepEqual(valueOf(await r.invoke('mjs', { a: [1, 'x'] })), { echo: { a: [1, 'x'] }, format: 'esm' });
    assert.deepEqual(valueOf(await r.invoke('cjsExt', {})), { format: 'cjs' });
  });

  test('TypeScript: .ts in an ESM package, .mts, and a callback-style .ts in a CommonJS package', async () => {
    assert.equal(valueOf(await r.invoke('ts', { name: 'typed' })), '<h2>TYPED</h2><small>ts</small>');
    assert.deepEqual(valueOf(await r.invoke('mts', { n: 21 })), { doubled: 42 });
    assert.deepEqual(valueOf(await r.invoke('tsCallback', { name: 'Ada' })), { greeting: 'hi Ada', format: 'cjs' });
  });
});

describe('Node.js module handlers: init errors as the runtime reports them', () => {
  const r = registry({
    syntax: { handler: 'broken/syntax.handler' },
    missing: { handler: 'broken/missing-dependency.handler' },
    initThrows: { handler: 'broken/throws-at-init.handler' },
    notExported: behaviour('doesNotExist'),
    notAFunction: behaviour('notAFunction'),
    hangs: { handler: 'broken/hangs-at-init.handler', initTimeoutSeconds: 0.3 },
  });

  test('a syntax error, a missing dependency, a throwing module', async () => {
    const syntax = errorOf(await r.invoke('syntax', {}));
    assert.equal(syntax.type, 'Runtime.UserCodeSyntaxError');
    assert.match(syntax.message, /^SyntaxError: /);
    const missing = errorOf(await r.invoke('missing', {}));
    assert.equal(missing.type, 'Runtime.ImportModuleError');
    assert.match(missing.message, /Cannot find module 'a-package-that-is-not-installed'/);
    const init = await r.invoke('initThrows', {});
    assert.deepEqual([errorOf(init).type, errorOf(init).message], ['Error', 'init failed']);
    assert.match(init.logs, /INFO\tinitialising/);
  });

  test('a handler that is not exported or not a function', async () => {
    const notExported = errorOf(await r.invoke('notExported', {}));
    assert.deepEqual(
      [notExported.type, notExported.message],
      ['Runtime.HandlerNotFound', 'cjs/behaviours.doesNotExist is undefined or not exported'],
    );
    assert.equal(errorOf(await r.invoke('notAFunction', {})).message, 'cjs/behaviours.notAFunction is not a function');
  });

  test('an init phase that never ends is stopped by the init timeout', async () => {
    const error = errorOf(await r.invoke('hangs', {}));
    assert.deepEqual([error.type, error.message], ['Sandbox.Timedout', 'Init timed out after 0.30 seconds']);
  });
});

describe('Node.js module handlers: the context and the environment', () => {
  const r = registry({
    context: behaviour('context'),
    big: behaviour('context', { memoryMB: 512, timeoutSeconds: 2 }),
    'arn:aws:lambda:eu-west-1:111122223333:function:env': behaviour('env', { environment: { STAGE: 'test' } }),
  });

  test('every context field, with a fresh request id per call', async () => {
    const first = await r.invoke('context', { q: 1 });
    const second = await r.invoke('context', { q: 2 });
    const a = valueOf(first);
    const b = valueOf(second);
    assert.equal(a.functionName, 'context');
    assert.equal(a.functionVersion, '$LATEST');
    assert.equal(a.invokedFunctionArn, 'arn:aws:lambda:us-east-1:123456789012:function:context');
    assert.equal(a.memoryLimitInMB, '128');
    assert.equal(a.logGroupName, '/aws/lambda/context');
    assert.match(a.logStreamName, /^\d{4}\/\d{2}\/\d{2}\/\[\$LATEST\][0-9a-f]{32}$/);
    assert.equal(b.logStreamName, a.logStreamName, 'a warm process keeps its log stream');
    assert.equal(a.awsRequestId, first.awsRequestId);
    assert.notEqual(a.awsRequestId, b.awsRequestId);
    assert.ok(a.remaining > 3000 && a.remaining <= 5000, `remaining ${a.remaining}`);
    assert.equal(a.callbackWaitsForEmptyEventLoop, true);
    assert.equal(a.awslambda, 'function');
    assert.deepEqual(a.event, { q: 1 });
  });

  test('configured memory and timeout; a qualified ARN is passed through as invokedFunctionArn', async () => {
    const arn = 'arn:aws:lambda:us-east-1:123456789012:function:big:prod';
    const v = valueOf(await r.invoke(arn, {}));
    assert.equal(v.memoryLimitInMB, '512');
    assert.equal(v.invokedFunctionArn, arn);
    assert.ok(v.remaining <= 2000);
  });

  test('Lambda environment variables, the configured environment, and the task root as working folder', async () => {
    const env = valueOf(await r.invoke('env', {}));
    assert.equal(env.AWS_LAMBDA_FUNCTION_NAME, 'env');
    assert.equal(env.AWS_LAMBDA_FUNCTION_VERSION, '$LATEST');
    assert.equal(env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE, '128');
    assert.equal(env.AWS_LAMBDA_LOG_GROUP_NAME, '/aws/lambda/env');
    assert.match(env.AWS_LAMBDA_LOG_STREAM_NAME, /\[\$LATEST\]/);
    assert.equal(env.AWS_REGION, 'eu-west-1');
    assert.equal(env.AWS_DEFAULT_REGION, 'eu-west-1');
    // The runtime of the Node.js the harness runs on.
    assert.equal(env.AWS_EXECUTION_ENV, `AWS_Lambda_nodejs${process.versions.node.split('.')[0]}.x`);
    assert.equal(env._HANDLER, 'cjs/behaviours.env');
    assert.equal(env.LAMBDA_TASK_ROOT, fixtures.replace(/\/$/, ''));
    assert.equal(env.cwd, fixtures.replace(/\/$/, ''));
    assert.equal(env.TZ, ':UTC');
    assert.equal(env.STAGE, 'test');
    assert.equal(env.NODE_TEST_CONTEXT, null);
  });
});

describe('Node.js module handlers: results and errors', () => {
  const r = registry({
    throwsError: behaviour('throwsError'),
    throwsTypeError: behaviour('throwsTypeError'),
    throwsString: behaviour('throwsString'),
    throwsSync: behaviour('throwsSync'),
    callback: behaviour('callback'),
    callbackError: behaviour('callbackError'),
    callbackString: behaviour('callbackString'),
    contextSucceed: behaviour('contextSucceed'),
    contextFail: behaviour('contextFail'),
    syncReturn: behaviour('syncReturn'),
    undefinedResult: behaviour('undefinedResult'),
    markdown: behaviour('markdown'),
    circular: behaviour('circular'),
    big: behaviour('big'),
    streaming: behaviour('streaming'),
  });

  test('thrown errors give the error document: type, message and stack lines', async () => {
    const e = errorOf(await r.invoke('throwsError', {})) as { type: string; message: string; trace: string[] };
    assert.deepEqual([e.type, e.message], ['Error', 'widget exploded']);
    assert.equal(e.trace[0], 'Error: widget exploded');
    assert.match(e.trace[1]!, /behaviours\.js/);
    assert.equal(errorOf(await r.invoke('throwsTypeError', {})).type, 'TypeError');
    assert.deepEqual(errorOf(await r.invoke('throwsString', {})), { type: 'string', message: 'plain string failure', trace: [] });
    assert.deepEqual(
      [errorOf(await r.invoke('throwsSync', {})).type, errorOf(await r.invoke('throwsSync', {})).message],
      ['RangeError', 'sync range'],
    );
  });

  test('callback style and the legacy context methods', async () => {
    assert.deepEqual(valueOf(await r.invoke('callback', { name: 'Ada' })), { via: 'callback', name: 'Ada' });
    assert.equal(errorOf(await r.invoke('callbackError', {})).type, 'TypeError');
    assert.deepEqual(errorOf(await r.invoke('callbackString', {})), { type: 'string', message: 'callback string failure', trace: [] });
    assert.deepEqual(valueOf(await r.invoke('contextSucceed', {})), { legacy: true });
    assert.equal(errorOf(await r.invoke('contextFail', {})).message, 'legacy failure');
  });

  test('JSON results as the Invoke API gives them: undefined and plain sync returns are null', async () => {
    assert.equal(valueOf(await r.invoke('syncReturn', {})), null);
    assert.equal(valueOf(await r.invoke('undefinedResult', {})), null);
    assert.deepEqual(valueOf(await r.invoke('markdown', {})), { markdown: '# Title' });
    assert.equal(errorOf(await r.invoke('circular', {})).type, 'Runtime.MarshalError');
  });

  test("a 6 MB result (just under Lambda's response limit) arrives whole", async () => {
    const bytes = 6_000_000;
    const value = valueOf(await r.invoke('big', { bytes }));
    assert.equal(typeof value, 'string');
    assert.equal(value.length, bytes);
  });

  test('a response-streaming handler (awslambda.streamifyResponse) gives its streamed body', async () => {
    assert.equal(valueOf(await r.invoke('streaming', {})), '<p>part one</p><p>part two</p>');
  });
});

describe('Node.js module handlers: the event loop, console output, timeouts and crashes', () => {
  const r = registry({
    waits: behaviour('callbackWaits'),
    logs: behaviour('logs'),
    chatty: behaviour('chatty'),
    // A second of slack: the concurrency tests below must not time out on a busy machine.
    stateful: behaviour('stateful', { timeoutSeconds: 1 }),
    never: behaviour('neverSettles', { timeoutSeconds: 0.3 }),
    exits: behaviour('exits'),
    uncaught: behaviour('uncaught'),
    unhandled: behaviour('unhandled'),
    hello: behaviour('hello'),
  });

  test('callbackWaitsForEmptyEventLoop: true waits for pending timers, false answers at once', async () => {
    const waited = await r.invoke('waits', { waits: true, timerMs: 50 });
    assert.equal(valueOf(waited), 'answered');
    assert.match(waited.logs, /timer fired after/);
    const immediate = await r.invoke('waits', { waits: false, timerMs: 400 });
    assert.equal(valueOf(immediate), 'answered');
    assert.doesNotMatch(immediate.logs, /timer fired/);
  });

  test('console output is kept per invocation in Lambda format', async () => {
    const first = await r.invoke('logs', { n: 1 });
    assert.equal(valueOf(first), 1);
    const lines = first.logs.trimEnd().split('\n');
    assert.equal(lines.length, 4);
    assert.match(lines[0]!, new RegExp(`^\\d{4}-\\d{2}-\\d{2}T[\\d:.]+Z\\t${first.awsRequestId}\\tINFO\\tlog line \\{ n: 1 \\}$`));
    assert.match(lines[1]!, /\tERROR\terror line$/);
    assert.match(lines[2]!, /\tWARN\twarn line$/);
    assert.equal(lines[3], 'raw stdout');
    const second = await r.invoke('logs', { n: 2 });
    assert.match(second.logs, /log line \{ n: 2 \}/);
    assert.doesNotMatch(second.logs, /n: 1/);
  });

  test('console output beyond 1 MiB per invocation is cut with a note', async () => {
    const outcome = await r.invoke('chatty', { lines: 1500 });
    assert.equal(valueOf(outcome), 'done');
    assert.ok(outcome.logs.length < 1024 * 1024 + 200, `logs ${outcome.logs.length}`);
    assert.match(outcome.logs, /\[log truncated: more than 1 MiB in one invocation\]\n$/);
  });

  test('a warm process is reused; a timeout kills it and the next call starts fresh', async () => {
    const a = valueOf(await r.invoke('stateful', {}));
    const b = valueOf(await r.invoke('stateful', {}));
    assert.deepEqual([a.calls, b.calls, b.pid], [1, 2, a.pid]);
    const timedOut = await r.invoke('stateful', { ms: 5000 });
    assert.deepEqual(errorOf(timedOut), { type: 'Sandbox.Timedout', message: 'Task timed out after 1.00 seconds' });
    assert.ok(timedOut.durationMs >= 1000 && timedOut.durationMs < 3000, `duration ${timedOut.durationMs}`);
    assert.throws(() => process.kill(a.pid, 0), { code: 'ESRCH' });
    const fresh = valueOf(await r.invoke('stateful', {}));
    assert.equal(fresh.calls, 1);
    assert.notEqual(fresh.pid, a.pid);
  });

  test('a promise that never settles ends at the timeout', async () => {
    assert.equal(errorOf(await r.invoke('never', {})).type, 'Sandbox.Timedout');
  });

  test('process.exit gives Runtime.ExitError with the output so far, and a fresh process next time', async () => {
    const crashed = await r.invoke('exits', {});
    assert.deepEqual(errorOf(crashed), { type: 'Runtime.ExitError', message: 'Runtime exited with error: exit status 3' });
    assert.match(crashed.logs, /about to exit/);
    const before = valueOf(await r.invoke('stateful', {}));
    assert.equal(errorOf(await r.invoke('stateful', { exit: 0 })).type, 'Runtime.ExitError');
    const after = valueOf(await r.invoke('stateful', {}));
    assert.equal(after.calls, 1);
    assert.notEqual(after.pid, before.pid);
  });

  test('an exception thrown in a timer or an unhandled rejection fails the invocation', async () => {
    const uncaught = await r.invoke('uncaught', {});
    assert.deepEqual([errorOf(uncaught).type, errorOf(uncaught).message], ['Error', 'thrown in a timer']);
    assert.match(uncaught.logs, /ERROR\tUncaught Exception/);
    const unhandled = errorOf(await r.invoke('unhandled', {}));
    assert.deepEqual([unhandled.type, unhandled.message], ['Runtime.UnhandledPromiseRejection', 'Error: nobody caught me']);
  });

  test('a hanging function affects only itself; concurrent calls run in parallel processes', async () => {
    const [hung, ok, x, y] = await Promise.all([
      r.invoke('never', {}),
      r.invoke('hello', { name: 'neighbour' }),
      r.invoke('stateful', { ms: 150 }),
      r.invoke('stateful', { ms: 150 }),
    ]);
    assert.equal(errorOf(hung).type, 'Sandbox.Timedout');
    assert.equal(valueOf(ok), '<h1>Hello neighbour</h1>');
    assert.notEqual(valueOf(x).pid, valueOf(y).pid);
  });

  test('more concurrent calls than processes wait their turn; waiting does not count towards the timeout', async () => {
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => r.invoke('stateful', { ms: 100 })));
    const pids = new Set(outcomes.map((o) => valueOf(o).pid));
    assert.ok(pids.size >= 2 && pids.size <= 4, `${pids.size} processes`);
  });

  test('an aborted invocation rejects with the signal reason', async () => {
    const controller = new AbortController();
    const pending = r.invoke('stateful', { ms: 200 }, { signal: controller.signal });
    controller.abort(new Error('caller gave up'));
    await assert.rejects(pending, /caller gave up/);
  });
});

describe('Node.js module handlers: closing', () => {
  test('close() kills every child process and later calls fail cleanly', async () => {
    const r = new FunctionRegistry({ functions: { s: behaviour('stateful') }, baseDir: fixtures });
    const { pid } = valueOf(await r.invoke('s', {}));
    await r.close();
    assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' });
    assert.equal(errorOf(await r.invoke('s', {})).type, 'Runtime.ExitError');
  });

  test('a host that exits without close() takes its child processes with it, even a busy one', async () => {
    const index = fileURLToPath(new URL('./index.ts', import.meta.url));
    const script = `
      const { FunctionRegistry } = await import(${JSON.stringify(index)});
      const r = new FunctionRegistry({ functions: { s: { handler: 'cjs/behaviours.stateful' } }, baseDir: ${JSON.stringify(fixtures)} });
      const o = await r.invoke('s', {});
      console.log(o.value.pid);
      void r.invoke('s', { spin: true });
      setTimeout(() => process.exit(0), 100);`;
    const pid = Number(
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' }).trim(),
    );
    assert.ok(pid > 0);
    // Gone, or a zombie waiting for the system to reap it: either way it no longer runs.
    const gone = (): boolean => {
      try {
        process.kill(pid, 0);
      } catch {
        return true;
      }
      try {
        return /^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return true;
      }
    };
    for (let i = 0; i < 50 && !gone(); i++) await new Promise((r) => setTimeout(r, 20));
    assert.ok(gone(), `process ${pid} is still running`);
  });
});
