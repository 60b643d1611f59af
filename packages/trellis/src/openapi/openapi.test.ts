import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import * as v from 'valibot';
import { toJsonSchema as valibotJsonSchema } from '@valibot/to-json-schema';
import { z } from 'zod';
import {
  AllowAnonymous,
  ApiKeyAuthenticator,
  Authenticator,
  Authorize,
  Body,
  Controller,
  Describe,
  FAILURES,
  Get,
  JwtBearerAuthenticator,
  Post,
  RegistrationType,
  Validate,
  createApp,
  group,
  route,
} from '../index.js';
import type { App, AuthenticationResult } from '../index.js';
import { RateLimit, RateLimitConfiguration, RateLimitScope, SkipRateLimit } from '../ratelimit/index.js';
import { createOpenApiDocument, openApiRoute, UNCONVERTED } from './index.js';
import type { JsonSchemaConverter, OpenApiOptions } from './index.js';
import { operationIdFor, pathTemplates } from './paths.js';
import { checkDocument, resolvePointer } from './document-check.test-suite.js';

const info = { title: 'Test API', version: '1.2.3' };
const ok = () => ({ ok: true });
const doc = (app: App, options: Partial<OpenApiOptions> = {}) => createOpenApiDocument(app, { info, ...options }) as any;
const op = (d: any, method: string, path: string) => d.paths[path]?.[method];

const order = z.object({ sku: z.string().min(1), quantity: z.number().int().positive().describe('How many') });
const listQuery = z.object({ page: z.coerce.number().int().min(1).optional().describe('The page, from 1'), q: z.string() });

/** An app that uses every annotation the document reads. */
function fullApp(): App {
  @Describe({ tags: ['orders'] })
  @Authorize('orders')
  @RateLimit({ name: 'burst', permitLimit: 5, windowSeconds: 1 })
  @Controller('/orders')
  class Orders {
    @Describe({ summary: 'List orders', description: 'Newest first.' })
    @Validate({ query: listQuery })
    @Get('/')
    list() {
      return [];
    }

    @Describe({
      summary: 'One order',
      params: { id: 'The order number' },
      responses: { 200: { description: 'The order', schema: order }, 404: 'No such order' },
    })
    @Get('/:id(^\\d+$)')
    show() {
      return {};
    }

    @Describe({
      summary: 'Place an order',
      operationId: 'placeOrder',
      responses: { 201: { description: 'Placed', schema: order, headers: { Location: 'The new order' } } },
    })
    @Authorize('orders:write')
    @RateLimit({
      name: 'hourly',
      permitLimit: 100,
      windowSeconds: 3600,
      scope: RateLimitScope.Principal,
      budget: 'writes',
      cost: () => 2,
      blockSeconds: 60,
    })
    @Validate({ body: order, fieldStatus: 422 })
    @Body('json')
    @Post('/')
    create() {
      return {};
    }

    @SkipRateLimit()
    @AllowAnonymous()
    @Get('/public/count')
    count() {
      return 0;
    }
  }
  const app = createApp();
  app.services.add(Authenticator, () => new ApiKeyAuthenticator({ header: 'X-Orders-Key', keys: {} }));
  app.services.add(Authenticator, () => new JwtBearerAuthenticator({ secret: 'a secret of enough length for HS256!', audience: 'orders' }));
  app.controller(Orders);
  app.route(
    group({ prefix: '/files', annotations: [Describe({ tags: ['files'] })] }, [
      route('PUT', '/:name', [Body('bytes', { types: ['image/png', 'image/*'], limit: 1024 })], ok),
      route('POST', '/imports', [Body('stream', { types: ['text/csv'] })], ok),
      route('POST', '/notes', [Body(['text', 'form'])], ok),
      route('DELETE', '/:name', [Describe({ responses: { 204: 'Deleted' } })], () => undefined),
    ]),
  );
  return app;
}

