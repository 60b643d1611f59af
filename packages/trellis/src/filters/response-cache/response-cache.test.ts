import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  ApiKeyAuthenticator,
  Authenticator,
  Authorize,
  Cache,
  createApp,
  MemoryResponseCache,
  reply,
  ResponseCacheStore,
  route,
} from '../../index.js';

function clock() {
  let now = 1_000_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('response cache', () => {
  it('stores 2xx GET responses with Cache-Control and serves them with Age until they go stale', async () => {
    const c = clock();
    let calls = 0;
    const app = createApp();
    app.services.replace(ResponseCacheStore, () => new MemoryResponseCache({ clock: c }));
    app.route(route('GET', '/n', [Cache({ seconds: 30 })], () => ({ n: ++calls })));
    const first = await app.inject({ url: '/n' });
    assert.equal(first.headers['cache-control'], 'public, max-age=30');
    c.advance(10_500);
    const second = await app.inject({ url: '/n' });
    assert.deepEqual(second.json(), { n: 1 });
    assert.equal(second.headers.age, '10');
    assert.equal(second.headers['cache-control'], 'public, max-age=20');
    assert.deepEqual((await app.inject({ url: '/n?page=2' })).json(), { n: 2 }, 'the query is part of the key');
    c.advance(20_000);
    assert.deepEqual((await app.inject({ url: '/n' })).json(), { n: 3 }, 'stale entries are not served');
  });

  it('stores neither errors nor other methods', async () => {
    let calls = 0;
    const app = createApp();
    app.route(route('GET', '/err', [Cache({ seconds: 30 })], () => reply({ n: ++calls }, { status: 404 })));
    app.route(route('POST', '/post', [Cache({ seconds: 30 })], () => ({ n: ++calls })));
    await app.inject({ url: '/err' });
    assert.deepEqual((await app.inject({ url: '/err' })).json(), { n: 2 });
    await app.inject({ method: 'POST', url: '/post' });
    assert.deepEqual((await app.inject({ method: 'POST', url: '/post' })).json(), { n: 4 });
  });

  it('varies by principal when asked, and marks such responses private', async () => {
    const app = createApp();
    app.services.add(Authenticator, () => new ApiKeyAuthenticator({ keys: { ka: { subject: 'alice' }, kb: { subject: 'bob' } } }));
    app.route(route('GET', '/me', [Cache({ seconds: 30, varyBy: ['principal'] })], (ctx) => ({ me: ctx.principal?.subject ?? null })));
    assert.deepEqual((await app.inject({ url: '/me', headers: { 'x-api-key': 'ka' } })).json(), { me: 'alice' });
    const bob = await app.inject({ url: '/me', headers: { 'x-api-key': 'kb' } });
    assert.deepEqual(bob.json(), { me: 'bob' });
    assert.equal(bob.headers['cache-control'], 'private, max-age=30');
    assert.deepEqual((await app.inject({ url: '/me' })).json(), { me: null });
  });

  it('never serves one caller the response of another when the route does not say varyBy: principal', async () => {
    const app = createApp();
    app.services.add(
      Authenticator,
      () => new ApiKeyAuthenticator({ keys: { ka: { subject: 'alice', grants: ['me'] }, kb: { subject: 'bob', grants: ['me'] } } }),
    );
    let calls = 0;
    app.route(route('GET', '/me', [Authorize('me'), Cache({ seconds: 60 })], (ctx) => ({ me: ctx.principal!.subject, n: ++calls })));
    assert.deepEqual((await app.inject({ url: '/me', headers: { 'x-api-key': 'ka' } })).json(), { me: 'alice', n: 1 });
    const bob = await app.inject({ url: '/me', headers: { 'x-api-key': 'kb' } });
    assert.deepEqual(bob.json(), { me: 'bob', n: 2 });
    assert.equal(bob.headers['cache-control'], 'private, max-age=60');
    const again = await app.inject({ url: '/me', headers: { 'x-api-key': 'ka' } });
    assert.deepEqual(again.json(), { me: 'alice', n: 1 }, 'each caller still gets their own cached copy');
  });

  it('neither serves nor stores a request with Authorization or Cookie that no authenticator turned into a principal', async () => {
    const app = createApp();
    app.route(
      route('GET', '/session', [Cache({ seconds: 60 })], (ctx) => ({
        who: ctx.request.headers.get('cookie') ?? ctx.request.headers.get('authorization') ?? null,
      })),
    );
    assert.deepEqual((await app.inject({ url: '/session', headers: { cookie: 'sid=alice' } })).json(), { who: 'sid=alice' });
    const bob = await app.inject({ url: '/session', headers: { cookie: 'sid=bob' } });
    assert.deepEqual(bob.json(), { who: 'sid=bob' });
    assert.equal(bob.headers['cache-control'], 'private, no-store');
    assert.deepEqual((await app.inject({ url: '/session', headers: { authorization: 'Bearer carol' } })).json(), { who: 'Bearer carol' });
    assert.deepEqual((await app.inject({ url: '/session' })).json(), { who: null }, 'nothing personal was stored for anonymous callers');
  });

  it('shares one response across callers only when asked (shared: true, public)', async () => {
    const app = createApp();
    app.services.add(Authenticator, () => new ApiKeyAuthenticator({ keys: { ka: { subject: 'alice' }, kb: { subject: 'bob' } } }));
    let calls = 0;
    app.route(route('GET', '/catalog', [Cache({ seconds: 60, shared: true })], () => ({ n: ++calls })));
    await app.inject({ url: '/catalog', headers: { 'x-api-key': 'ka' } });
    const bob = await app.inject({ url: '/catalog', headers: { 'x-api-key': 'kb' } });
    assert.deepEqual(bob.json(), { n: 1 });
    assert.equal(bob.headers['cache-control'], 'public, max-age=60');
    assert.throws(() => Cache({ seconds: 1, shared: true, varyBy: ['principal'] }), /cannot both vary by principal and be shared/);
  });

  it('is bounded: the least recently used entry goes first', () => {
    const store = new MemoryResponseCache({ maxEntries: 2 });
    const entry = (b: string) => ({ status: 200, headers: {}, body: Buffer.from(b), storedAt: Date.now(), expiresAt: Date.now() + 60_000 });
    store.set('a', entry('a'));
    store.set('b', entry('b'));
    store.get('a');
    store.set('c', entry('c'));
    assert.equal(store.size, 2);
    assert.ok(store.get('a'));
    assert.equal(store.get('b'), undefined);
    const bytes = new MemoryResponseCache({ maxBytes: 10 });
    bytes.set('x', entry('123456'));
    bytes.set('y', entry('123456'));
    assert.equal(bytes.size, 1);
  });
});
