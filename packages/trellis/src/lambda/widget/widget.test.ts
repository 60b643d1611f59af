// Widget events through the public surface: mapping in (route, parameters, context), the app's pipeline, mapping out.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import * as v from 'valibot';
import { z } from 'zod';
import {
  Authorize,
  Cache,
  Controller,
  createApp,
  Get,
  HttpError,
  Logger,
  RegistrationType,
  reply,
  route,
  Validate,
  type App,
  type ExecutionContext,
} from '../../index.js';
import { InProcessRateLimitStore, ManualClock, RateLimit, RateLimitPartitioner, RateLimitStore } from '../../ratelimit/index.js';
import { html, markdown, type LambdaContext, type WidgetContext } from '../../widgets/index.js';
import {
  Describe,
  routeAction,
  isWidgetEvent,
  widgetContext,
  widgetHandler,
  widgetInvocation,
  WidgetRateLimitPartitioner,
} from '../index.js';

/** One widget event answered by a handler made for it, as Lambda would call `widgetHandler(app, options)`. */
const answer = (app: App, event: unknown, context?: Partial<LambdaContext>, options?: Parameters<typeof widgetHandler>[1]) =>
  widgetHandler(app, options)(event, context);

const fixture = (name: string): Record<string, any> =>
  JSON.parse(readFileSync(new URL(`../../../../../test/fixtures/lambda-widget/${name}.json`, import.meta.url), 'utf8'));
const LOAD = fixture('load');
const CALL = fixture('action-call');
const DESCRIBE = fixture('describe');
const quiet = { warn() {}, error() {} };
const lambdaContext = { functionName: 'orders-widget', awsRequestId: 'req-1' } as LambdaContext;

/** The load event of a widget on a dashboard, with these params. */
function load(params: Record<string, unknown>, context: Partial<WidgetContext> = {}): Record<string, unknown> {
  return { ...params, widgetContext: { ...LOAD.widgetContext, params, ...context } };
}

function echoApp(): App {
  const app = createApp();
  const echo = (ctx: ExecutionContext) => ({
    path: ctx.request.path,
    method: ctx.request.method,
    body: ctx.body,
    query: [...ctx.request.query],
    dashboard: widgetContext(ctx).dashboardName,
    requestId: widgetInvocation(ctx)?.lambdaContext?.awsRequestId,
  });
  app.route(
    route('GET', '/', echo),
    route('GET', '/orders', echo),
    route('GET', '/orders/:id', (ctx) => ({ id: ctx.params.id })),
  );
  return app;
}

