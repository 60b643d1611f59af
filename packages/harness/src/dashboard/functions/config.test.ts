import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { FunctionsConfigError, loadFunctionsFile, parseEndpoint, validateFunctionsConfig } from './index.js';

const fixtures = fileURLToPath(new URL('../../../../../test/fixtures/functions/', import.meta.url)).replace(/\/$/, '');

function rejects(value: unknown, entry: string, message: RegExp): void {
  assert.throws(
    () => validateFunctionsConfig(value, fixtures),
    (error: unknown) => {
      assert.ok(error instanceof FunctionsConfigError, String(error));
      assert.equal(error.entry, entry);
      assert.match(error.message, message);
      return true;
    },
  );
}

describe('parseEndpoint', () => {
  test('names, qualified names, partial and full ARNs', () => {
    assert.deepEqual(parseEndpoint('hello'), { name: 'hello' });
    assert.deepEqual(parseEndpoint('hello:prod'), { name: 'hello', qualifier: 'prod' });
    assert.deepEqual(parseEndpoint('hello:$LATEST'), { name: 'hello', qualifier: '$LATEST' });
    assert.deepEqual(parseEndpoint('111122223333:function:hello:7'), { name: 'hello', qualifier: '7', accountId: '111122223333' });
    assert.deepEqual(parseEndpoint('arn:aws:lambda:eu-west-1:111122223333:function:hello:live'), {
      name: 'hello',
      qualifier: 'live',
      region: 'eu-west-1',
      accountId: '111122223333',
      partition: 'aws',
      unqualifiedArn: 'arn:aws:lambda:eu-west-1:111122223333:function:hello',
    });
    for (const bad of ['', 'a b', 'arn:aws:s3:::bucket', 'arn:aws:lambda:eu-west-1:123:function:x', 'hello:', 'x:y:z']) {
      assert.equal(parseEndpoint(bad), undefined, bad);
    }
  });

  test('property: the qualifier never changes which function an ARN names', () => {
    const name = fc.stringMatching(/^[a-zA-Z0-9_-]{1,64}$/);
    const qualifier = fc.oneof(fc.constant('$LATEST'), fc.stringMatching(/^[a-zA-Z0-9_-]{1,20}$/));
    const account = fc.stringMatching(/^\d{12}$/);
    const region = fc.constantFrom('us-east-1', 'eu-west-1', 'ap-southeast-2');
    fc.assert(
      fc.property(name, qualifier, account, region, (n, q, a, r) => {
        const arn = `arn:aws:lambda:${r}:${a}:function:${n}`;
        const plain = parseEndpoint(arn);
        const qualified = parseEndpoint(`${arn}:${q}`);
        assert.equal(plain?.unqualifiedArn, arn);
        assert.equal(qualified?.unqualifiedArn, arn);
        assert.equal(qualified?.name, n);
        assert.equal(qualified?.qualifier, q);
        assert.equal(parseEndpoint(`${n}:${q}`)?.name, n);
      }),
    );
  });

  test('property: never throws, and anything parsed has a valid name', () => {
    fc.assert(
      fc.property(fc.string(), (s) => {
        const parsed = parseEndpoint(s);
        if (parsed) assert.match(parsed.name, /^[a-zA-Z0-9_-]+$/);
      }),
    );
  });
});

