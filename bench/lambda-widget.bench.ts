/**
 * Warm CloudWatch custom-widget events per CPU-second, in one process, peers in the same run, rounds
 * interleaved, the best round of each counted. Every contender answers the same event — an action call
 * asking for `/orders` with a page and a region from the form — with the same escaped HTML:
 *  - trellis: `widgetHandler(app)` (route parameter, merge, the full pipeline, widget output);
 *  - hono: a Hono app behind the same few lines of widget adapter, through `app.request()` (Hono has no
 *    widget front door; `hono/aws-lambda` handles HTTP events only);
 *  - fastify: a Fastify app behind the same adapter, through `inject()` (what `@fastify/aws-lambda` calls);
 *  - plain: a hand-written handler with no framework (the floor: what a widget costs at all).
 * No npm package is made for widget Lambdas, so these are the peers. Bounded: about 10 s.
 *
 * Run alone: node scripts/build-bench.mjs && node .bench/lambda-widget.bench.mjs
 */
import Fastify from 'fastify';
import { Hono } from 'hono';
import { createApp, route } from '../packages/trellis/src/index.js';
import { widgetHandler } from '../packages/trellis/src/lambda/index.js';
import { escapeHtml, html } from '../packages/trellis/src/widgets/index.js';

const EVENT = {
  route: '/orders',
  page: 2,
  widgetContext: {
    dashboardName: 'Operations',
    widgetId: 'widget-3',
    accountId: '111122223333',
    locale: 'en',
    timezone: { label: 'UTC', offsetISO: '+00:00', offsetInMinutes: 0 },
    period: 300,
    isAutoPeriod: true,
    timeRange: { mode: 'relative', start: 1714557600000, end: 1714568400000, relativeStart: 10800000 },
    theme: 'light',
    linkCharts: true,
    title: 'Orders',
    forms: { all: { region: 'eu-west-1' } },
    params: { region: 'us-east-1' },
    width: 588,
    height: 369,
  },
};
const EXPECTED = '<p>Orders in eu-west-1, page 2</p>';

type Handler = (event: typeof EVENT) => Promise<unknown>;

/** The adapter a peer needs: merge the three sources (widget params, call params, forms) and build a URL. */
function adapt(event: Record<string, any>): string {
  const values = { ...event.widgetContext.params, ...event, ...event.widgetContext.forms.all };
  const path = typeof values.route === 'string' ? values.route : '/';
  delete values.route;
  delete values.widgetContext;
  return `${path}?${new URLSearchParams(values).toString()}`;
}

function trellis(): Handler {
  const app = createApp();
  app.route(
    route(
      'GET',
      '/orders',
      (ctx) => html`<p>Orders in ${ctx.request.query.get('region') ?? ''}, page ${ctx.request.query.get('page') ?? ''}</p>`,
    ),
  );
  return widgetHandler(app);
}

function hono(): Handler {
  const app = new Hono();
  app.get('/orders', (c) =>
    c.html(`<p>Orders in ${escapeHtml(c.req.query('region') ?? '')}, page ${escapeHtml(c.req.query('page') ?? '')}</p>`),
  );
  return async (event) => (await app.request(adapt(event))).text();
}

function fastify(): Handler {
  const app = Fastify();
  app.get('/orders', async (request, reply) => {
    const q = request.query as Record<string, string>;
    reply.type('text/html');
    return `<p>Orders in ${escapeHtml(q.region ?? '')}, page ${escapeHtml(q.page ?? '')}</p>`;
  });
  return async (event) => (await app.inject({ method: 'GET', url: adapt(event) })).body;
}

function plain(): Handler {
  return async (event) => {
    const values: Record<string, any> = { ...event.widgetContext.params, ...event, ...event.widgetContext.forms.all };
    if (values.route !== '/orders') return '<p>Not found</p>';
    return `<p>Orders in ${escapeHtml(String(values.region))}, page ${escapeHtml(String(values.page))}</p>`;
  };
}

/** Events answered per CPU-second (user + system time of this process) over `count` sequential events. */
async function perCpuSecond(handler: Handler, count: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) await handler(EVENT);
  const used = process.cpuUsage(start);
  return count / ((used.user + used.system) / 1e6);
}

export interface WidgetBenchResult {
  [name: string]: number;
}

export async function runLambdaWidgetBench(rounds = 5, count = 4000): Promise<WidgetBenchResult> {
  const contenders: Record<string, Handler> = { trellis: trellis(), hono: hono(), fastify: fastify(), plain: plain() };
  for (const [name, handler] of Object.entries(contenders)) {
    const out = await handler(EVENT);
    if (out !== EXPECTED) throw new Error(`${name} answered ${JSON.stringify(out)}, not ${EXPECTED}`);
    await perCpuSecond(handler, count / 4); // warm up
  }
  const best: WidgetBenchResult = {};
  for (let r = 0; r < rounds; r++) {
    for (const [name, handler] of Object.entries(contenders)) best[name] = Math.max(best[name] ?? 0, await perCpuSecond(handler, count));
  }
  return best;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const best = await runLambdaWidgetBench();
  const peers = ['hono', 'fastify'];
  const fastest = peers.reduce((a, b) => (best[a]! >= best[b]! ? a : b));
  console.log(
    `\nWarm widget events per CPU-second (best of 5 rounds; load average ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')})`,
  );
  for (const [name, value] of Object.entries(best))
    console.log(`  ${name.padEnd(8)} ${Math.round(value).toLocaleString('en-US').padStart(9)}`);
  console.log(
    `  trellis / ${fastest} (fastest framework peer): ${(best.trellis! / best[fastest]!).toFixed(2)}x; trellis / plain handler: ${(best.trellis! / best.plain!).toFixed(2)}x`,
  );
}
