// One Lambda app per framework — three routes, answering API Gateway HTTP API (payload 2.0) events — for
// bench/lambda.bench.ts. Plain JavaScript run by plain `node`, importing what a deployed function imports
// (Trellis from packages/trellis/dist/, the peers from node_modules), so a cold start here is a cold start there.
//
//   node bench/lambda-peers.mjs cold <framework>         answers one event, prints ms since process start
//                                                        and the CPU ms the process has used by then
//   node bench/lambda-peers.mjs warm <framework> <n>     answers n events, prints CPU µs spent on them
import process from 'node:process';
import { performance } from 'node:perf_hooks';

const [mode, framework, count] = process.argv.slice(2);

const event = (method, path, body) => ({
  version: '2.0',
  routeKey: '$default',
  rawPath: path,
  rawQueryString: '',
  headers: { accept: 'application/json', host: 'abc123.execute-api.eu-west-1.amazonaws.com', 'user-agent': 'bench', ...(body ? { 'content-type': 'application/json', 'content-length': String(body.length) } : {}) },
  requestContext: {
    accountId: '111122223333', apiId: 'abc123', domainName: 'abc123.execute-api.eu-west-1.amazonaws.com', domainPrefix: 'abc123',
    http: { method, path, protocol: 'HTTP/1.1', sourceIp: '203.0.113.9', userAgent: 'bench' },
    requestId: 'JKJaXmPLvHcESHA=', routeKey: '$default', stage: '$default', time: '24/Nov/2026:10:00:00 +0000', timeEpoch: 1795514400000,
  },
  ...(body ? { body } : {}),
  isBase64Encoded: false,
});
const context = { awsRequestId: 'b1c2d3e4', functionName: 'bench', getRemainingTimeInMillis: () => 3000 };

async function trellis() {
  const { createApp, route } = await import('../packages/trellis/dist/index.js');
  const { lambdaHandler } = await import('../packages/trellis/dist/lambda/index.js');
  const app = createApp();
  app.route(
    route('GET', '/hello', () => ({ hello: 'world' })),
    route('GET', '/users/:id', (ctx) => ({ id: ctx.params.id })),
    route('POST', '/echo', (ctx) => ctx.body),
  );
  return lambdaHandler(app);
}

async function hono() {
  const { Hono } = await import('hono');
  const { handle } = await import('hono/aws-lambda');
  const app = new Hono();
  app.get('/hello', (c) => c.json({ hello: 'world' }));
  app.get('/users/:id', (c) => c.json({ id: c.req.param('id') }));
  app.post('/echo', async (c) => c.json(await c.req.json()));
  return handle(app);
}

async function fastify() {
  const { default: Fastify } = await import('fastify');
  const { default: awsLambdaFastify } = await import('@fastify/aws-lambda');
  const app = Fastify();
  app.get('/hello', async () => ({ hello: 'world' }));
  app.get('/users/:id', async (request) => ({ id: request.params.id }));
  app.post('/echo', async (request) => request.body);
  return awsLambdaFastify(app);
}

const make = { trellis, hono, fastify }[framework];
if (!make) throw new Error(`unknown framework ${framework}; use trellis, hono or fastify`);

const check = (result, what) => {
  if (result.statusCode !== 200) throw new Error(`${framework}: ${what} answered ${result.statusCode}: ${result.body}`);
};

if (mode === 'cold') {
  const handler = await make();
  check(await handler(event('GET', '/users/42'), context), 'the first event');
  const cpu = process.cpuUsage();
  process.stdout.write(`${performance.now()} ${(cpu.user + cpu.system) / 1000}\n`);
} else if (mode === 'warm') {
  const handler = await make();
  const events = [event('GET', '/hello'), event('GET', '/users/42'), event('POST', '/echo', '{"n":1,"tags":["a","b"]}')];
  for (let i = 0; i < 2000; i++) check(await handler(events[i % 3], context), 'a warm-up event');
  const n = Number(count);
  const before = process.cpuUsage();
  for (let i = 0; i < n; i++) check(await handler(events[i % 3], context), 'an event');
  const spent = process.cpuUsage(before);
  process.stdout.write(`${spent.user + spent.system}\n`);
} else throw new Error('mode is cold or warm');
