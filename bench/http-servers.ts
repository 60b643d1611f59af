/**
 * The HTTP servers the HTTP benchmark measures, one per process: `node scripts/build-bench.mjs && node .bench/http-servers.mjs <kind>`.
 * Prints the port on stdout once listening. Every server answers GET /hello with {"hello":"world"}. A process
 * loads only its own framework: two frameworks sharing a dependency (both route with find-my-way) in one
 * process would slow each other's calls into it.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { packageModule as from } from './package-module.js';

type Core = typeof import('../packages/trellis/src/public/index.js');
const core = async (): Promise<Core> => (await import(from('index.js'))) as Core;
const ratelimit = async (): Promise<typeof import('../packages/trellis/src/public/ratelimit.js')> =>
  (await import(from('ratelimit/index.js'))) as typeof import('../packages/trellis/src/public/ratelimit.js');

const payload = { hello: 'world' };
const NEVER_REACHED = { permitLimit: 1_000_000_000, windowSeconds: 60 };

async function trellis(configure: (app: ReturnType<Core['createApp']>, trellis: Core) => unknown): Promise<number> {
  const loaded = await core();
  const app = loaded.createApp();
  await configure(app, loaded);
  const { port } = await app.listen({ port: 0 });
  return port;
}

async function fastify(withRateLimit: boolean): Promise<number> {
  const { default: Fastify } = await import('fastify');
  const { default: fastifyRateLimit } = await import('@fastify/rate-limit');
  const app = Fastify({ logger: false });
  if (withRateLimit)
    await app.register(fastifyRateLimit, { max: NEVER_REACHED.permitLimit, timeWindow: NEVER_REACHED.windowSeconds * 1000 });
  app.get('/hello', async () => payload);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

/** A bare node:http server; `extra` headers (name, value, …) go out beside the two every answer has. */
function bareNode(extra: readonly string[]): Promise<number> {
  return new Promise((resolve) => {
    const body = JSON.stringify(payload);
    const server = createServer((req, res) => {
      if (req.url === '/hello') {
        res.writeHead(200, [
          'content-type',
          'application/json; charset=utf-8',
          'content-length',
          String(Buffer.byteLength(body)),
          ...extra,
        ]);
        res.end(body);
      } else {
        res.statusCode = 404;
        res.end();
      }
    });
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

/**
 * POST /orders in bare node:http, the least any server does for it: the body read as text, parsed, its two
 * fields checked by hand, the answer written. No framework can be cheaper, so it bounds what a validated
 * route can gain on Fastify's.
 */
function bareNodeOrders(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer((req, res) => {
      let text = '';
      req.setEncoding('utf8');
      req.on('data', (chunk: string) => (text += chunk));
      req.on('end', () => {
        let order: { sku?: unknown; qty?: unknown };
        try {
          order = JSON.parse(text) as typeof order;
        } catch {
          order = {};
        }
        if (typeof order.sku !== 'string' || order.sku === '' || !Number.isInteger(order.qty) || (order.qty as number) < 1) {
          res.statusCode = 400;
          return void res.end();
        }
        const body = JSON.stringify({ sku: order.sku, qty: order.qty });
        res.writeHead(200, ['content-type', 'application/json; charset=utf-8', 'content-length', String(Buffer.byteLength(body))]);
        res.end(body);
      });
    });
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

const THREE_HEADERS = ['ratelimit-limit', '1000000000', 'ratelimit-remaining', '999999999', 'ratelimit-reset', '60'];

const kinds: Record<string, () => Promise<number>> = {
  'node-http': () => bareNode([]),
  'node-http-validated': () => bareNodeOrders(),
  // What node:http itself charges for the three RateLimit-* headers every allowed response carries.
  'node-http-three-headers': () => bareNode(THREE_HEADERS),
  'trellis-hello': () => trellis((app, { route }) => app.route(route('GET', '/hello', () => payload))),
  'trellis-default-pipeline': () =>
    trellis((app, { ApiKeyAuthenticator, Authenticator, route }) => {
      app.services.add(Authenticator, () => new ApiKeyAuthenticator({ keys: { bench: { subject: 'bench' } } }));
      app.route(route('GET', '/hello', () => payload));
    }),
  // The same three headers a rate-limited answer carries, without a limiter: what writing them costs alone.
  'trellis-three-headers': () =>
    trellis((app, { reply, route }) =>
      app.route(
        route('GET', '/hello', () =>
          reply(payload, { headers: { 'ratelimit-limit': '1000000000', 'ratelimit-remaining': '999999999', 'ratelimit-reset': '60' } }),
        ),
      ),
    ),
  'trellis-rate-limited': () =>
    trellis(async (app, { route }) => {
      const { RateLimit } = await ratelimit();
      app.route(route('GET', '/hello', [RateLimit(NEVER_REACHED)], () => payload));
    }),
  // POST /orders with a JSON body validated by a schema: zod through Validate, beside Fastify's JSON Schema.
  'trellis-validated': () =>
    trellis(async (app, { route, Validate }) => {
      const { z } = await import('zod');
      const order = z.object({ sku: z.string().min(1), qty: z.number().int().min(1) });
      app.route(route('POST', '/orders', [Validate({ body: order })], (ctx) => ({ sku: ctx.body.sku, qty: ctx.body.qty })));
    }),
  'fastify-validated': async () => {
    const { default: Fastify } = await import('fastify');
    const app = Fastify({ logger: false });
    const body = {
      type: 'object',
      required: ['sku', 'qty'],
      properties: { sku: { type: 'string', minLength: 1 }, qty: { type: 'integer', minimum: 1 } },
    };
    app.post<{ Body: { sku: string; qty: number } }>('/orders', { schema: { body } }, async (request) => ({
      sku: request.body.sku,
      qty: request.body.qty,
    }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    return (app.server.address() as AddressInfo).port;
  },
  'fastify-hello': () => fastify(false),
  'fastify-rate-limited': () => fastify(true),
};

const kind = process.argv[2] ?? '';
const start = kinds[kind];
if (!start) {
  console.error(`unknown server kind "${kind}"; one of ${Object.keys(kinds).join(', ')}`);
  process.exit(2);
}
const port = await start();
process.stdout.write(`${port}\n`);
// The benchmark asks for this process's own CPU time over IPC, before and after each round.
process.on('message', () => process.send?.(process.cpuUsage()));
// Exit normally on signals so profilers (--cpu-prof) can write their output.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(0));
