import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Controller, Post, createApp, route } from 'trellis';
import { Accepts } from './index.js';

@Controller('/notes')
class Notes {
  @Post('/')
  @Accepts('text/html')
  create(ctx: { body: unknown }) {
    return { got: ctx.body };
  }
}

describe('Accepts', () => {
  it('refuses other body types with 415 before the body is read, in the functional and the decorator form', async () => {
    let read = 0;
    const app = createApp();
    app.route(route('POST', '/json', [Accepts('application/json')], (ctx) => (read++, { got: ctx.body })));
    app.controller(Notes);
    const send = (url: string, body: string, type?: string) =>
      app.inject({ method: 'POST', url, body, headers: type ? { 'content-type': type } : {} });
    assert.deepEqual((await send('/json', '{"a":1}', 'application/json')).json(), { got: { a: 1 } });
    assert.deepEqual((await send('/json', '{"a":1}', 'application/merge-patch+json')).json(), { got: { a: 1 } });
    const refused = await send('/json', 'a=1', 'application/x-www-form-urlencoded');
    assert.equal(refused.statusCode, 415);
    assert.deepEqual(refused.json().supported, ['application/json']);
    assert.equal((await send('/json', 'x')).statusCode, 415, 'a body without a content type');
    assert.equal(read, 2);
    assert.equal((await app.inject({ method: 'POST', url: '/json' })).statusCode, 200, 'no body, nothing to refuse');
    assert.deepEqual((await send('/notes', '<p>hi</p>', 'text/html; charset=utf-8')).json(), { got: '<p>hi</p>' });
    assert.equal((await send('/notes', '"<p>hi</p>"', 'application/json')).statusCode, 415);
  });
});
