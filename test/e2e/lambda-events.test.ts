// The Lambda front doors, event kind by event kind: what the app sees of each event, and what each gateway
// gets back. Events come from test/fixtures/lambda (AWS's documented shapes).
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createApp, reply, route } from '../../packages/trellis/src/index.js';
import type { ExecutionContext } from '../../packages/trellis/src/index.js';
import { RateLimit } from '../../packages/trellis/src/ratelimit/index.js';
import { isBinaryContentType, lambdaHandler, lambdaInvocation } from '../../packages/trellis/src/lambda/index.js';
import { FIXTURE_KINDS, fixture, httpEvent, lambdaContext, readResult } from '../support/lambda-events.js';

/** Answers with what it saw of the request. */
function echoApp() {
  const app = createApp();
  const seen = (ctx: ExecutionContext) => {
    const invocation = lambdaInvocation(ctx);
    return {
      method: ctx.request.method,
      url: ctx.request.url,
      path: ctx.request.path,
      params: ctx.params,
      query: [...ctx.request.query].map(([k, v]) => `${k}=${v}`),
      headers: Object.fromEntries(ctx.request.headers.entries()),
      remoteAddress: ctx.request.remoteAddress,
      clientAddress: ctx.request.clientAddress,
      body: ctx.body,
      invocation: invocation && { ...invocation, event: undefined, context: invocation.context.awsRequestId },
    };
  };
  app.route(route('GET', '/orders/:id', seen), route('POST', '/orders/:id', seen), route('GET', '/files/:name', seen));
  return app;
}

