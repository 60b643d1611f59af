import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { alive } from '../support/process-alive.js';
import { FunctionRegistry, type InvokeOutcome } from '../../packages/harness/src/dashboard/index.js';

const fixtures = fileURLToPath(new URL('../fixtures/functions/', import.meta.url));

function registry(): FunctionRegistry {
  const r = new FunctionRegistry({ functions: { crashes: { handler: 'cjs/crashes.handler', timeoutSeconds: 10 } }, baseDir: fixtures });
  after(() => r.close());
  return r;
}

function valueOf(outcome: InvokeOutcome): { calls: number; pid: number } {
  assert.equal(outcome.ok, true, `expected a value, got ${JSON.stringify(outcome.error)} with logs ${outcome.logs}`);
  return outcome.value as { calls: number; pid: number };
}

describe('after a crash, the next invocation gets a fresh environment', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['timer', 'an exception thrown in a timer', /Error: thrown in a timer|thrown in a timer/],
    ['rejection', 'an unhandled rejection', /nobody handled this/],
    ['exit', 'process.exit', /exit status 7/],
  ];
  for (const [crash, what, message] of cases) {
    test(`${what}: the crashing call fails with its logs; three calls after it run normally, each with its logs`, async () => {
      const r = registry();
      const crashed = await r.invoke('crashes', { crash });
      assert.equal(crashed.ok, false);
      assert.match(crashed.error!.message, message);
      assert.match(crashed.logs, /call 1 in process (\d+)/);
      const crashedPid = Number(/call 1 in process (\d+)/.exec(crashed.logs)![1]);
      // As after a timeout, the crashing call is answered once its process is gone.
      assert.equal(alive(crashedPid), false, 'the crashed process is gone when its call is answered');
      const first = await r.invoke('crashes', {});
      const firstValue = valueOf(first);
      assert.equal(firstValue.calls, 1, 'a fresh environment counts from 1');
      assert.notEqual(firstValue.pid, crashedPid);
      assert.equal(alive(crashedPid), false, 'the crashed process is gone');
      assert.match(first.logs, new RegExp(`\\tINFO\\tcall 1 in process ${firstValue.pid}\\n`));
      for (const n of [2, 3]) {
        const next = await r.invoke('crashes', {});
        assert.deepEqual(valueOf(next), { calls: n, pid: firstValue.pid }, 'the fresh environment stays warm');
        assert.match(next.logs, new RegExp(`\\tINFO\\tcall ${n} in process ${firstValue.pid}\\n`));
      }
    });
  }

  test('three crashes in a row each get their own fresh environment and their own logs', async () => {
    const r = registry();
    const pids = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const crashed = await r.invoke('crashes', { crash: 'timer' });
      assert.deepEqual([crashed.ok, crashed.error?.type, crashed.error?.message], [false, 'Error', 'thrown in a timer']);
      const pid = /call 1 in process (\d+)/.exec(crashed.logs)?.[1];
      assert.ok(pid, `logs of crash ${i + 1}: ${crashed.logs}`);
      assert.match(crashed.logs, /ERROR\tUncaught Exception/);
      pids.add(pid);
    }
    assert.equal(pids.size, 3);
  });
});
