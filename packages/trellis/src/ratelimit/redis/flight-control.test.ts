// A Redis that stays silent while its client keeps accepting calls (a stuck client) is said once per silence.
import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import type { RateLimitPolicy } from '../index.js';
import { FlightCall, FlightControl } from './flight-control.js';

// Time is a fake clock's: `pass(ms)` moves it a millisecond at a time and runs the control's timers that come
// due (mocked), then lets the immediates they scheduled run (the control checks for answers after the I/O phase).
let time = 0;
const clock = { now: () => time };
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const pass = async (ms: number): Promise<void> => {
  for (let i = 0; i < ms; i++) {
    time++;
    mock.timers.tick(1);
    await nextTurn();
  }
};
const mockTimers = (): void => {
  mock.timers.enable({ apis: ['setTimeout'] });
};

const policy: RateLimitPolicy = { key: 'GET /r#a', handler: 'GET /r', name: 'a', permitLimit: 5, windowSeconds: 60, scope: 'transport' };

/** A call whose outcome is read from its acquire's answer: Redis's reply, or a timeout failing open. */
class Call extends FlightCall {
  outcome: 'answered' | 'timed out' | undefined;
  constructor(private readonly onSend: (call: Call) => void) {
    super(policy, 1, 'failOpen', undefined);
    void this.promise().then((decision) => {
      const failed = decision.failedOpen?.error;
      this.outcome = failed instanceof Error && /answered nothing/.test(failed.message) ? 'timed out' : 'answered';
    });
  }
  send(): void {
    this.onSend(this);
  }
}

test('calls that keep timing out while Redis answers nothing are said once per silence, with how long it lasted', async (t) => {
  mockTimers();
  t.after(() => mock.timers.reset());
  const told: number[] = [];
  const control = new FlightControl(20, 100, 'queue', (silentMs) => told.push(silentMs), 150, clock);
  let answering = false;
  const start = (): Call => {
    const call = new Call((c) => {
      if (answering) setImmediate(() => c.reply({ allowed: true, limit: 5, remaining: 4, reset: 60, retryAfter: 0 }));
    });
    control.start(call);
    return call;
  };
  // Silent for 300 ms: every call times out, and the silence is said once, after 150 ms.
  const silent: Call[] = [];
  for (let i = 0; i < 10; i++) {
    silent.push(start());
    await pass(30);
  }
  await pass(60);
  assert.ok(silent.every((c) => c.outcome === 'timed out'));
  assert.equal(told.length, 1);
  assert.ok(told[0]! >= 150, `told after ${told[0]} ms`);
  // Redis answers again: nothing more is said, and the next silence is said again.
  answering = true;
  const answered = start();
  await pass(30);
  assert.equal(answered.outcome, 'answered');
  answering = false;
  for (let i = 0; i < 10; i++) {
    start();
    await pass(30);
  }
  await pass(60);
  assert.equal(told.length, 2);
});

test('a short silence (shorter than stuckMs) is only timeouts', async (t) => {
  mockTimers();
  t.after(() => mock.timers.reset());
  const told: number[] = [];
  const control = new FlightControl(20, 100, 'queue', (silentMs) => told.push(silentMs), 10_000, clock);
  const call = new Call(() => {});
  control.start(call);
  await pass(80);
  assert.equal(call.outcome, 'timed out');
  assert.deepEqual(told, []);
});