describe('widget events', () => {
  it('recognises widget events and nothing else', () => {
    for (const event of [LOAD, CALL, DESCRIBE, { describe: true, widgetContext: LOAD.widgetContext }])
      assert.equal(isWidgetEvent(event), true);
    const http = [
      { version: '2.0', rawPath: '/', requestContext: { http: { method: 'GET' } }, widgetContext: {} },
      { httpMethod: 'GET', path: '/', describe: true },
      { describe: 'yes' },
      { widgetContext: 'x' },
      { widgetContext: [] },
      null,
      'text',
      42,
      [LOAD],
    ];
    for (const event of http) assert.equal(isWidgetEvent(event), false, JSON.stringify(event));
  });

  it('a load with no route parameter runs GET / with the widget params as JSON body and query; the handler reads widgetContext and the Lambda context', async () => {
    const out = await answer(echoApp(), LOAD, lambdaContext);
    assert.deepEqual(out, {
      path: '/',
      method: 'GET',
      body: { view: 'summary', region: 'eu-west-1' },
      query: [
        ['view', 'summary'],
        ['region', 'eu-west-1'],
      ],
      dashboard: 'Operations',
      requestId: 'req-1',
    });
  });

  it("an action call merges widget params < the call's own params < form values, and the route parameter picks the path", async () => {
    const out = (await answer(echoApp(), CALL, lambdaContext)) as Record<string, any>;
    assert.equal(out.path, '/orders');
    // region: the form (us-east-1) beats the widget param (eu-west-1); page: the action's own; view: the widget's.
    assert.deepEqual(out.body, { view: 'summary', region: 'us-east-1', page: 2, status: ['open', 'late'], note: '' });
    assert.deepEqual(out.query, [
      ['view', 'summary'],
      ['region', 'us-east-1'],
      ['page', '2'],
      ['status', 'open'],
      ['status', 'late'],
      ['note', ''],
    ]);
    assert.equal('route' in out.body, false, 'the route parameter is the path, not a value');
    assert.deepEqual(await answer(echoApp(), load({ route: '/orders/42' })), { id: '42' });
  });

  it('the merge order holds for any three sources (property)', async () => {
    const app = createApp();
    app.route(
      route('GET', '/', (ctx) => ({ body: ctx.body })),
      route('GET', '/picked', (ctx) => ({ body: ctx.body, picked: true })),
    );
    const key = fc.constantFrom('a', 'b', 'c', 'route', '__proto__', 'constructor');
    const value = fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.constant(null));
    const dict = fc.dictionary(key, value);
    await fc.assert(
      fc.asyncProperty(dict, dict, dict, async (widgetParams, topLevel, forms) => {
        const event = {
          ...JSON.parse(JSON.stringify(topLevel)),
          widgetContext: { ...LOAD.widgetContext, params: widgetParams, forms: { all: forms } },
        };
        const expected: Record<string, unknown> = {};
        for (const source of [widgetParams, topLevel, forms])
          for (const [k, val] of Object.entries(source))
            Object.defineProperty(expected, k, { value: val, enumerable: true, writable: true, configurable: true });
        const chosen = 'route' in expected ? expected.route : '/';
        delete expected.route;
        const out = (await answer(app, event)) as any;
        if (chosen === '/' || chosen === '/picked') {
          assert.deepEqual(JSON.parse(JSON.stringify(out.body)), JSON.parse(JSON.stringify(expected)));
          assert.equal(Object.getPrototypeOf(out.body), Object.prototype, 'a "__proto__" parameter stays a plain key');
        } else {
          assert.match(String(out), /trellis-widget-error/);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('the route parameter can be renamed; a bad route value or an unknown route is a readable message', async () => {
    const app = echoApp();
    assert.equal(((await answer(app, load({ view: '/orders' }), undefined, { routeParam: 'view' })) as any).path, '/orders');
    for (const bad of [42, 'orders', '//evil.example/x', '/a?b=1', null]) {
      const out = String(await answer(app, load({ route: bad })));
      assert.match(out, /data-code="TRELLIS_BAD_TARGET"><h4>400 Bad Request<\/h4>/);
      assert.match(out, /The &quot;route&quot; parameter must be a path/);
    }
    const missing = String(await answer(app, load({ route: '/nowhere' })));
    assert.match(missing, /data-code="TRELLIS_NOT_FOUND"><h4>404 Not Found<\/h4><p>No handler for GET \/nowhere\.<\/p>/);
    assert.throws(() => widgetHandler(app, { routeParam: 'widgetContext' }), /routeParam must be a parameter name/);
    await assert.rejects(answer(app, { httpMethod: 'GET' }), /takes a CloudWatch custom-widget event/);
  });

  it('return values become widget output: html template and strings are HTML, { markdown }, other JSON as is, nothing as empty', async () => {
    const app = createApp();
    app.route(
      route('GET', '/html', () => html`<p>${'<b>'}</p>`),
      route('GET', '/string', () => '<h1>Hi</h1>'),
      route('GET', '/md', () => markdown('# Title')),
      route('GET', '/json', () => ({ count: 3, list: [1, 2] })),
      route('GET', '/none', () => undefined),
      route('GET', '/bytes', () => new Uint8Array([1, 2, 3])),
      route('GET', '/created', () => reply(html`<p>made</p>`, { status: 201 })),
    );
    const call = (path: string) => answer(app, load({ route: path }));
    assert.equal(await call('/html'), '<p>&lt;b&gt;</p>');
    assert.equal(await call('/string'), '<h1>Hi</h1>');
    assert.deepEqual(await call('/md'), { markdown: '# Title' });
    assert.deepEqual(await call('/json'), { count: 3, list: [1, 2] });
    assert.equal(await call('/none'), '');
    assert.match(String(await call('/bytes')), /application\/octet-stream, which a widget cannot show/);
    assert.equal(await call('/created'), '<p>made</p>');
  });

  it("a thrown error is a 500 message without the error's text or stack, unless the app runs in development mode", async () => {
    for (const development of [false, true]) {
      const app = createApp({ development });
      app.services.addValue(Logger, quiet);
      app.route(
        route('GET', '/', () => {
          throw new Error('secret detail');
        }),
        route('GET', '/gone', () => {
          throw new HttpError(404, 'No such report.');
        }),
      );
      const out = String(await answer(app, LOAD));
      assert.match(
        out,
        /^<div class="trellis-widget-error" role="alert" data-code="TRELLIS_HANDLER_FAILED"><h4>500 Internal Server Error<\/h4>/,
      );
      assert.equal(out.includes('secret detail'), development);
      assert.equal(out.includes('widget.test.ts'), development, 'a stack only in development mode');
      assert.match(String(await answer(app, load({ route: '/gone' }))), /<h4>404 Not Found<\/h4><p>No such report\.<\/p>/);
    }
  });

  it('Standard Schema validation of the merged values, as a body (typed) or a query (text)', async () => {
    const app = createApp();
    const body = z.object({ page: z.number().int().min(1), region: z.enum(['eu-west-1', 'us-east-1']) });
    app.route(route('GET', '/orders', [Validate({ body })], (ctx) => ctx.body));
    app.route(
      route('GET', '/q', [Validate({ query: v.object({ view: v.picklist(['summary', 'detail']) }) })], (ctx) => ctx.validatedQuery),
    );
    assert.deepEqual(await answer(app, CALL), { page: 2, region: 'us-east-1' });
    const bad = String(await answer(app, { ...CALL, page: 0 }));
    assert.match(bad, /<h4>400 Bad Request<\/h4><p>The request body is invalid: page: /);
    assert.deepEqual(await answer(app, load({ route: '/q', view: 'detail' })), { view: 'detail' });
    assert.match(String(await answer(app, load({ route: '/q', view: 'other' }))), /400 Bad Request/);
  });

  it('a path that answers only POST gets a POST; one with GET gets GET', async () => {
    const app = createApp();
    const seen: string[] = [];
    app.route(
      route('POST', '/restart', (ctx) => {
        seen.push(ctx.request.method);
        return html`<p>restarted ${String((ctx.body as any).id)}</p>`;
      }),
    );
    app.route(
      route('GET', '/both', () => 'get'),
      route('POST', '/both', () => 'post'),
    );
    assert.equal(await answer(app, load({ route: '/restart', id: 'i-1' })), '<p>restarted i-1</p>');
    assert.deepEqual(seen, ['POST']);
    assert.equal(await answer(app, load({ route: '/both' })), 'get');
  });

  it('rate limits refuse with a 429 message saying when to try again; partitions by dashboard keep dashboards apart', async () => {
    const clock = new ManualClock();
    const app = createApp();
    app.services.add(RateLimitStore, () => new InProcessRateLimitStore({ clock }), { type: RegistrationType.Replace });
    app.services.addValue(RateLimitPartitioner, new WidgetRateLimitPartitioner({ by: 'dashboard' }), { type: RegistrationType.Replace });
    app.route(route('GET', '/', [RateLimit({ permitLimit: 2, windowSeconds: 60 })], () => html`<p>ok</p>`));
    const handler = widgetHandler(app);
    const on = (dashboardName: string) => load({}, { dashboardName });
    assert.equal(await handler(on('A')), '<p>ok</p>');
    clock.advance(10_000);
    assert.equal(await handler(on('A')), '<p>ok</p>');
    const refused = String(await handler(on('A')));
    assert.match(refused, /<h4>429 Too Many Requests<\/h4><p>[^<]+<\/p><p class="trellis-widget-retry">Try again in 50 seconds\.<\/p>/);
    assert.equal(await handler(on('B')), '<p>ok</p>', 'another dashboard has its own allowance');
    clock.advance(50_000);
    assert.equal(await handler(on('A')), '<p>ok</p>');
  });

  it('the widget partitioner keys by account, dashboard, widget or a function, and leaves other requests to the fallback', async () => {
    const keys: string[] = [];
    const store = {
      acquire: (partition: string) => {
        keys.push(partition);
        return { allowed: true, limit: 9, remaining: 8, reset: 1, retryAfter: 0 };
      },
    };
    for (const by of ['account', 'dashboard', 'widget', (c: WidgetContext) => c.title] as const) {
      const app = createApp();
      app.services.addValue(RateLimitStore, store, { type: RegistrationType.Replace });
      app.services.addValue(RateLimitPartitioner, new WidgetRateLimitPartitioner({ by }), { type: RegistrationType.Replace });
      app.route(route('GET', '/', [RateLimit()], () => 'ok'));
      await answer(app, LOAD);
      await app.inject({ url: '/' });
    }
    assert.deepEqual(keys, [
      'widget-account:["111122223333"]',
      'anonymous',
      'widget-dashboard:["111122223333","Operations"]',
      'anonymous',
      'widget:["111122223333","Operations","widget-3"]',
      'anonymous',
      'widget-key:Orders by region',
      'anonymous',
    ]);
    assert.throws(
      () => new WidgetRateLimitPartitioner({ by: 'caller' as never }),
      /"by" must be "account", "dashboard", "widget" or a function/,
    );
  });

  it('widget partitions never collide: distinct places give distinct keys, none a subject, header or the anonymous bucket (property)', async () => {
    const partitioner = new WidgetRateLimitPartitioner({ by: 'widget' });
    const app = createApp();
    app.route(route('GET', '/', (ctx) => ({ key: partitioner.partition(ctx) })));
    const keyOf = async (accountId: string, dashboardName: string, widgetId: string): Promise<string> => {
      const widgetContext = { ...LOAD.widgetContext, accountId, dashboardName, widgetId };
      return ((await answer(app, { widgetContext })) as { key: string }).key;
    };
    const text = fc.string({ maxLength: 6 });
    await fc.assert(
      fc.asyncProperty(fc.tuple(text, text, text), fc.tuple(text, text, text), async (a, b) => {
        const [ka, kb] = [await keyOf(...a), await keyOf(...b)];
        assert.equal(ka === kb, a.join('\u0000') === b.join('\u0000'));
        assert.ok(ka.startsWith('widget:') && ka !== 'anonymous');
      }),
      { numRuns: 100 },
    );
  });

  it('authorization refuses anonymous widget events with a 401 message; the cache keys by parameters and can vary by the time range', async () => {
    const app = createApp();
    let runs = 0;
    app.route(route('GET', '/secret', [Authorize('ops')], () => 'hidden'));
    app.route(
      route('GET', '/cached', [Cache({ seconds: 60, varyBy: ['header:x-widget-time-range'] })], (ctx) => {
        runs++;
        return html`<p>${String((ctx.body as any).region)} #${runs}</p>`;
      }),
    );
    assert.match(String(await answer(app, load({ route: '/secret' }))), /<h4>401 Unauthorized<\/h4>/);
    const cached = (region: string, context: Partial<WidgetContext> = {}) => answer(app, load({ route: '/cached', region }, context));
    assert.equal(await cached('eu'), '<p>eu #1</p>');
    assert.equal(await cached('eu'), '<p>eu #1</p>', 'served from the cache');
    assert.equal(await cached('us'), '<p>us #2</p>', 'other params, another entry');
    assert.equal(
      await cached('eu', { timeRange: { mode: 'absolute', start: 1, end: 2 } }),
      '<p>eu #3</p>',
      'another time range, another entry',
    );
  });

  it('widgetContext(ctx) is only for widget events: an HTTP request cannot forge one', async () => {
    const app = createApp();
    app.services.addValue(Logger, quiet);
    app.route(route('POST', '/', (ctx) => (widgetInvocation(ctx) !== undefined ? widgetContext(ctx).accountId : 'http')));
    app.route(route('GET', '/strict', (ctx) => widgetContext(ctx).accountId));
    assert.equal(
      (await app.inject({ method: 'POST', url: '/', body: { widgetContext: LOAD.widgetContext }, headers: { 'x-widget-account': '1' } }))
        .body,
      'http',
    );
    assert.equal((await app.inject({ url: '/strict' })).statusCode, 500);
    assert.equal(await answer(app, LOAD), '111122223333');
  });

  it('widgetHandler builds the app once, at creation: a conflicting declaration fails the cold start', () => {
    const app = createApp();
    app.route(route('GET', '/', [RateLimit({ name: 'x', permitLimit: 1 }), RateLimit({ name: 'x', permitLimit: 2 })], () => 'x'));
    assert.throws(() => widgetHandler(app), /share the name "x"/);
    const built = createApp();
    built.route(route('GET', '/', () => 'x'));
    widgetHandler(built);
    assert.throws(() => built.route(route('GET', '/late', () => 'y')), /cannot change once the app is built/);
  });
});

describe('routeAction', () => {
  it('calls this same function by its ARN on another route, under the configured route parameter', async () => {
    const app = createApp();
    app.services.addValue(Logger, quiet);
    app.route(
      route(
        'GET',
        '/',
        (ctx) => html`<button>Next</button>${routeAction(ctx, '/orders', { page: 2 }, { display: 'popup', confirmation: 'Sure?' })}`,
      ),
    );
    app.route(route('GET', '/http', (ctx) => routeAction(ctx, '/x')));
    const arn = 'arn:aws:lambda:eu-west-1:111122223333:function:orders-widget';
    const out = await answer(app, LOAD, { ...lambdaContext, invokedFunctionArn: arn }, { routeParam: 'screen' });
    assert.equal(
      out,
      `<button>Next</button><cwdb-action action="call" endpoint="${arn}" display="popup" confirmation="Sure?">{&quot;page&quot;:2,&quot;screen&quot;:&quot;/orders&quot;}</cwdb-action>`,
    );
    assert.equal((await app.inject({ url: '/http' })).statusCode, 500, 'no Lambda context, no endpoint');
    assert.throws(() => routeAction({} as ExecutionContext, 'orders'), /a path starting with "\/"/);
  });
});

describe('describe events', () => {
  it('answers { describe: true } with Markdown of the routes, their summaries, parameters and limits', async () => {
    const app = createApp();
    const orders = z.object({
      region: z.enum(['eu-west-1', 'us-east-1']).describe('Where the orders are | placed.'),
      page: z.number().int().default(1).describe('Which page.'),
    });
    app.route(route('GET', '/', [Describe('The **overview**.')], () => 'x'));
    app.route(
      route(
        'GET',
        '/orders',
        [Describe('Orders, a page at a time.'), Validate({ body: orders }), RateLimit({ permitLimit: 5, windowSeconds: 60 })],
        () => 'x',
      ),
    );
    app.route(route('POST', '/restart', [Validate({ body: v.object({ id: v.string() }) })], () => 'x'));
    app.route(route('DELETE', '/hidden', () => 'x'));
    const md = String(await answer(app, DESCRIBE, undefined, { describe: { title: 'Orders widget', introduction: 'Shows orders.' } }));
    assert.equal(
      md,
      `## Orders widget

Shows orders.

Pick a view with the \`route\` parameter (default \`/\`) in the widget's params or an action's params. Values come from the widget's params, then the call's own params, then the widget's form fields; a later source wins.

### \`/\`

The **overview**.

No declared parameters.

### \`/orders\`

Orders, a page at a time.

| Parameter | Type | Required | Description |
|---|---|---|---|
| \`region\` | \`"eu-west-1"\`, \`"us-east-1"\` | yes | Where the orders are \\| placed. |
| \`page\` | integer | no | Which page. Default: \`1\`. |

Rate limit \`default\`: 5 per 60 s.

### \`/restart\` (POST)

Parameters are checked by a valibot schema that does not describe itself.
`,
    );
    assert.match(
      String(await answer(createApp(), { describe: true, widgetContext: LOAD.widgetContext })),
      /This function has no widget routes\./,
    );
  });

  it("Describe is also a decorator, on methods and classes (a method's own summary replaces the class's)", async () => {
    @Describe('Every view of the alarms widget.')
    @Controller('/alarms')
    class Alarms {
      @Describe('Alarms in ALARM state.') @Get('/') list() {
        return html`<p>none</p>`;
      }
      @Get('/muted') muted() {
        return html`<p>muted</p>`;
      }
    }
    const app = createApp();
    app.controller(Alarms);
    const md = String(await answer(app, DESCRIBE));
    assert.match(md, /### `\/alarms`\n\nAlarms in ALARM state\.\n\nNo declared parameters\./);
    assert.match(md, /### `\/alarms\/muted`\n\nEvery view of the alarms widget\.\n/);
    assert.equal(await answer(app, load({ route: '/alarms/muted' })), '<p>muted</p>');
    assert.throws(() => Describe('  '), /non-empty Markdown summary/);
  });
});
