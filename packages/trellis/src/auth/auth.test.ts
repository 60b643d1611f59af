import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import fc from 'fast-check';
import { ApiKeyAuthenticator, Authenticator, Authorize, createApp, JwtBearerAuthenticator, route } from '../index.js';
import { sameKey } from './api-key.js';
import type { App } from '../index.js';

const secret = 'a-test-secret-that-is-long-enough-32b';
const audience = 'https://orders.example.com';

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
    both.services.add(Authenticator, () => new JwtBearerAuthenticator({ secret, audience }));
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
    const app = appWith(new JwtBearerAuthenticator({ secret, issuer: 'trellis-test', audience }));
    const sign = (claims: Record<string, unknown>, iss = 'trellis-test', exp = '5m') =>
      new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject('alice')
        .setIssuer(iss)
        .setAudience(audience)
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
    assert.throws(() => new JwtBearerAuthenticator({ secret: 'short', audience }), /32 bytes/);
  });

  it('JWT bearer with a JWKS, given as an object or served at a URL', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256');
    const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'ES256' };
    const jwks = { keys: [jwk] };
    const token = await new SignJWT({ scope: 'orders:read' })
      .setProtectedHeader({ alg: 'ES256', kid: 'k1' })
      .setSubject('bob')
      .setAudience(audience)
      .setExpirationTime('5m')
      .sign(privateKey);
    const local = appWith(new JwtBearerAuthenticator({ jwks, audience }));
    assert.equal((await local.inject({ url: '/orders', headers: { authorization: `Bearer ${token}` } })).statusCode, 200);

    const server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(jwks));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json`;
      const remote = appWith(new JwtBearerAuthenticator({ jwks: url, audience }));
      assert.deepEqual((await remote.inject({ url: '/whoami', headers: { authorization: `Bearer ${token}` } })).json(), {
        subject: 'bob',
        grants: ['orders:read'],
      });
    } finally {
      server.close();
    }
  });

  it('JWT bearer: an audience is required, else the authenticator is refused with a code, unless allowAnyAudience: true says so', () => {
    const refused = { name: 'TypeError', code: 'TRELLIS_JWT_AUDIENCE_REQUIRED', message: /audience.*allowAnyAudience: true/s };
    // @ts-expect-error -- the options' type asks for one too
    assert.throws(() => new JwtBearerAuthenticator({ secret }), refused);
    const issuerOnly = { jwks: 'https://id.example.com/jwks.json', issuer: 'https://id.example.com/' };
    // @ts-expect-error -- as above
    assert.throws(() => new JwtBearerAuthenticator(issuerOnly), refused);
    assert.throws(() => new JwtBearerAuthenticator({ secret, audience: '' }), refused);
    assert.throws(() => new JwtBearerAuthenticator({ secret, audience: [] }), refused);
    assert.throws(() => new JwtBearerAuthenticator({ secret, audience: undefined as never }), refused);
    assert.throws(() => new JwtBearerAuthenticator({ secret, audience, allowAnyAudience: true } as never), {
      ...refused,
      message: /either audience or allowAnyAudience: true, not both/,
    });
    new JwtBearerAuthenticator({ secret, audience: ['https://orders.example.com', 'orders'] });
    new JwtBearerAuthenticator({ secret, allowAnyAudience: true });
  });

  describe('JWT bearer with RS256 keys: the claims every token must pass', async () => {
    const { publicKey, privateKey } = await generateKeyPair('RS256');
    const jwks = { keys: [{ ...(await exportJWK(publicKey)), kid: 'rs', alg: 'RS256' }] };
    const issuer = 'https://id.example.com/';
    const now = () => Math.floor(Date.now() / 1000);
    const YEAR = 365 * 24 * 3600;
    /** A validly signed token with these claims (none but `sub` unless given). */
    const token = (claims: JWTPayload) =>
      new SignJWT({ sub: 'carol', scope: 'orders:read', ...claims }).setProtectedHeader({ alg: 'RS256', kid: 'rs' }).sign(privateKey);
    const good = () => ({ iss: issuer, aud: audience, iat: now(), exp: now() + 300 });
    const answer = async (app: App, claims: JWTPayload) => {
      const res = await app.inject({ url: '/orders', headers: { authorization: `Bearer ${await token(claims)}` } });
      return { status: res.statusCode, code: res.json().code, detail: res.json().detail, scheme: res.headers['www-authenticate'] };
    };
    const app = appWith(new JwtBearerAuthenticator({ jwks, issuer, audience }));

    it('a good token is still accepted, iat a little ahead (within the clock tolerance) too', async () => {
      assert.equal((await answer(app, good())).status, 200);
      assert.equal((await answer(app, { ...good(), iat: now() + 2 })).status, 200);
      assert.equal((await answer(app, { ...good(), aud: ['https://other.example.com', audience] })).status, 200);
    });

    it('a token for another audience, or with none, is refused with 401', async () => {
      const other = await answer(app, { ...good(), aud: 'https://billing.example.com' });
      assert.deepEqual(other, {
        status: 401,
        code: 'TRELLIS_INVALID_CREDENTIALS',
        detail: 'The bearer token was rejected: unexpected "aud" claim value',
        scheme: 'Bearer error="invalid_token"',
      });
      const { aud: _aud, ...noAudience } = good();
      assert.equal((await answer(app, noAudience)).status, 401);
    });

    it('a token without exp is refused with 401 saying exp is required', async () => {
      const { exp: _exp, ...noExpiry } = good();
      const res = await answer(app, noExpiry);
      assert.deepEqual([res.status, res.code], [401, 'TRELLIS_INVALID_CREDENTIALS']);
      assert.equal(res.detail, 'The bearer token was rejected: missing required "exp" claim');
    });

    it('a token issued in the future (iat past the clock tolerance) is refused with 401', async () => {
      const res = await answer(app, { ...good(), iat: now() + YEAR, exp: now() + YEAR + 300 });
      assert.deepEqual([res.status, res.code], [401, 'TRELLIS_INVALID_CREDENTIALS']);
      assert.match(res.detail, /"iat" claim timestamp check failed \(it should be in the past\)/);
      assert.equal((await answer(app, { ...good(), iat: now() + 60 })).status, 401, 'a minute ahead is past the 5 s tolerance');
    });

    it("another app's token with no exp and an iat a year ahead is refused, even by an authenticator that takes any audience", async () => {
      const foreign = { iss: issuer, aud: 'https://billing.example.com', iat: now() + YEAR };
      assert.equal((await answer(app, foreign)).status, 401);
      const anyAudience = appWith(new JwtBearerAuthenticator({ jwks, issuer, allowAnyAudience: true }));
      assert.equal((await answer(anyAudience, foreign)).status, 401);
      assert.equal((await answer(anyAudience, { ...foreign, exp: now() + YEAR + 300 })).status, 401, 'still issued in the future');
      assert.equal((await answer(anyAudience, { ...good(), aud: 'https://billing.example.com' })).status, 200, 'any audience, as asked');
    });
  });
});
