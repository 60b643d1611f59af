// What Validate gives a handler at run time: validated path parameters, headers, query and body, each
// refused with a problem naming what is wrong.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { createApp, route, Validate } from '../../packages/trellis/src/index.js';

const app = createApp().route(
  route(
    'PUT',
    '/orders/:id',
    [
      Validate({
        params: z.object({ id: z.coerce.number().int().positive() }),
        headers: z.object({ 'x-tenant': z.string().min(1) }),
        query: z.object({ dryRun: z.enum(['yes', 'no']).default('no') }),
        body: z.object({ sku: z.string() }),
      }),
    ],
    (ctx) => ({
      id: ctx.validatedParams.id,
      idType: typeof ctx.validatedParams.id,
      raw: ctx.params.id,
      tenant: ctx.validatedHeaders['x-tenant'],
      dryRun: ctx.validatedQuery.dryRun,
      sku: ctx.body.sku,
    }),
  ),
);

const put = (url: string, headers: Record<string, string>, body: unknown) =>
  app.inject({ method: 'PUT', url, headers: { 'content-type': 'application/json', ...headers }, body });

describe('validated input', () => {
  it('gives the handler coerced params, headers, query and body', async () => {
    const res = await put('/orders/42', { 'x-tenant': 'acme' }, { sku: 'A-1' });
    assert.deepEqual(res.json(), { id: 42, idType: 'number', raw: '42', tenant: 'acme', dryRun: 'no', sku: 'A-1' });
  });

  it('refuses bad params, headers, query and body with a problem naming them', async () => {
    const badParams = await put('/orders/abc', { 'x-tenant': 'acme' }, { sku: 'A-1' });
    assert.equal(badParams.statusCode, 400);
    assert.equal(badParams.json().code, 'TRELLIS_VALIDATION_FAILED');
    assert.match(badParams.json().detail, /^The request path parameters are invalid: id: /);
    assert.equal(badParams.json().field, 'id');
    const badHeaders = await put('/orders/1', {}, { sku: 'A-1' });
    assert.match(badHeaders.json().detail, /^The request headers are invalid: x-tenant: /);
    const badQuery = await put('/orders/1?dryRun=maybe', { 'x-tenant': 'acme' }, { sku: 'A-1' });
    assert.match(badQuery.json().detail, /^The request query is invalid: dryRun: /);
    const badBody = await put('/orders/1', { 'x-tenant': 'acme' }, { sku: 7 });
    assert.match(badBody.json().detail, /^The request body is invalid: sku: /);
  });
});