describe('what the app sees of each event kind', () => {
  it('API Gateway REST API (1.0): path without stage, every query value, multi-value headers, source IP, Cognito claims', async () => {
    const handler = lambdaHandler(echoApp());
    const out = readResult(await handler(fixture('rest-api'), lambdaContext()));
    assert.equal(out.statusCode, 200);
    const seen = JSON.parse(out.body);
    assert.equal(seen.path, '/orders/42');
    assert.deepEqual(seen.params, { id: '42' });
    assert.deepEqual(seen.query, ['view=full', 'tag=a', 'tag=b']);
    assert.equal(seen.headers.host, 'a1b2c3d4e5.execute-api.eu-west-1.amazonaws.com');
    assert.equal(seen.remoteAddress, '198.51.100.7');
    assert.equal(seen.clientAddress, '198.51.100.7', 'the gateway already says who the caller is; no header is trusted');
    assert.equal(seen.invocation.kind, 'api-gateway-rest');
    assert.equal(seen.invocation.sourceIp, '198.51.100.7');
    assert.equal(seen.invocation.requestId, 'c6af9ac6-7b61-11e6-9a41-93e8deadbeef');
    assert.equal(seen.invocation.awsRequestId, 'b1c2d3e4-0000-4000-8000-000000000001');
    assert.equal(seen.invocation.context, 'b1c2d3e4-0000-4000-8000-000000000001');
    assert.equal(seen.invocation.stage, 'prod');
    assert.deepEqual(seen.invocation.stageVariables, { table: 'orders-prod' });
    assert.deepEqual(seen.invocation.authorizer.claims, { sub: '7d9e2c1a-user', email: 'ana@example.com', 'cognito:groups': 'admins' });
  });

  it("the source address as an IP address alone: sam local's `192.168.0.1/32` loses its prefix, a value that is no address is none", async () => {
    const handler = lambdaHandler(echoApp());
    for (const [kind, given, expected] of [
      ['http-api', '192.168.0.1/32', '192.168.0.1'],
      ['rest-api', '192.168.0.1/32', '192.168.0.1'],
      ['http-api', 'unknown', null],
    ] as const) {
      const event = fixture(kind);
      if (kind === 'http-api') event.requestContext.http.sourceIp = given;
      else event.requestContext.identity.sourceIp = given;
      const seen = JSON.parse(readResult(await handler(event)).body);
      assert.equal(seen.remoteAddress ?? null, expected, `${kind} ${given}`);
      assert.equal(seen.invocation.sourceIp ?? null, expected, `${kind} ${given}`);
    }
  });

  it('a body marked isBase64Encoded must be base64: anything else is a 400 naming base64, through every event kind', async () => {
    const handler = lambdaHandler(echoApp());
    for (const kind of FIXTURE_KINDS) {
      const good = httpEvent(kind, {
        method: 'POST',
        path: '/orders/1',
        headers: { 'content-type': 'application/json' },
        body: Buffer.from('{"got":"Hello"}'),
      });
      assert.deepEqual(JSON.parse(readResult(await handler(good)).body).body, { got: 'Hello' }, kind);
      for (const bad of ['SGVsbG8@@@###', 'eyJnb3QiOiJIZWxsbyJ9\n', 'eyJnb3QiOiJIZWxsbyJ9=x', 'abc']) {
        const event = httpEvent(kind, {
          method: 'POST',
          path: '/orders/1',
          headers: { 'content-type': 'application/json' },
          body: Buffer.from('{}'),
        });
        event.body = bad;
        const out = readResult(await handler(event));
        assert.equal(out.statusCode, 400, `${kind} ${JSON.stringify(bad)}`);
        assert.equal(JSON.parse(out.body).detail, 'The request body is marked isBase64Encoded but is not valid base64.');
      }
    }
  });

  it('the same header limit on every door: a 1 MiB header is 431 through inject() and each event kind, as under listen()', async () => {
    const big = 'a'.repeat(1024 * 1024);
    const app = echoApp();
    const injected = await app.inject({ url: '/orders/1', headers: { 'x-big': big } });
    assert.equal(injected.statusCode, 431);
    assert.equal(injected.json().detail, 'The request headers are larger than the server accepts.');
    const handler = lambdaHandler(app);
    for (const kind of FIXTURE_KINDS) {
      const out = readResult(await handler(httpEvent(kind, { path: '/orders/1', headers: { 'x-big': big } })));
      assert.equal(out.statusCode, 431, kind);
      assert.equal(
        readResult(await handler(httpEvent(kind, { path: '/orders/1', headers: { 'x-small': 'a'.repeat(8_000) } }))).statusCode,
        200,
        kind,
      );
    }
    const strict = createApp({ maxHeaderSize: 8192 });
    strict.route(route('GET', '/', () => 'ok'));
    assert.equal((await strict.inject({ url: '/', headers: { 'x-h': 'a'.repeat(8_000) } })).statusCode, 200);
    assert.equal((await strict.inject({ url: '/', headers: { 'x-h': 'a'.repeat(8_200) } })).statusCode, 431);
    assert.equal((await strict.inject({ url: `/?q=${'a'.repeat(8_200)}` })).statusCode, 431, 'the request line counts');
  });

  it('a hand-typed event with a field of the wrong type fails with a TypeError naming the field', async () => {
    const handler = lambdaHandler(echoApp());
    const cases: [Parameters<typeof fixture>[0], (e: any) => void, RegExp][] = [
      [
        'http-api',
        (e) => {
          e.headers = 'accept: */*';
        },
        /^The API Gateway HTTP API event's headers must be an object of strings, not a string\.$/,
      ],
      [
        'http-api',
        (e) => {
          e.cookies = 'a=b';
        },
        /HTTP API event's cookies must be an array of strings, not a string/,
      ],
      [
        'http-api',
        (e) => {
          e.requestContext.http.sourceIp = 7;
        },
        /requestContext\.http\.sourceIp must be a string, not a number/,
      ],
      [
        'function-url',
        (e) => {
          e.rawQueryString = { a: 1 };
        },
        /function URL event's rawQueryString must be a string, not an object/,
      ],
      [
        'rest-api',
        (e) => {
          e.multiValueHeaders = { accept: '*/*' };
        },
        /REST API event's multiValueHeaders\["accept"\] must be an array of strings, not a string/,
      ],
      [
        'rest-api',
        (e) => {
          e.body = 5;
        },
        /REST API event's body must be a string, not a number/,
      ],
      [
        'rest-api',
        (e) => {
          e.isBase64Encoded = 'true';
        },
        /isBase64Encoded must be a boolean, not a string/,
      ],
      [
        'alb',
        (e) => {
          e.queryStringParameters = ['a'];
        },
        /load balancer event's queryStringParameters must be an object of strings, not an array/,
      ],
    ];
    for (const [kind, damage, message] of cases) {
      const event = fixture(kind);
      damage(event);
      await assert.rejects(
        handler(event),
        (error: Error) => error instanceof TypeError && message.test(error.message),
        `${kind}: ${message}`,
      );
    }
  });

  it("a REST Lambda authorizer's context and principal are read apart from claims", async () => {
    const event = fixture('rest-api');
    event.requestContext.authorizer = { principalId: 'user|a1', tenant: 'acme', integrationLatency: 12 };
    const seen = JSON.parse(readResult(await lambdaHandler(echoApp())(event)).body);
    assert.deepEqual(seen.invocation.authorizer, { principalId: 'user|a1', lambda: { tenant: 'acme', integrationLatency: 12 } });
  });

  it('HTTP API (2.0): raw path and query, cookies array as one Cookie header, comma-joined headers, JWT claims and scopes', async () => {
    const seen = JSON.parse(readResult(await lambdaHandler(echoApp())(fixture('http-api'), lambdaContext())).body);
    assert.equal(seen.url, '/orders/42?view=full&tag=a&tag=b');
    assert.deepEqual(seen.query, ['view=full', 'tag=a', 'tag=b']);
    assert.equal(seen.headers.cookie, 'session=abc123; theme=dark');
    assert.equal(seen.headers['x-custom'], 'one,two');
    assert.equal(seen.remoteAddress, '203.0.113.9');
    assert.equal(seen.invocation.kind, 'api-gateway-http');
    assert.equal(seen.invocation.requestId, 'JKJaXmPLvHcESHA=');
    assert.equal(seen.invocation.stage, '$default');
    assert.deepEqual(seen.invocation.authorizer, {
      claims: { sub: 'user-17', iss: 'https://issuer.example.com', scope: 'orders:read' },
      scopes: ['orders:read'],
    });
  });

  it('HTTP API with a named stage: the stage leaves rawPath; a path that only starts like it stays', async () => {
    const handler = lambdaHandler(echoApp());
    const staged = fixture('http-api');
    staged.requestContext.stage = 'prod';
    staged.rawPath = '/prod/orders/7';
    assert.equal(JSON.parse(readResult(await handler(staged)).body).path, '/orders/7');
    staged.rawPath = '/production/orders/7';
    assert.equal(readResult(await handler(staged)).statusCode, 404, '/production is not the stage /prod');
  });

  it('function URL: told apart by its domain; same payload as 2.0', async () => {
    const seen = JSON.parse(readResult(await lambdaHandler(echoApp())(fixture('function-url'))).body);
    assert.equal(seen.invocation.kind, 'function-url');
    assert.equal(seen.url, '/orders/42?view=full');
    assert.equal(seen.remoteAddress, '192.0.2.44');
    assert.equal(seen.invocation.authorizer, undefined);
    assert.equal(seen.invocation.context, undefined, 'no Lambda context given: an empty one');
  });

  it('load balancer, single-value: query values arrive still encoded and are decoded once; the caller is the last X-Forwarded-For hop', async () => {
    const event = fixture('alb');
    event.headers['x-forwarded-for'] = '10.9.9.9, 198.51.100.23';
    const seen = JSON.parse(readResult(await lambdaHandler(echoApp())(event)).body);
    assert.equal(seen.invocation.kind, 'alb');
    assert.deepEqual(seen.query, ['view=full', 'note=a b']);
    assert.equal(seen.remoteAddress, '198.51.100.23');
    assert.equal(seen.invocation.requestId, undefined);
  });

  it('load balancer, multi-value: every header and query value', async () => {
    const seen = JSON.parse(readResult(await lambdaHandler(echoApp())(fixture('alb-multi-value'))).body);
    assert.deepEqual(seen.query, ['view=full', 'tag=a', 'tag=b']);
    assert.equal(seen.headers.cookie, 'session=abc123; theme=dark');
  });

  for (const kind of FIXTURE_KINDS) {
    it(`${kind}: base64 and plain request bodies reach the handler decoded, with their true length`, async () => {
      const handler = lambdaHandler(echoApp());
      const json = { note: 'héllo ✓' };
      for (const body of [JSON.stringify(json), Buffer.from(JSON.stringify(json))]) {
        const event = httpEvent(kind, {
          method: 'POST',
          path: '/orders/9',
          headers: { 'content-type': 'application/json', 'content-length': '3' },
          body,
        });
        const seen = JSON.parse(readResult(await handler(event)).body);
        assert.deepEqual(seen.body, json);
        assert.equal(seen.headers['content-length'], String(Buffer.byteLength(JSON.stringify(json))));
      }
    });

    it(`${kind}: a decoded path is encoded again, so the route's parameter comes out as sent`, async () => {
      const seen = JSON.parse(readResult(await lambdaHandler(echoApp())(httpEvent(kind, { path: '/files/a%20b%25c' }))).body);
      assert.equal(seen.params.name, 'a b%c');
    });
  }
});

