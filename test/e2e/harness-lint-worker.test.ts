// A costly /api/lint body is linted off the main thread: other requests are answered meanwhile, and a
// document that takes too long is refused with a 422 naming the time limit.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startHarness, type RunningHarness } from '../../packages/harness/src/harness/index.js';
import { lintOffThread } from '../../packages/harness/src/harness/lint-off-thread.js';

// Thousands of open formatting elements: the costliest shape measured (several microseconds a byte).
const costly = (bytes: number) => '<b><i><u>'.repeat(Math.ceil(bytes / 9));

describe('linting off the main thread', () => {
  let running: RunningHarness;
  before(async () => {
    running = await startHarness({ port: 0, functions: { functions: {} } });
  });
  after(() => running.close());

  it('answers other requests while a costly document is being linted', { timeout: 60_000 }, async () => {
    const order: string[] = [];
    const linting = fetch(`${running.url}/api/lint`, {
      method: 'POST',
      headers: { 'content-type': 'text/html' },
      body: costly(1024 * 1024),
    }).then(async (res) => {
      order.push(`lint ${res.status}`);
      return res.json();
    });
    // Give the lint request a head start so that it is being linted when the list is asked for.
    await new Promise((r) => setTimeout(r, 200));
    const listed = await fetch(`${running.url}/api/dashboards`);
    order.push(`list ${listed.status}`);
    const body = await linting;
    assert.deepEqual(order, ['list 200', 'lint 200']);
    assert.deepEqual(body, { findings: [] });
  });

  it('refuses a document that takes longer than the time limit with 422, and lints the next one', { timeout: 60_000 }, async () => {
    await assert.rejects(
      lintOffThread(costly(2 * 1024 * 1024), { timeoutMs: 50 }),
      (e: any) => e.status === 422 && /Linting took longer than 0.05 s/.test(e.message),
    );
    const findings = await lintOffThread(`<p onclick="x()">hi</p>${' '.repeat(20_000)}`);
    assert.deepEqual(
      findings.map((f) => f.attribute),
      ['onclick'],
    );
  });
});
