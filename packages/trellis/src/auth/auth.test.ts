import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import fc from 'fast-check';
import { ApiKeyAuthenticator, Authenticator, Authorize, createApp, JwtBearerAuthenticator, route } from '../index.js';
import { sameKey } from './api-key.js';
import type { App } from '../index.js';

const secret = 'a-test-secret-that-is-long-enough-32b';

function appWith(authenticator: Authenticator): App {
  const app = createApp();
  app.services.add(Authenticator, () => authenticator);
  app.route(route('GET', '/whoami', (ctx) => ({ subject: ctx.principal?.subject ?? null, grants: [...(ctx.principal?.grants ?? [])] })));
  app.route(route('GET', '/orders', [Authorize('orders:read')], () => ['o1']));
  return app;
}

describe('authentication and grant authorization', () => {
  it('API keys: none → anonymous, known → principal with grants, unknown → 401', async () => {
    const app = appWith(new ApiKeyAuthenticator({ keys: { k1: { subject: 'ci', grants: ['orders:read'] }, k2: { subject: 'viewer' } } }));
    assert.deepEqual((await app.inject({ url: '/whoami' })).json(), { subject: null, grants: [] });
    assert.deepEqual((await app.inject({ url: '/whoami', headers: { 'x-api-key': 'k1' } })).json(), {
      subject: 'ci',
      grants: ['orders:read'],
    });
    const bad = await app.inject({ url: '/whoami', headers: { 'X-API-Key': 'nope' } });
    assert.equal(bad.statusCode, 401);
    assert.match(String(bad.headers['www-authenticate']), /^ApiKey/);
  });

  it('API keys: equal strings only, whatever their characters and lengths; a key longer than every known one, or a table with an empty key, is refused', async () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }),
        (presented, known) => {
          assert.equal(sameKey(presented, known), presented === known);
          assert.equal(sameKey(known, known), true);
        },
      ),
      { numRuns: 5000 },
    );
    const app = appWith(new ApiKeyAuthenticator({ keys: { k1: { subject: 'ci' } } }));
    const long = await app.inject({ url: '/whoami', headers: { 'x-api-key': 'k1' + 'x'.repeat(8000) } });
    assert.equal(long.statusCode, 401);
    assert.throws(() => new ApiKeyAuthenticator({ keys: { '': { subject: 'nobody' } } }), /an API key cannot be the empty string/);
  });

  it('a 401 for an anonymous caller names the schemes the app registered, and carries a stable code', async () => {
    const apiKeyOnly = appWith(new ApiKeyAuthenticator({ keys: { k1: { subject: 'ci' } } }));
    const anonymous = await apiKeyOnly.inject({ url: '/orders' });
    assert.equal(anonymous.statusCode, 401);
    assert.equal(anonymous.headers['www-authenticate'], 'ApiKey', 'not Bearer: no Bearer authenticator is registered');
    assert.equal(anonymous.json().code, 'TRELLIS_UNAUTHENTICATED');
    const both = appWith(new ApiKeyAuthenticator({ keys: { k1: { subject: 'ci' } } }));
    both.services.add(Authenticator, () => new JwtBearerAuthenticator({ secret }));
    assert.equal((await both.inject({ url: '/orders' })).headers['www-authenticate'], 'ApiKey, Bearer');
    const none = createApp().route(route('GET', '/orders', [Authorize('orders:read')], () => ['o1']));
    const refused = await none.inject({ url: '/orders' });
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.headers['www-authenticate'], undefined, 'no authenticator, no scheme to name');
    const forbidden = await apiKeyOnly.inject({ url: '/orders', headers: { 'x-api-key': 'k1' } });
    assert.deepEqual([forbidden.statusCode, forbidden.json().code], [403, 'TRELLIS_MISSING_GRANT']);
  });

  it('grant authorization: anonymous 401, missing grant 403, holder 200', async () => {
    const app = appWith(new ApiKeyAuthenticator({ keys: { k1: { subject: 'ci', grants: ['orders:read'] }, k2: { subject: 'viewer' } } }));
    assert.equal((await app.inject({ url: '/orders' })).statusCode, 401);
    const forbidden = await app.inject({ url: '/orders', headers: { 'x-api-key': 'k2' } });
    assert.equal(forbidden.statusCode, 403);
    assert.deepEqual(forbidden.json().missingGrants, ['orders:read']);
    assert.equal((await app.inject({ url: '/orders', headers: { 'x-api-key': 'k1' } })).statusCode, 200);
  });

  it('authorization never overwrites a refusal recorded by authentication', async () => {
    const app = appWith(new ApiKeyAuthenticator({ keys: {} }));
    const res = await app.inject({ url: '/orders', headers: { 'x-api-key': 'wrong' } });
    assert.equal(res.statusCode, 401);
    assert.match(res.json().detail, /API key/);
  });

  it('JWT bearer with an HS256 secret: scope claim gives grants; bad signature, expiry or issuer → 401', async () => {
    const key = new TextEncoder().encode(secret);
    const app = appWith(new JwtBearerAuthenticator({ secret, issuer: 'trellis-test' }));
    const sign = (claims: Record<string, unknown>, iss = 'trellis-test', exp = '5m') =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('alice')
        .setIssuer(iss)
        .setIssuedAt()
        .setExpirationTime(exp)
        .sign(key);
    const ok = await app.inject({ url: '/orders', headers: { authorization: `Bearer ${await sign({ scope: 'orders:read other' })}` } });
    assert.equal(ok.statusCode, 200);
    assert.deepEqual((await app.inject({ url: '/whoami', headers: { authorization: `Bearer ${await sign({ scope: 'a b' })}` } })).json(), {
      subject: 'alice',
      grants: ['a', 'b'],
    });
    const forged = (await sign({})).slice(0, -3) + 'abc';
    for (const token of [forged, await sign({}, 'someone-else'), await sign({}, 'trellis-test', '-1m'), 'not.a.jwt']) {
      assert.equal((await app.inject({ url: '/whoami', headers: { authorization: `Bearer ${token}` } })).statusCode, 401, token);
    }
    assert.equal(
      (await app.inject({ url: '/whoami', headers: { authorization: 'Basic abc' } })).statusCode,
      200,
      'other schemes are not ours',
    );
    assert.throws(() => new JwtBearerAuthenticator({ secret: 'short' }), /32 bytes/);
  });

  it('JWT bearer with a JWKS, given as an object or served at a URL', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
    const jwks = { keys: [jwk] };
    const token = await new SignJWT({ scope: 'orders:read' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setSubject('bob')
      .setExpirationTime('5m')
      .sign(privateKey);
    const local = appWith(new JwtBearerAuthenticator({ jwks }));
    assert.equal((await local.inject({ url: '/orders', headers: { authorization: `Bearer ${token}` } })).statusCode, 200);

    const server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(jwks));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
      const remote = appWith(new JwtBearerAuthenticator({ jwks: url }));
      assert.deepEqual((await remote.inject({ url: '/whoami', headers: { authorization: `Bearer ${token}` } })).json(), {
        subject: 'bob',
        grants: ['orders:read'],
      });
    } finally {
      server.close();
    }
  });
});