describe('createOpenApiDocument', () => {
  it('describes every route of an app as a valid OpenAPI 3.1 document', async () => {
    const d = await checkDocument(doc(fullApp()));
    assert.equal(d.openapi, '3.1.0');
    assert.deepEqual(d.info, info);
    assert.deepEqual(Object.keys(d.paths), [
      '/files/imports',
      '/files/notes',
      '/files/{name}',
      '/orders',
      '/orders/public/count',
      '/orders/{id}',
    ]);
    assert.deepEqual(d.tags, [{ name: 'files' }, { name: 'orders' }]);
    assert.deepEqual(Object.keys(d.paths['/files/{name}']), ['put', 'delete']);
  });

  it('takes path parameters, query members and bodies from the routes and their schemas', () => {
    const d = doc(fullApp());
    const show = op(d, 'get', '/orders/{id}');
    assert.equal(show.operationId, 'getOrdersById');
    assert.deepEqual(show.parameters, [
      { name: 'id', in: 'path', description: 'The order number', required: true, schema: { type: 'string', pattern: '^\\d+$' } },
    ]);
    assert.deepEqual(show.responses['200'].content['application/json'].schema.required, ['sku', 'quantity']);
    assert.equal(show.responses['200'].content['application/json'].schema.additionalProperties, false, "a response is the schema's output");
    assert.equal(show.responses['404'].description, 'No such order');
    assert.ok(show.responses['404'].content['application/problem+json']);
    const list = op(d, 'get', '/orders');
    assert.deepEqual(
      list.parameters.map((p: any) => [p.name, p.in, p.required, p.description]),
      [
        ['page', 'query', false, 'The page, from 1'],
        ['q', 'query', true, undefined],
      ],
    );
    assert.equal(list.summary, 'List orders');
    assert.equal(list.description, 'Newest first.');
    assert.deepEqual(list.tags, ['orders']);
    const create = op(d, 'post', '/orders');
    assert.equal(create.operationId, 'placeOrder');
    assert.deepEqual(Object.keys(create.requestBody.content), ['application/json']);
    assert.equal(create.requestBody.required, true, 'an object schema refuses an empty body');
    assert.equal(create.requestBody.content['application/json'].schema.properties.quantity.description, 'How many');
    assert.equal(create.requestBody.content['application/json'].schema.additionalProperties, undefined, "a request is the schema's input");
    assert.deepEqual(Object.keys(create.responses['201'].headers).sort(), [
      'Location',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
    ]);
  });

  it('shows Body formats as media types, binary bodies as format: binary, and limits', () => {
    const d = doc(fullApp());
    const put = op(d, 'put', '/files/{name}');
    assert.deepEqual(put.requestBody.content, {
      'image/png': { schema: { type: 'string', format: 'binary' } },
      'image/*': { schema: { type: 'string', format: 'binary' } },
    });
    assert.equal(put.requestBody['x-trellis-body-limit'], 1024);
    assert.match(put.requestBody.description, /At most 1024 bytes/);
    assert.match(put.responses['413'].description, /1024 bytes/);
    assert.deepEqual(Object.keys(op(d, 'post', '/files/imports').requestBody.content), ['text/csv']);
    assert.match(op(d, 'post', '/files/imports').requestBody.description, /reads it as it arrives/);
    assert.deepEqual(Object.keys(op(d, 'post', '/files/notes').requestBody.content), ['text/*', 'application/x-www-form-urlencoded']);
    assert.equal(op(d, 'delete', '/files/{name}').requestBody, undefined, 'a DELETE without Body takes no body');
    assert.deepEqual(op(d, 'delete', '/files/{name}').responses['204'], { description: 'Deleted' });
  });

  it("documents the framework's failures where they can happen, with the shared Problem schema", () => {
    const d = doc(fullApp());
    const problem = d.components.schemas.Problem;
    assert.deepEqual(problem.properties.code.enum, Object.keys(FAILURES).sort());
    const statuses = (method: string, path: string) => Object.keys(op(d, method, path).responses);
    assert.deepEqual(statuses('post', '/orders'), ['201', '400', '401', '403', '413', '415', '422', '429', 'default']);
    assert.deepEqual(statuses('get', '/orders'), ['400', '401', '403', '429', '2XX', 'default']);
    assert.deepEqual(
      statuses('get', '/orders/public/count'),
      ['401', '2XX', 'default'],
      'anonymous, not limited: only refused credentials',
    );
    for (const response of Object.values<any>(op(d, 'post', '/orders').responses)) {
      if (response.content?.['application/problem+json'])
        assert.equal(response.content['application/problem+json'].schema.$ref, '#/components/schemas/Problem');
    }
    assert.match(op(d, 'post', '/orders').responses['400'].description, /TRELLIS_VALIDATION_FAILED.*TRELLIS_INVALID_JSON/);
  });

  it('describes rate limits: each limit, the 429 with Retry-After and the RateLimit headers on 2xx', () => {
    const d = doc(fullApp());
    const create = op(d, 'post', '/orders');
    assert.deepEqual(create['x-trellis-rate-limits'], [
      { name: 'burst', permitLimit: 5, windowSeconds: 1, scope: 'transport', cost: 1 },
      { name: 'hourly', permitLimit: 100, windowSeconds: 3600, scope: 'principal', budget: 'writes', cost: 'computed', blockSeconds: 60 },
    ]);
    const tooMany = create.responses['429'];
    assert.deepEqual(Object.keys(tooMany.headers), ['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset']);
    assert.match(tooMany.description, /"burst": 5 requests per 1 second, per client/);
    assert.match(tooMany.description, /"hourly": 100 permits per 3600 seconds, per caller.*"writes".*refused for 60 seconds/);
    assert.deepEqual(Object.keys(d.components.headers), ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After']);
    assert.equal(op(d, 'get', '/orders/public/count')['x-trellis-rate-limits'], undefined, 'SkipRateLimit() leaves it out');
  });

  it('names the rate-limit header fields the configuration writes', async () => {
    const app = createApp().route(route('GET', '/x', [RateLimit({ permitLimit: 1 })], ok));
    app.services.addValue(RateLimitConfiguration, new RateLimitConfiguration({ headers: ['structured', 'legacy'] }));
    const d = await checkDocument(doc(app));
    assert.deepEqual(Object.keys(op(d, 'get', '/x').responses['2XX'].headers), [
      'RateLimit',
      'RateLimit-Policy',
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
    ]);
  });

  it('takes security schemes from the registered authenticators and requires them where Authorize is', () => {
    const d = doc(fullApp());
    assert.deepEqual(d.components.securitySchemes, {
      ApiKey: { type: 'apiKey', in: 'header', name: 'x-orders-key' },
      Bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    });
    assert.deepEqual(op(d, 'post', '/orders').security, [{ ApiKey: ['orders', 'orders:write'] }, { Bearer: ['orders', 'orders:write'] }]);
    assert.deepEqual(op(d, 'post', '/orders')['x-trellis-grants'], ['orders', 'orders:write']);
    assert.match(op(d, 'post', '/orders').responses['403'].description, /`orders`, `orders:write`/);
    assert.equal(op(d, 'get', '/orders/public/count').security, undefined, 'AllowAnonymous overrides Authorize');
    assert.equal(d.security, undefined, 'no document-wide requirement');
  });

  it('describes a custom authenticator by what it says of itself, or by its scheme', async () => {
    class Gateway implements Authenticator {
      readonly scheme = 'Bearer';
      authenticate(): AuthenticationResult {
        return { kind: 'none' };
      }
    }
    class Cookie implements Authenticator {
      readonly scheme = 'Session Cookie';
      readonly securityScheme = { type: 'apiKey', in: 'cookie', name: 'sid' };
      authenticate(): AuthenticationResult {
        return { kind: 'none' };
      }
    }
    const app = createApp().route(route('GET', '/me', [Authorize()], ok));
    app.services.add(Authenticator, () => new Gateway());
    app.services.add(Authenticator, () => new Cookie());
    app.services.add(
      Authenticator,
      () => new JwtBearerAuthenticator({ secret: 'a secret of enough length for HS256!', audience: 'orders' }),
    );
    const d = await checkDocument(doc(app));
    assert.deepEqual(d.components.securitySchemes, {
      Bearer: { type: 'http', scheme: 'Bearer' },
      Bearer_2: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      Session_Cookie: { type: 'apiKey', in: 'cookie', name: 'sid' },
    });
    assert.deepEqual(op(d, 'get', '/me').security, [{ Bearer: [] }, { Session_Cookie: [] }, { Bearer_2: [] }]);
  });

  it('without authenticators: no security schemes, and an Authorize route says every call is refused', async () => {
    const d = await checkDocument(doc(createApp().route(route('GET', '/admin', [Authorize('admin')], ok), route('GET', '/open', ok))));
    assert.equal(d.components.securitySchemes, undefined);
    assert.equal(op(d, 'get', '/admin').security, undefined);
    assert.match(op(d, 'get', '/admin').responses['401'].description, /no authenticator is registered/);
    assert.deepEqual(Object.keys(op(d, 'get', '/open').responses), ['2XX', 'default']);
  });

  it('an app with no routes is a valid, empty document', async () => {
    const d = await checkDocument(doc(createApp(), { servers: [{ url: 'https://api.example.com', description: 'Production' }] }));
    assert.deepEqual(d.paths, {});
    assert.deepEqual(d.servers, [{ url: 'https://api.example.com', description: 'Production' }]);
    assert.deepEqual(Object.keys(d.components.schemas), ['Problem']);
  });

  it('is deterministic: the same app gives the same bytes, whatever order its routes were added in', () => {
    const routes = () => [
      route('GET', '/b', ok),
      route('POST', '/a', [Validate({ body: order })], ok),
      route('GET', '/a/:id', ok),
      route('DELETE', '/a/:id', ok),
      route('GET', '/', ok),
    ];
    const forward = JSON.stringify(doc(createApp().route(routes())));
    assert.equal(JSON.stringify(doc(createApp().route(routes()))), forward);
    assert.equal(JSON.stringify(doc(createApp().route(routes().reverse()))), forward);
    assert.deepEqual(Object.keys(JSON.parse(forward).paths), ['/', '/a', '/a/{id}', '/b']);
    assert.equal(JSON.parse(forward).paths['/'].get.operationId, 'getRoot');
  });

  it('include leaves routes out', () => {
    const app = createApp().route(route('GET', '/api/x', ok), route('GET', '/web/page', ok));
    assert.deepEqual(Object.keys(doc(app, { include: (r) => r.path.startsWith('/api/') }).paths), ['/api/x']);
  });

  it('refuses options without a title or version, or something that is not an app', () => {
    assert.throws(() => createOpenApiDocument(createApp(), { info: { title: '', version: '1' } }), /info\.title/);
    assert.throws(() => createOpenApiDocument(createApp(), {} as never), /info\.title/);
    assert.throws(() => createOpenApiDocument(createApp(), { info: { title: 'x' } } as never), /info\.version/);
    assert.throws(() => createOpenApiDocument({} as never, { info }), /takes a Trellis app/);
  });
});

describe('schemas', () => {
  it('a schema that cannot be converted is {} with a note, never a crash', async () => {
    const handRolled = { '~standard': { version: 1, vendor: 'mine', validate: (value: unknown) => ({ value }) } } as const;
    const app = createApp().route(
      route('POST', '/valibot', [Validate({ body: v.object({ a: v.string() }) })], ok),
      route('POST', '/date', [Validate({ body: z.object({ when: z.date() }) })], ok),
      route('POST', '/mine', [Validate({ body: handRolled, query: handRolled })], ok),
    );
    const d = await checkDocument(doc(app));
    const body = (path: string) => op(d, 'post', path).requestBody.content['application/json'].schema;
    assert.match(
      body('/valibot')[UNCONVERTED],
      /a valibot schema that offers no JSON Schema: give createOpenApiDocument a jsonSchema converter/,
    );
    assert.match(body('/date')[UNCONVERTED], /a zod schema that could not be converted: Date cannot be represented in JSON Schema/);
    assert.match(body('/mine')[UNCONVERTED], /a mine schema/);
    assert.deepEqual(
      op(d, 'post', '/mine').parameters.map((p: any) => [p.name, p.in, p.style, p.explode]),
      [['query', 'query', 'form', true]],
    );
  });

  it('Validate params and headers give the path and header parameters their schemas', async () => {
    const app = createApp().route(
      route(
        'GET',
        '/orders/:id',
        [
          Validate({
            params: z.object({ id: z.string().regex(/^\d+$/) }),
            headers: z.object({ 'x-tenant': z.string().describe('Whose orders'), accept: z.string().optional() }),
          }),
        ],
        ok,
      ),
    );
    const d = await checkDocument(doc(app));
    assert.deepEqual(op(d, 'get', '/orders/{id}').parameters, [
      { name: 'id', in: 'path', required: true, schema: { type: 'string', pattern: '^\\d+$' } },
      { name: 'x-tenant', in: 'header', description: 'Whose orders', required: true, schema: { type: 'string' } },
    ]);
  });

  it('a converter converts what the built-in detection cannot: valibot through @valibot/to-json-schema', async () => {
    const seen: string[] = [];
    const jsonSchema: JsonSchemaConverter = (schema, context) => {
      seen.push(`${context.vendor} ${context.part} ${context.route.id}`);
      return context.vendor === 'valibot' ? (valibotJsonSchema(schema as never) as Record<string, unknown>) : undefined;
    };
    const app = createApp().route(
      route(
        'POST',
        '/v',
        [Validate({ body: v.object({ name: v.pipe(v.string(), v.minLength(2)) }), query: z.object({ n: z.string() }) })],
        ok,
      ),
    );
    const d = await checkDocument(doc(app, { jsonSchema }));
    assert.deepEqual(op(d, 'post', '/v').requestBody.content['application/json'].schema, {
      type: 'object',
      properties: { name: { type: 'string', minLength: 2 } },
      required: ['name'],
    });
    assert.equal(op(d, 'post', '/v').parameters[0].name, 'n', 'zod left to the built-in detection');
    assert.deepEqual(seen.sort(), ['valibot body POST /v', 'zod query POST /v']);
  });

  it('a converter that throws or answers nonsense leaves a note', async () => {
    const app = createApp().route(
      route('POST', '/a', [Validate({ body: order })], ok),
      route('POST', '/b', [Validate({ body: listQuery })], ok),
    );
    const d = await checkDocument(
      doc(app, {
        jsonSchema: (_s, c) => {
          if (c.route.path === '/a') throw new Error('boom');
          return 42 as never;
        },
      }),
    );
    assert.match(op(d, 'post', '/a').requestBody.content['application/json'].schema[UNCONVERTED], /could not be converted: boom/);
    assert.match(op(d, 'post', '/b').requestBody.content['application/json'].schema[UNCONVERTED], /no JSON Schema object/);
  });

  it('definitions and recursive schemas become named components, and the refs follow', async () => {
    const Tag = z.string().min(1).meta({ id: 'Tag', description: 'A label' });
    const Category = z.object({
      name: z.string(),
      get children() {
        return z.array(Category);
      },
    });
    const app = createApp().route(
      route('POST', '/tagged', [Validate({ body: z.object({ tags: z.array(Tag), main: Tag }) })], ok),
      route('PUT', '/tagged', [Validate({ body: z.object({ other: Tag }) })], ok),
      route('POST', '/tree', [Validate({ body: Category })], ok),
      route('POST', '/z/clash', [Validate({ body: z.object({ t: z.number().meta({ id: 'Tag' }) }) })], ok),
    );
    const d = await checkDocument(doc(app));
    assert.deepEqual(d.components.schemas.Tag, { type: 'string', minLength: 1, description: 'A label' });
    assert.equal(op(d, 'post', '/tagged').requestBody.content['application/json'].schema.properties.main.$ref, '#/components/schemas/Tag');
    assert.equal(
      op(d, 'put', '/tagged').requestBody.content['application/json'].schema.properties.other.$ref,
      '#/components/schemas/Tag',
      'one schema, one name',
    );
    assert.deepEqual(op(d, 'post', '/tree').requestBody.content['application/json'].schema, { $ref: '#/components/schemas/PostTreeBody' });
    assert.equal(d.components.schemas.PostTreeBody.properties.children.items.$ref, '#/components/schemas/PostTreeBody');
    assert.equal(
      op(d, 'post', '/z/clash').requestBody.content['application/json'].schema.properties.t.$ref,
      '#/components/schemas/PostZClashBody_Tag',
    );
    assert.deepEqual(d.components.schemas.PostZClashBody_Tag, { type: 'number' });
  });

  it('Describe responses take JSON Schema objects and refs to the schemas option', async () => {
    const app = createApp().route(
      route(
        'GET',
        '/o',
        [Describe({ responses: { 200: { schema: { $ref: '#/components/schemas/Order' } }, 202: { contentType: 'text/csv' } } })],
        ok,
      ),
    );
    const d = await checkDocument(doc(app, { schemas: { Order: { type: 'object', properties: { id: { type: 'string' } } } } }));
    assert.deepEqual(op(d, 'get', '/o').responses['200'], {
      description: 'OK',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Order' } } },
    });
    assert.deepEqual(op(d, 'get', '/o').responses['202'], { description: 'Accepted', content: { 'text/csv': {} } });
    assert.ok(resolvePointer(d, '#/components/schemas/Order'));
  });

  it('problemCodes and problemExtensions widen the shared Problem schema', () => {
    const d = doc(createApp(), { problemCodes: ['ORDERS_SOLD_OUT'], problemExtensions: { sku: { type: 'string' } } });
    assert.ok(d.components.schemas.Problem.properties.code.enum.includes('ORDERS_SOLD_OUT'));
    assert.deepEqual(d.components.schemas.Problem.properties.sku, { type: 'string' });
  });
});

describe('paths and operation ids', () => {
  it('turns the router syntax into OpenAPI templates', () => {
    const t = (path: string) =>
      pathTemplates(path).map((p) => [p.template, p.params.map((x) => x.name + (x.pattern ? `(${x.pattern})` : '') + (x.rest ? '…' : ''))]);
    assert.deepEqual(t('/orders/:id'), [['/orders/{id}', ['id']]]);
    assert.deepEqual(t('/orders/:id(^\\d+$)/lines'), [['/orders/{id}/lines', ['id(^\\d+$)']]]);
    assert.deepEqual(t('/flights/:from-:to'), [['/flights/{from}-{to}', ['from', 'to']]]);
    assert.deepEqual(t('/files/:name.:ext'), [['/files/{name}.{ext}', ['name', 'ext']]]);
    assert.deepEqual(t('/static/*'), [['/static/{*}', ['*…']]]);
    assert.deepEqual(t('/time/12::30'), [['/time/12:30', []]]);
    assert.deepEqual(t('/odd/{braces}'), [['/odd/%7Bbraces%7D', []]]);
    assert.deepEqual(t('/users/:id?'), [
      ['/users/{id}', ['id']],
      ['/users', []],
    ]);
    assert.deepEqual(t('/:a/:a'), [['/{a}/{a_}', ['a', 'a_']]]);
  });

  it('makes operation ids from method and path, unique in the document', async () => {
    assert.equal(operationIdFor('GET', pathTemplates('/orders/:id')[0]!), 'getOrdersById');
    assert.equal(operationIdFor('POST', pathTemplates('/static/*')[0]!), 'postStaticRest');
    const app = createApp().route(
      route('GET', '/a-b', ok),
      route('GET', '/a/b', ok),
      route('GET', '/ab', [Describe({ operationId: 'getAB' })], ok),
    );
    const d = await checkDocument(doc(app));
    assert.deepEqual(
      [op(d, 'get', '/a-b').operationId, op(d, 'get', '/a/b').operationId, op(d, 'get', '/ab').operationId],
      ['getAB_2', 'getAB_3', 'getAB'],
    );
  });

  it('two routes given one operation id are refused, naming both', () => {
    const app = createApp().route(
      route('GET', '/a', [Describe({ operationId: 'same' })], ok),
      route('GET', '/b', [Describe({ operationId: 'same' })], ok),
    );
    assert.throws(() => doc(app), /Two routes have the operation id "same" \(GET \/a and GET \/b\)/);
  });

  it('odd routes still make a valid document', async () => {
    const app = createApp().route(
      route('GET', '/static/*', ok),
      route('GET', '/users/:id?', ok),
      route('GET', '/time/12::30', ok),
      route('GET', '/odd/{x}', ok),
      route('GET', '/flights/:from-:to', ok),
      route('GET', '/files/:name.:ext', ok),
      route('OPTIONS', '/opt', ok),
      route('HEAD', '/head', ok),
      route('GET', '/ünïcode/:naïve', ok),
      route('GET', '/%20/:id(^[a-z]{2,3}$)', ok),
    );
    const d = await checkDocument(doc(app));
    assert.deepEqual(Object.keys(d.paths), [
      '/%20/{id}',
      '/files/{name}.{ext}',
      '/flights/{from}-{to}',
      '/head',
      '/odd/%7Bx%7D',
      '/opt',
      '/static/{*}',
      '/time/12:30',
      '/users',
      '/users/{id}',
      '/ünïcode/{naïve}',
    ]);
    assert.deepEqual([op(d, 'get', '/users/{id}').operationId, op(d, 'get', '/users').operationId], ['getUsersById', 'getUsers']);
  });

  it('property: every template names exactly its parameters, and operation ids stay unique', async () => {
    const segment = fc.oneof(
      fc.stringMatching(/^[A-Za-z0-9_~!$&'()*+,;=@{}%-]{1,8}$/).filter((s) => !s.includes(':') && !s.includes('*') && !s.includes('(')),
      fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/).map((n) => `:${n}`),
      fc.stringMatching(/^[a-z][a-z0-9]{0,6}$/).map((n) => `:${n}(^\\d+$)`),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(
          fc.array(segment, { minLength: 0, maxLength: 4 }).map((s) => `/${s.join('/')}`),
          { minLength: 1, maxLength: 6 },
        ),
        async (paths) => {
          for (const path of paths) {
            for (const t of pathTemplates(path)) {
              const named = [...t.template.matchAll(/\{([^}]*)\}/g)].map((m) => m[1]);
              assert.deepEqual(
                named,
                t.params.map((p) => p.name),
              );
              assert.equal(new Set(named).size, named.length);
            }
          }
          let app: App;
          try {
            app = createApp()
              .route(paths.map((p) => route('GET', p, ok)))
              .build();
          } catch {
            return; // paths the router itself refuses (two that it cannot tell apart)
          }
          const d = doc(app);
          const ids = Object.values<any>(d.paths).flatMap((item) => Object.values<any>(item).map((o) => o.operationId));
          assert.equal(new Set(ids).size, ids.length);
        },
      ),
      { numRuns: 150 },
    );
    await checkDocument(doc(createApp().route(route('GET', '/a/:b/{c}/:d(^\\d+$)/e', ok))));
  });
});

describe('Describe', () => {
  it('class-level and method-level values merge: method fields win, tags add up', () => {
    @Describe({ tags: ['b'], summary: 'class summary', deprecated: true })
    class C {
      @Describe({ tags: ['a'], summary: 'method summary' }) @Get('/x') x() {
        return 1;
      }
    }
    const d = doc(createApp().controller(C));
    assert.deepEqual(op(d, 'get', '/x').tags, ['a', 'b']);
    assert.equal(op(d, 'get', '/x').summary, 'method summary');
    assert.equal(op(d, 'get', '/x').deprecated, true);
  });

  it('two values on one level that disagree stop the build; the order they are written in never matters', () => {
    class Twice {
      @Describe({ summary: 'a' }) @Describe({ summary: 'b' }) @Get('/t') t() {
        return 1;
      }
    }
    assert.throws(
      () => createApp().controller(Twice).build(),
      /Twice\.t \(GET \/t\): @Describe is applied more than once with different "summary" values/,
    );
    class One {
      @Describe({ summary: 's' }) @Describe({ tags: ['t'] }) @Get('/t') t() {
        return 1;
      }
    }
    class Two {
      @Describe({ tags: ['t'] }) @Describe({ summary: 's' }) @Get('/t') t() {
        return 1;
      }
    }
    assert.equal(JSON.stringify(doc(createApp().controller(One))), JSON.stringify(doc(createApp().controller(Two))));
  });

  it("takes a summary alone, the form a widget function's describe answer reads too", async () => {
    const d = doc(createApp().route(route('GET', '/alarms', [Describe('  Lists **alarms**.  ')], ok)));
    assert.equal(op(d, 'get', '/alarms').summary, 'Lists **alarms**.');
    const { Describe: fromLambda, widgetHandler } = await import('../lambda/index.js');
    assert.equal(fromLambda, Describe, 'trellis/lambda exports the same annotation');
    const widgets = createApp().route(
      route('GET', '/', [Describe({ summary: 'The overview.', description: 'Every alarm, newest first.' })], () => 'x'),
    );
    assert.match(
      String(await widgetHandler(widgets)({ describe: true, widgetContext: {} })),
      /The overview\.\n\nEvery alarm, newest first\./,
    );
  });

  it('refuses bad settings with a clear error', () => {
    assert.throws(() => Describe({ summary: '' }), /"summary" must be a non-empty string/);
    assert.throws(() => Describe({ tags: ['ok', 3 as never] }), /"tags" must be a list/);
    assert.throws(() => Describe({ responses: { 99: 'x' } }), /keyed by status/);
    assert.throws(() => Describe({ responses: { 200: null as never } }), /the 200 response/);
    assert.throws(() => Describe(null as never), /takes a summary, or/);
  });

  it('changes nothing about how a request is handled', async () => {
    const app = createApp().route(route('GET', '/d', [Describe({ summary: 'x', responses: { 201: 'never' } })], () => ({ d: 1 })));
    const res = await app.inject({ method: 'GET', url: '/d' });
    assert.equal(res.statusCode, 200);
    assert.deepEqual(res.json(), { d: 1 });
  });
});

describe('openApiRoute', () => {
  it('serves the document of the app it is part of, made on the first request and kept', async () => {
    let conversions = 0;
    const app = createApp();
    app.services.add(Authenticator, () => new ApiKeyAuthenticator({ keys: {} }), { type: RegistrationType.Add });
    app.route(route('POST', '/orders', [Validate({ body: order }), Authorize('orders:write')], ok));
    app.route(
      openApiRoute(app, {
        info,
        path: '/api/openapi.json',
        jsonSchema: () => {
          conversions++;
          return undefined;
        },
      }),
    );
    app.build();
    assert.equal(conversions, 0, 'nothing is made before the first request');
    const first = await app.inject({ method: 'GET', url: '/api/openapi.json' });
    assert.equal(first.statusCode, 200);
    assert.match(String(first.headers['content-type']), /^application\/json/);
    const d = await checkDocument(first.json());
    assert.deepEqual(Object.keys(d.paths), ['/api/openapi.json', '/orders']);
    assert.equal(d.paths['/api/openapi.json'].get.summary, 'This OpenAPI document');
    assert.deepEqual(Object.keys(d.components.securitySchemes), ['ApiKey']);
    assert.equal(conversions, 1);
    const second = await app.inject({ method: 'GET', url: '/api/openapi.json' });
    assert.equal(second.body, first.body);
    assert.equal(conversions, 1, 'kept');
    assert.deepEqual(
      JSON.parse(first.body),
      JSON.parse(JSON.stringify(createOpenApiDocument(app, { info }))),
      'the same document createOpenApiDocument makes',
    );
  });

  it('defaults to /openapi.json, and takes the app first', async () => {
    const app = createApp();
    app.route(openApiRoute(app, { info }));
    assert.equal((await app.inject({ method: 'GET', url: '/openapi.json' })).statusCode, 200);
    assert.throws(() => openApiRoute({ info } as never, { info }), /takes the app it describes/);
  });
});