describe('validateFunctionsConfig', () => {
  test('accepts the documented example shape and resolves against the folder', () => {
    const config = validateFunctionsConfig(
      {
        functions: {
          greeter: { handler: 'cjs/behaviours.hello', timeoutSeconds: 10, environment: { STAGE: 'test' } },
          'arn:aws:lambda:eu-west-1:111122223333:function:report': { invokeUrl: 'http://127.0.0.1:3001' },
          inventory: { handler: 'py/inventory.lambda_handler', runtime: 'python' },
          ts: { handler: 'ts/doubler.handlers.main', memoryMB: 256 },
        },
        invokeUrl: 'http://127.0.0.1:3001',
      },
      fixtures,
    );
    assert.equal(config.baseDir, fixtures);
    assert.equal(config.invokeUrl, 'http://127.0.0.1:3001');
    assert.deepEqual(Object.keys(config.functions), [
      'greeter',
      'arn:aws:lambda:eu-west-1:111122223333:function:report',
      'inventory',
      'ts',
    ]);
    assert.deepEqual(config.functions.greeter, { handler: 'cjs/behaviours.hello', timeoutSeconds: 10, environment: { STAGE: 'test' } });
  });

  test('accepts in-process functions given in code', () => {
    const handler = (): string => '<p>hi</p>';
    assert.equal(validateFunctionsConfig({ functions: { hi: { handler } } }, fixtures).functions.hi?.handler, handler);
  });

  test('names the bad entry and says what would be right', () => {
    rejects(null, '', /must be an object/);
    rejects({ functions: [] }, 'functions', /^functions must be an object mapping a function name or ARN to its settings, got \[\]$/);
    rejects({}, 'functions', /^functions must be an object mapping .*, got nothing$/);
    rejects({ functions: {}, extra: 1 }, 'extra', /unknown field "extra"/);
    rejects(
      { functions: { 'bad name!': { handler: 'cjs/behaviours.hello' } } },
      'functions["bad name!"]',
      /function name .* or a full ARN/,
    );
    rejects({ functions: { a: 'cjs/behaviours.hello' } }, 'functions["a"]', /must be an object/);
    rejects({ functions: { a: {} } }, 'functions["a"]', /needs "handler"/);
    rejects({ functions: { a: { handler: 'cjs/behaviours.hello', invokeUrl: 'http://x' } } }, 'functions["a"]', /exactly one/);
    rejects(
      { functions: { a: { handler: 'cjs/behaviours.hello', timout: 3 } } },
      'functions["a"].timout',
      /unknown field "timout"; known fields: handler/,
    );
    rejects({ functions: { a: { handler: 'cjs/behaviours' } } }, 'functions["a"].handler', /"path\/file.exportName"/);
    rejects(
      { functions: { a: { handler: 'cjs/nothing-here.handler' } } },
      'functions["a"].handler',
      /no module .*nothing-here with extension/,
    );
    rejects({ functions: { a: { handler: 'py/missing.handler', runtime: 'python' } } }, 'functions["a"].handler', /no Python module/);
    rejects(
      { functions: { a: { handler: 'py/inventory.lambda_handler', runtime: 'ruby' } } },
      'functions["a"].runtime',
      /runtime must be one of "nodejs", "nodejs20\.x", .*"python", .*got "ruby"/,
    );
    rejects(
      { functions: { a: { handler: 'cjs/behaviours.hello', timeoutSeconds: '10' } } },
      'functions["a"].timeoutSeconds',
      /greater than 0 and at most 900, got "10"/,
    );
    rejects(
      { functions: { a: { handler: 'cjs/behaviours.hello', timeoutSeconds: 0 } } },
      'functions["a"].timeoutSeconds',
      /greater than 0/,
    );
    rejects({ functions: { a: { handler: 'cjs/behaviours.hello', memoryMB: 64 } } }, 'functions["a"].memoryMB', /128 to 10240/);
    rejects({ functions: { a: { invokeUrl: 'ftp://x' } } }, 'functions["a"].invokeUrl', /http\(s\) base URL/);
    rejects({ functions: {}, invokeUrl: 'not a url' }, 'invokeUrl', /http\(s\) base URL/);
    rejects(
      { functions: { a: { handler: 'cjs/behaviours.hello', environment: { AWS_REGION: 'x' } } } },
      'functions["a"].environment["AWS_REGION"]',
      /reserved/,
    );
    rejects(
      { functions: { a: { handler: 'cjs/behaviours.hello', environment: { STAGE: 3 } } } },
      'functions["a"].environment["STAGE"]',
      /must be a string/,
    );
    rejects(
      { functions: { a: { handler: 'cjs/behaviours.hello', environment: { '1X': 'y' } } } },
      'functions["a"].environment["1X"]',
      /starts with a letter/,
    );
  });

  test('the schema and the checks after it name entries the same way', () => {
    rejects(
      { functions: {}, passEnvironment: ['HOME', 7] },
      'passEnvironment[1]',
      /^passEnvironment\[1\] must be a variable name .*, got 7$/,
    );
    rejects(
      { functions: {}, awsEndpoint: { region: 'eu-west-1' } },
      'awsEndpoint.url',
      /^awsEndpoint\.url must be an http\(s\) base URL .*, got nothing$/,
    );
    rejects(
      { functions: {}, awsEndpoint: 'localhost:4566' },
      'awsEndpoint',
      /^awsEndpoint must be an http\(s\) base URL .*, got "localhost:4566"$/,
    );
    rejects(
      { functions: { a: { invokeUrl: 'http://x', nope: 1 } } },
      'functions["a"].nope',
      /^functions\["a"\] has unknown field "nope"; known fields: handler, runtime,/,
    );
    rejects(
      { functions: { a: { handler: 'cjs/behaviours.hello', setup: [''] } } },
      'functions["a"].setup[0]',
      /must be a path to a module, got ""/,
    );
    // A field left undefined in code is absent, as in JSON.
    const handler = (): string => 'hi';
    assert.deepEqual(
      validateFunctionsConfig({ functions: { f: { handler, timeoutSeconds: undefined } }, invokeUrl: undefined }, fixtures).functions,
      {
        f: { handler },
      },
    );
  });

  test('property: any non-object value for a function is refused with its entry named', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.integer())), (bad) => {
        rejects({ functions: { f: bad } }, 'functions["f"]', /must be an object/);
      }),
    );
  });
});

