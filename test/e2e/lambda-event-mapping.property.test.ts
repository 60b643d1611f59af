// Property: whatever path segment, query values and header value a client sends, the app sees the same
// through every kind of Lambda event as through inject(), and the body comes back byte for byte.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createApp, reply, route } from '../../packages/trellis/src/index.js';
import type { ExecutionContext } from '../../packages/trellis/src/index.js';
import { lambdaHandler } from '../../packages/trellis/src/lambda/index.js';
import { FIXTURE_KINDS, httpEvent, readResult } from '../support/lambda-events.js';

function app() {
  const a = createApp();
  // Query values by name: API Gateway 1.0 and load balancers hand them over grouped by name.
  const byName = (query: URLSearchParams) => Object.fromEntries([...new Set(query.keys())].sort().map((k) => [k, query.getAll(k)]));
  const seen = (ctx: ExecutionContext) => ({
    name: ctx.params.name,
    query: byName(ctx.request.query),
    note: ctx.request.headers.get('x-note') ?? null,
  });
  a.route(route('GET', '/items/:name', seen));
  a.route(
    route('POST', '/bytes', (ctx) =>
      reply(Buffer.from(String(ctx.body), 'base64'), {
        headers: { 'content-type': ctx.request.headers.get('x-type') ?? 'application/octet-stream' },
      }),
    ),
  );
  return a;
}

const segment = fc.string({ minLength: 1, maxLength: 12, unit: 'binary' });
const queryValue = fc.string({ maxLength: 10, unit: 'binary' });
const headerValue = fc.stringMatching(/^[\x21-\x7e]([\x20-\x7e]{0,20}[\x21-\x7e])?$/);

describe('event mapping agrees with inject()', () => {
  it('path parameters, query values and header values', async () => {
    const direct = app();
    const handler = lambdaHandler(app());
    await fc.assert(
      fc.asyncProperty(
        segment,
        fc.array(fc.tuple(fc.constantFrom('a', 'b', 'x y'), queryValue), { maxLength: 3 }),
        headerValue,
        fc.constantFrom(...FIXTURE_KINDS),
        async (name, pairs, note, kind) => {
          const path = `/items/${encodeURIComponent(name)}`;
          const query = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
          const expected = await direct.inject({ url: query ? `${path}?${query}` : path, headers: { 'x-note': note } });
          // Repeated names in a single-value map keep only the last value: those front doors cannot carry more.
          const singleValued = kind === 'alb';
          const names = pairs.map(([k]) => k);
          fc.pre(!singleValued || new Set(names).size === names.length);
          const got = readResult(await handler(httpEvent(kind, { path, query, headers: { 'x-note': note } })));
          assert.equal(got.statusCode, expected.statusCode);
          assert.deepEqual(JSON.parse(got.body), expected.json());
        },
      ),
      { numRuns: 150 },
    );
  });

  it('binary response bodies come back byte for byte, whatever their type', async () => {
    const handler = lambdaHandler(app());
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.constantFrom('application/octet-stream', 'image/png', 'text/plain', 'application/json'),
        fc.constantFrom(...FIXTURE_KINDS),
        async (bytes, type, kind) => {
          const event = httpEvent(kind, {
            method: 'POST',
            path: '/bytes',
            headers: { 'content-type': 'text/plain', 'x-type': type },
            body: Buffer.from(bytes).toString('base64'),
          });
          const out = readResult(await handler(event));
          assert.equal(out.statusCode, 200);
          assert.deepEqual(out.rawBody, Buffer.from(bytes));
        },
      ),
      { numRuns: 150 },
    );
  });
});
