// The first handler shown in README.md and docs/lambda.md is examples/lambda-api/hello.ts, and it answers; the
// gateway identity docs/lambda.md shows is the example's. (Its guide is followed whole by guides.test.ts.)
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { httpEvent, readResult } from '../support/lambda-events.js';

const HELLO = readFileSync(new URL('../../examples/lambda-api/hello.ts', import.meta.url), 'utf8');

describe('the first Lambda handler', () => {
  it('docs/lambda.md shows it as the example file', () => {
    const doc = readFileSync(new URL('../../docs/lambda.md', import.meta.url), 'utf8');
    assert.equal(/```ts title="hello\.ts"\n([\s\S]*?)```/.exec(doc)?.[1], HELLO);
  });

  it('docs/lambda.md shows gateway-identity.ts as the example file', () => {
    const doc = readFileSync(new URL('../../docs/lambda.md', import.meta.url), 'utf8');
    const file = readFileSync(new URL('../../examples/lambda-api/gateway-identity.ts', import.meta.url), 'utf8');
    assert.equal(/```ts title="gateway-identity\.ts"\n([\s\S]*?)```/.exec(doc)?.[1], file);
  });

  it('the README shows it too', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const block = [...readme.matchAll(/```ts[^\n]*\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.includes("'trellis/lambda'"));
    assert.equal(block, HELLO);
  });

  it('answers', async () => {
    const { handler } = (await import('../../examples/lambda-api/hello.js')) as { handler: (e: unknown) => Promise<unknown> };
    const out = readResult(await handler(httpEvent('http-api', { path: '/hello' })));
    assert.equal(out.statusCode, 200);
    assert.deepEqual(JSON.parse(out.body), { hello: 'world' });
  });
});