describe('loadFunctionsFile', () => {
  test('reads a file and resolves relative handlers against its folder', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'trellis-functions-'));
    await mkdir(join(dir, 'widgets'));
    await writeFile(join(dir, 'widgets', 'greeter.cjs'), 'exports.handler = async () => "hi";');
    await writeFile(join(dir, 'functions.json'), JSON.stringify({ functions: { greeter: { handler: 'widgets/greeter.handler' } } }));
    const config = await loadFunctionsFile(join(dir, 'functions.json'));
    assert.equal(config.baseDir, dir);
    assert.equal(config.functions.greeter?.handler, 'widgets/greeter.handler');
  });

  test('a bad file stops with a message naming the file and the entry', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'trellis-functions-'));
    const file = join(dir, 'functions.json');
    await writeFile(file, '{ "functions": { "x": { "handler": "nope/missing.handler" } } }');
    await assert.rejects(
      loadFunctionsFile(file),
      (e: unknown) => e instanceof FunctionsConfigError && e.message.startsWith(`${file}:1:25: functions["x"].handler`),
    );
    // The position is the bad value's, wherever the entry sits: nested keys, quoted names, array items.
    const lines = [
      '{',
      '  "functions": {',
      '    "a b": { "handler": "cjs/behaviours.hello" },',
      '    "ok": {',
      '      "handler": "cjs/behaviours.hello",',
    ];
    await writeFile(file, [...lines, '      "environment": { "STAGE": "3" }', '    }', '  }', '}'].join('\n'));
    await assert.rejects(
      loadFunctionsFile(file),
      (e: unknown) => e instanceof FunctionsConfigError && e.message.startsWith(`${file}:3:5: functions["a b"]`),
    );
    await writeFile(file, JSON.stringify({ functions: { ok: { invokeUrl: 'http://127.0.0.1:1', environment: { 'X"Y': 3 } } } }, null, 2));
    await assert.rejects(
      loadFunctionsFile(file),
      (e: unknown) => e instanceof FunctionsConfigError && e.message.startsWith(`${file}:6:9: functions["ok"].environment["X\\"Y"]`),
    );
    await writeFile(file, JSON.stringify({ functions: {}, passEnvironment: ['HOME', '1X'] }, null, 2));
    await assert.rejects(
      loadFunctionsFile(file),
      (e: unknown) => e instanceof FunctionsConfigError && e.message.startsWith(`${file}:5:5: passEnvironment[1]`),
    );
    await writeFile(file, '[]');
    await assert.rejects(
      loadFunctionsFile(file),
      (e: unknown) => e instanceof FunctionsConfigError && e.message.startsWith(`${file}:1:1: the functions configuration`),
    );
    await writeFile(file, '{ "functions": ');
    await assert.rejects(loadFunctionsFile(file), /is not valid JSON/);
    await assert.rejects(loadFunctionsFile(join(dir, 'absent.json')), /cannot read the functions file/);
  });
});
