// One Lambda function serving both an API and a dashboard's widgets: lambdaHandler tells the events apart.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createApp, route } from '../../packages/trellis/src/index.js';
import { html } from '../../packages/trellis/src/widgets/index.js';
import { RateLimit } from '../../packages/trellis/src/ratelimit/index.js';
import { lambdaHandler, type WidgetLambdaEvent } from '../../packages/trellis/src/lambda/index.js';
import { httpEvent, readResult } from '../support/lambda-events.js';

function widgetEvent(params: Record<string, unknown>): WidgetLambdaEvent {
  const event = JSON.parse(readFileSync(new URL('../fixtures/lambda-widget/load.json', import.meta.url), 'utf8'));
  event.widgetContext.params = params;
  return { ...params, widgetContext: event.widgetContext };
}

function app() {
  const made = createApp();
  made.route(
    route('GET', '/orders', [RateLimit({ permitLimit: 2, windowSeconds: 60 })], (ctx) => ({
      region: ctx.request.query.get('region') ?? 'all',
    })),
  );
  made.route(route('GET', '/', () => html`<h1>Orders</h1>`));
  return made;
}

describe('lambdaHandler answers HTTP and custom-widget events with one app', () => {
  it('routes an API Gateway event and a widget event through the same routes and counters', async () => {
    const handler = lambdaHandler(app());
    const http = readResult(await handler(httpEvent('http-api', { path: '/orders', query: 'region=eu' })));
    assert.equal(http.statusCode, 200);
    assert.deepEqual(JSON.parse(http.body), { region: 'eu' });
    assert.equal(http.headers['ratelimit-remaining'], '1');

    const widget = await handler(widgetEvent({ route: '/orders', region: 'us' }));
    assert.deepEqual(widget, { region: 'us' }, 'JSON output for the widget');
    assert.equal(await handler(widgetEvent({})), '<h1>Orders</h1>', 'the default route is /');

    // The third request on the same counter (the default partition is shared by anonymous callers) is refused,
    // and a widget sees that as a readable message rather than a problem document.
    const refused = await handler(widgetEvent({ route: '/orders' }));
    assert.equal(typeof refused, 'string');
    assert.match(refused as string, /429/);
    assert.match(refused as string, /Too Many Requests/);
  });

  it('answers describe from the routes, and checks widget options when the handler is made', async () => {
    const text = await lambdaHandler(app())({ describe: true } as WidgetLambdaEvent);
    assert.equal(typeof text, 'string');
    assert.match(text as string, /\/orders/);
    assert.throws(() => lambdaHandler(app(), { widget: { routeParam: 'widgetContext' } }), TypeError);
  });
});