describe('what each gateway gets back', () => {
  const app = () => {
    const a = createApp();
    a.route(
      route('GET', '/png', () => reply(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]), { headers: { 'content-type': 'image/png' } })),
      route('GET', '/gz', () =>
        reply(Buffer.from('not really gzip'), { headers: { 'content-type': 'text/plain', 'content-encoding': 'gzip' } }),
      ),
      route('GET', '/untyped', () => reply(Buffer.from([0xc3, 0x28]), { headers: { 'content-type': '' } })),
      route('GET', '/cookies', () =>
        reply({ ok: true }, { headers: { 'set-cookie': ['a=1; Path=/', 'b=2; HttpOnly'], vary: ['accept', 'origin'] } }),
      ),
      route('GET', '/text', () => 'plain ✓'),
    );
    return a;
  };

  it('binary types go base64 both ways; text types do not; the rule can be replaced', async () => {
    const handler = lambdaHandler(app());
    for (const kind of FIXTURE_KINDS) {
      const png = await handler(httpEvent(kind, { path: '/png' }));
      assert.equal(png.isBase64Encoded, true, kind);
      assert.deepEqual(readResult(png).rawBody, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0xff]));
      const text = await handler(httpEvent(kind, { path: '/text' }));
      assert.equal(text.isBase64Encoded, false);
      assert.equal(text.body, 'plain ✓');
      assert.equal((await handler(httpEvent(kind, { path: '/gz' }))).isBase64Encoded, true, 'content-encoded bodies are bytes');
    }
    const everythingBinary = lambdaHandler(app(), { isBinary: () => true });
    const text = await everythingBinary(httpEvent('http-api', { path: '/text' }));
    assert.equal(text.isBase64Encoded, true);
    assert.equal(readResult(text).body, 'plain ✓');
    assert.equal(isBinaryContentType('application/problem+json; charset=utf-8'), false);
    assert.equal(isBinaryContentType('application/vnd.api+json'), false);
    assert.equal(isBinaryContentType('image/svg+xml'), false);
    assert.equal(isBinaryContentType('application/pdf'), true);
    assert.equal(isBinaryContentType('TEXT/CSV'), false);
  });

  it('payload 2.0 sends each Set-Cookie in cookies and joins other repeated headers', async () => {
    const result = await lambdaHandler(app())(httpEvent('http-api', { path: '/cookies' }));
    assert.deepEqual(result.cookies, ['a=1; Path=/', 'b=2; HttpOnly']);
    assert.equal(result.headers!['set-cookie'], undefined);
    assert.equal(result.headers!.vary, 'accept, origin');
    assert.equal(result.multiValueHeaders, undefined);
  });

  it('payload 1.0 sends Set-Cookie and repeated headers in multiValueHeaders, single ones in headers', async () => {
    const result = await lambdaHandler(app())(httpEvent('rest-api', { path: '/cookies' }));
    assert.deepEqual(result.multiValueHeaders!['set-cookie'], ['a=1; Path=/', 'b=2; HttpOnly']);
    assert.deepEqual(result.multiValueHeaders!.vary, ['accept', 'origin']);
    assert.equal(result.headers!['content-type'], 'application/json; charset=utf-8');
    assert.equal(result.cookies, undefined);
  });

  it('load balancer answers in the header form of its event, with a status description', async () => {
    const multi = await lambdaHandler(app())(httpEvent('alb-multi-value', { path: '/cookies' }));
    assert.equal(multi.statusDescription, '200 OK');
    assert.deepEqual(multi.multiValueHeaders!['set-cookie'], ['a=1; Path=/', 'b=2; HttpOnly']);
    assert.deepEqual(multi.multiValueHeaders!['content-type'], ['application/json; charset=utf-8']);
    assert.equal(multi.headers, undefined);
    const single = await lambdaHandler(app())(httpEvent('alb', { path: '/missing' }));
    assert.equal(single.statusDescription, '404 Not Found');
    assert.equal(single.headers!['content-type'], 'application/problem+json; charset=utf-8');
    assert.equal(single.multiValueHeaders, undefined);
    const cookies = await lambdaHandler(app())(httpEvent('alb', { path: '/cookies' }));
    assert.equal(cookies.headers!['set-cookie'], 'a=1; Path=/', 'one header per name: the first cookie');
  });

  it('HEAD gets the headers of GET and an empty body', async () => {
    for (const kind of FIXTURE_KINDS) {
      const out = readResult(await lambdaHandler(app())(httpEvent(kind, { method: 'HEAD', path: '/text' })));
      assert.equal(out.statusCode, 200);
      assert.equal(out.body, '');
      assert.equal(out.headers['content-length'], String(Buffer.byteLength('plain ✓')));
    }
  });

  it('a body without a type is text when it is UTF-8 and base64 when it is not', async () => {
    const result = await lambdaHandler(app())(httpEvent('http-api', { path: '/untyped' }));
    assert.equal(result.isBase64Encoded, true);
    assert.deepEqual(readResult(result).rawBody, Buffer.from([0xc3, 0x28]));
  });
});

