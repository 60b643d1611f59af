// A widget's limits are Lambda's: memory enforced (Runtime.OutOfMemory), every process it starts ends with it
// (timeout, crash, close), synchronous writes to stdout work.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { FunctionRegistry } from '../../packages/harness/src/dashboard/index.js';
import { alive } from '../support/process-alive.js';

const fixtures = fileURLToPath(new URL('../fixtures/functions/', import.meta.url));
const fn = (name: string, extra: object = {}) => ({ handler: `esm/limits.${name}`, timeoutSeconds: 20, ...extra });

async function gone(pids: number[]): Promise<number[]> {
  for (let i = 0; i < 50 && pids.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
  return pids.filter(alive);
}

describe('widget limits', { timeout: 120_000 }, () => {
  const registry = new FunctionRegistry({
    baseDir: fixtures,
    functions: {
      heap: fn('heap', { memoryMB: 128 }),
      buffers: fn('buffers', { memoryMB: 128 }),
      small: fn('small', { memoryMB: 128 }),
      stay: fn('spawnAndStay', { timeoutSeconds: 2 }),
      crash: fn('spawnAndStay'),
      closing: fn('spawnAndStay'),
      writeSync: fn('writeSyncStdout'),
      pyGrow: { handler: 'py/limits.grow', runtime: 'python' as const, timeoutSeconds: 20, memoryMB: 128 },
      pyStay: { handler: 'py/limits.spawn_and_stay', runtime: 'python' as const, timeoutSeconds: 2 },
    },
  });
  after(() => registry.close());
  const dir = mkdtempSync(join(tmpdir(), 'trellis-limits-'));

  it('ends a 128 MB function that grows its heap or its buffers past 128 MB with Runtime.OutOfMemory', async () => {
    for (const name of ['heap', 'buffers']) {
      const outcome = await registry.invoke(name, {});
      assert.equal(outcome.ok, false, `${name} returned ${JSON.stringify(outcome.value)}`);
      assert.equal(outcome.error!.type, 'Runtime.OutOfMemory', `${name}: ${JSON.stringify(outcome.error)}`);
    }
    const small = await registry.invoke('small', {});
    assert.equal(small.ok, true, JSON.stringify(small.error));
  });

  it('kills the children a function started, detached ones included, when it times out', async () => {
    const pidFile = join(dir, 'stay.json');
    const outcome = await registry.invoke('stay', { pidFile });
    assert.equal(outcome.error?.type, 'Sandbox.Timedout');
    assert.deepEqual(await gone(JSON.parse(readFileSync(pidFile, 'utf8'))), []);
  });

  it('kills them when the function crashes, and when the harness closes its functions', async () => {
    const crashFile = join(dir, 'crash.json');
    const crashed = await registry.invoke('crash', { pidFile: crashFile, crash: true });
    assert.equal(crashed.error?.type, 'Runtime.ExitError');
    assert.deepEqual(await gone(JSON.parse(readFileSync(crashFile, 'utf8'))), []);
    const closeFile = join(dir, 'close.json');
    const own = new FunctionRegistry({ baseDir: fixtures, functions: { closing: fn('spawnAndStay') } });
    const pending = own.invoke('closing', { pidFile: closeFile });
    // Until the function has written its children's ids whole (the file exists a moment before).
    for (let i = 0; i < 100; i++) {
      try {
        JSON.parse(readFileSync(closeFile, 'utf8'));
        break;
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    await own.close();
    await pending.catch(() => undefined);
    assert.deepEqual(await gone(JSON.parse(readFileSync(closeFile, 'utf8'))), []);
  });

  it('holds a Python function to its memory and ends its children with it', async () => {
    const grown = await registry.invoke('pyGrow', {});
    assert.equal(grown.error?.type, 'Runtime.OutOfMemory', JSON.stringify(grown.error ?? grown.value));
    const pidFile = join(dir, 'py.json');
    const stayed = await registry.invoke('pyStay', { pidFile });
    assert.equal(stayed.error?.type, 'Sandbox.Timedout');
    assert.deepEqual(await gone(JSON.parse(readFileSync(pidFile, 'utf8'))), []);
  });

  it('lets a function write to stdout with fs.writeSync, as on Lambda (once EAGAIN)', async () => {
    const outcome = await registry.invoke('writeSync', {});
    assert.equal(outcome.ok, true, JSON.stringify(outcome.error));
    assert.equal(outcome.value, 'written');
    assert.match(outcome.logs, /x{1000}/);
    assert.match(outcome.logs, /bytes too\nto stderr\n/);
  });
});
