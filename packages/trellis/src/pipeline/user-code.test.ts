import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Logger } from './logger.js';
import { UserCodeFailed, callUserCode, callUserCodeSync, type UserHook } from './user-code.js';

const HOOK: UserHook<number, string> = {
  where: 'Example.hook',
  instead: 'the default was used',
  accept: (answer) => {
    if (typeof answer !== 'number') throw new TypeError('it must answer a number');
    return answer;
  },
  fallback: ({ how }) => `default (${how})`,
};

function recording(): { logger: Logger; lines: Array<[string, Record<string, unknown> | undefined]> } {
  const lines: Array<[string, Record<string, unknown> | undefined]> = [];
  const logger: Logger = { warn: () => undefined, error: (message, details) => void lines.push([message, details]) };
  return { logger, lines };
}

describe('the user-code guard', () => {
  it('gives an answer that came at once at once, and waits for one that came with a promise', async () => {
    const { logger, lines } = recording();
    assert.equal(
      callUserCode(logger, HOOK, () => 7),
      7,
    );
    const later = callUserCode(logger, HOOK, () => Promise.resolve(8));
    assert.ok(later instanceof Promise);
    assert.equal(await later, 8);
    assert.deepEqual(lines, []);
  });

  it('a throw, a rejection and an unusable answer each give the fallback and one line naming the hook', async () => {
    const { logger, lines } = recording();
    const boom = new Error('boom');
    assert.equal(
      callUserCode(logger, HOOK, () => {
        throw boom;
      }),
      'default (threw)',
    );
    assert.equal(await callUserCode(logger, HOOK, () => Promise.reject(boom), 'GET /a'), 'default (rejected)');
    assert.equal(await callUserCode(logger, HOOK, async () => 'seven'), 'default (unusable)');
    assert.deepEqual(
      lines.map(([message]) => message),
      [
        'Example.hook threw Error: boom; the default was used',
        'Example.hook (GET /a) rejected with Error: boom; the default was used',
        'Example.hook answered "seven", which cannot be used: it must answer a number; the default was used',
      ],
    );
    assert.deepEqual(lines[0]![1], { hook: 'Example.hook', error: boom });
  });

  it('where the answer is needed at once, a promise is unusable and its rejection is caught', async () => {
    const { logger, lines } = recording();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      assert.equal(
        callUserCodeSync(logger, HOOK, () => Promise.reject(new Error('late'))),
        'default (unusable)',
      );
      await new Promise((resolve) => setImmediate(resolve));
      assert.deepEqual(unhandled, []);
      assert.match(lines[0]![0], /^Example\.hook answered a promise, which cannot be used: it must answer at once/);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('code that reported a hook inside it is not reported twice', () => {
    const { logger, lines } = recording();
    const answer = callUserCode(logger, HOOK, () => {
      throw new UserCodeFailed('reported already');
    });
    assert.equal(answer, 'default (threw)');
    assert.deepEqual(lines, []);
  });

  it('a Logger that throws or rejects has its line written to stderr, with one naming the method', async () => {
    const written: unknown[][] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => void written.push(args);
    try {
      const throwing: Logger = {
        warn: () => undefined,
        error: () => {
          throw new Error('disk full');
        },
      };
      void callUserCode(throwing, HOOK, () => 'x');
      const rejecting: Logger = { warn: () => undefined, error: () => Promise.reject(new Error('socket closed')) as never };
      void callUserCode(rejecting, HOOK, () => 'y');
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      console.error = original;
    }
    assert.deepEqual(
      written.map(([line]) => line),
      [
        '[trellis] Logger.error threw Error: disk full; its line was written to stderr',
        '[trellis] Example.hook answered "x", which cannot be used: it must answer a number; the default was used',
        '[trellis] Logger.error rejected with Error: socket closed; its line was written to stderr',
        '[trellis] Example.hook answered "y", which cannot be used: it must answer a number; the default was used',
      ],
    );
  });
});