describe('base path, app making and refusals', () => {
  it('basePath removes a custom domain mapping from REST paths, whole segments only', async () => {
    const handler = lambdaHandler(echoApp(), { basePath: '/v1' });
    assert.equal(JSON.parse(readResult(await handler(httpEvent('rest-api', { path: '/v1/orders/3' }))).body).path, '/orders/3');
    assert.equal(readResult(await handler(httpEvent('rest-api', { path: '/v10/orders/3' }))).statusCode, 404);
    assert.equal(
      JSON.parse(readResult(await handler(httpEvent('rest-api', { path: '/orders/3' }))).body).path,
      '/orders/3',
      'absent: nothing to remove',
    );
    for (const bad of ['v1', '/v1/', 42])
      assert.throws(() => lambdaHandler(echoApp(), { basePath: bad as string }), /basePath is a path prefix/);
  });

  it('an app factory runs once, on the first event; a failed one is tried again on the next', async () => {
    let made = 0;
    let failNext = true;
    const handler = lambdaHandler(async () => {
      made++;
      if (failNext) {
        failNext = false;
        throw new Error('secret not readable yet');
      }
      return echoApp();
    });
    await assert.rejects(handler(fixture('http-api')), /secret not readable yet/);
    const results = await Promise.all([handler(fixture('http-api')), handler(fixture('rest-api')), handler(fixture('alb'))]);
    assert.deepEqual(
      results.map((r) => r.statusCode),
      [200, 200, 200],
    );
    await handler(fixture('function-url'));
    assert.equal(made, 2);
    await assert.rejects(lambdaHandler((() => ({})) as never)(fixture('http-api')), /must return an App/);
    assert.throws(() => lambdaHandler({} as never), /takes an App/);
  });

  it('an app is built when the handler is made: a route conflict shows at init, not on the first event', () => {
    const app = createApp();
    app.route(
      route('GET', '/a', () => 1),
      route('GET', '/a', () => 2),
    );
    assert.throws(() => lambdaHandler(app));
  });

  it('events that are not HTTP events are refused with a TypeError naming the kinds answered', async () => {
    const handler = lambdaHandler(echoApp());
    const sqs = { Records: [{ eventSource: 'aws:sqs', body: '{}' }] };
    const notHttp = [
      sqs,
      null,
      'GET /',
      { requestContext: {} },
      { version: '2.0', requestContext: { http: {} }, rawPath: '/' },
      { requestContext: { elb: {} } },
    ];
    for (const event of notHttp) {
      await assert.rejects(handler(event as never), (error: Error) => {
        assert.ok(error instanceof TypeError);
        assert.match(error.message, /API Gateway REST API/);
        assert.match(error.message, /HTTP API and function URL/);
        assert.match(error.message, /Application Load Balancer/);
        return true;
      });
    }
  });

  it('the default partitioner does not key by address: two callers from two addresses share the anonymous allowance', async () => {
    const app = createApp();
    app.route(route('GET', '/limited', [RateLimit({ permitLimit: 1, windowSeconds: 60 })], () => 'ok'));
    const handler = lambdaHandler(app);
    assert.equal((await handler(httpEvent('http-api', { path: '/limited', sourceIp: '203.0.113.1' }))).statusCode, 200);
    const second = readResult(await handler(httpEvent('http-api', { path: '/limited', sourceIp: '198.51.100.2' })));
    assert.equal(second.statusCode, 429);
    assert.ok(Number(second.headers['retry-after']) > 0);
  });
});
