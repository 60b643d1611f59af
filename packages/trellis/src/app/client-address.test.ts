import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { route } from '../annotations/index.js';
import { createApp, normalizeAddress, type App, type AppOptions, type BoundAddress } from './index.js';

function addressApp(options: AppOptions = {}): App {
  const app = createApp(options);
  app.route(route('GET', '/who', (ctx) => ({ peer: ctx.request.remoteAddress ?? null, client: ctx.request.clientAddress ?? null })));
  return app;
}
const who = async (app: App, headers: Record<string, string>, remoteAddress = '127.0.0.1') =>
  (await app.inject({ url: '/who', headers, remoteAddress })).json<{ peer: string | null; client: string | null }>();

describe('the client address', () => {
  const chain = { 'x-forwarded-for': '198.51.100.7, 10.0.0.2' };

  it('is the peer by default: forwarding headers are not believed', async () => {
    assert.deepEqual(await who(addressApp(), chain, '203.0.113.9'), { peer: '203.0.113.9', client: '203.0.113.9' });
  });

  it('walks X-Forwarded-For from the peer while each hop is trusted', async () => {
    assert.equal((await who(addressApp({ trustProxy: 'loopback' }), chain)).client, '10.0.0.2');
    assert.equal((await who(addressApp({ trustProxy: ['loopback', '10.0.0.0/8'] }), chain)).client, '198.51.100.7');
    assert.equal((await who(addressApp({ trustProxy: 'loopback, 10.0.0.0/8' }), chain)).client, '198.51.100.7');
    assert.equal((await who(addressApp({ trustProxy: 1 }), chain)).client, '10.0.0.2');
    assert.equal((await who(addressApp({ trustProxy: 2 }), chain)).client, '198.51.100.7');
    assert.equal((await who(addressApp({ trustProxy: true }), chain)).client, '198.51.100.7');
    assert.equal((await who(addressApp({ trustProxy: (address) => address !== '10.0.0.2' }), chain)).client, '10.0.0.2');
    assert.equal(
      (await who(addressApp({ trustProxy: 'loopback' }), chain, '203.0.113.9')).client,
      '203.0.113.9',
      'an untrusted peer is the client',
    );
  });

  it('reads RFC 7239 Forwarded when there is no X-Forwarded-For, and ignores one it cannot parse', async () => {
    const app = addressApp({ trustProxy: true });
    assert.equal((await who(app, { forwarded: 'for=198.51.100.7;proto=https, for="[2001:db8::1]:4711"' })).client, '198.51.100.7');
    assert.equal((await who(app, { forwarded: 'for="198.51.100.7:8080"' })).client, '198.51.100.7');
    assert.equal((await who(app, { forwarded: 'for=' })).client, '127.0.0.1');
  });

  it('takes forwarded entries as addresses alone: ports go, and a hop that is not an address ends the walk', async () => {
    const app = addressApp({ trustProxy: true });
    assert.equal((await who(app, { 'x-forwarded-for': '203.0.113.7:8080' })).client, '203.0.113.7');
    assert.equal((await who(app, { 'x-forwarded-for': '[2001:db8::1]:443, 10.0.0.2' })).client, '2001:db8::1');
    assert.equal((await who(app, { 'x-forwarded-for': 'unknown' })).client, '127.0.0.1', 'never "unknown": the peer that reported it');
    assert.equal(
      (await who(app, { 'x-forwarded-for': '198.51.100.7, unknown, 10.0.0.2' })).client,
      '10.0.0.2',
      'nothing beyond an unknown hop is believed',
    );
    assert.equal((await who(app, { forwarded: 'for=_hidden, for=10.0.0.2' })).client, '10.0.0.2');
  });

  it('normalizeAddress keeps IP addresses, drops ports and single-host prefixes, and refuses the rest', () => {
    const cases: [string | undefined, string | undefined][] = [
      ['203.0.113.7', '203.0.113.7'],
      ['203.0.113.7:8080', '203.0.113.7'],
      ['192.168.0.1/32', '192.168.0.1'],
      ['2001:db8::1', '2001:db8::1'],
      ['[2001:db8::1]:443', '2001:db8::1'],
      ['[2001:db8::1]', '2001:db8::1'],
      ['2001:db8::1/128', '2001:db8::1'],
      [' 10.0.0.1 ', '10.0.0.1'],
      ['unknown', undefined],
      ['_hidden', undefined],
      ['example.com', undefined],
      ['10.0.0.0/8', undefined],
      ['999.1.1.1', undefined],
      ['', undefined],
      [undefined, undefined],
    ];
    for (const [input, expected] of cases) assert.equal(normalizeAddress(input), expected, String(input));
  });

  it('refuses a trustProxy setting that makes no sense', () => {
    assert.throws(() => createApp({ trustProxy: -1 }), /whole number/);
    assert.throws(() => createApp({ trustProxy: 'not-an-address' }), /trustProxy/);
  });

  describe('over a socket', () => {
    let app: App;
    let address: BoundAddress;
    before(async () => {
      app = addressApp();
      address = await app.listen({ port: 0 });
    });
    after(() => app.close());

    it("is the connection's peer", async () => {
      const body = (await (await fetch(`${address.url}/who`)).json()) as { peer: string; client: string };
      assert.match(body.peer, /127\.0\.0\.1$/);
      assert.equal(body.client, body.peer);
    });
  });
});
