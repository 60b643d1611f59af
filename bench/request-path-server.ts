/**
 * One server of the request-path benchmark, in a process of its own:
 * `node .bench/request-path-server.mjs <trellis-redis|fastify-redis> <redis-url>`. Starts the server of the Redis
 * HTTP benchmark (bench/redis-http-servers.ts), warms it with requests from this process, then records with V8's
 * precise coverage which functions run while it answers one more request, and prints them as JSON on stdout:
 * `{ functions: [{ url, name, offset }] }` (Node.js's own code, the client and the route's handler left out).
 */
import { Agent, request } from 'node:http';
import { Session } from 'node:inspector/promises';
import { redisHttpServers } from './redis-http-servers.js';

const WARM_REQUESTS = 2_000;

interface ScriptCoverage {
  url: string;
  functions: Array<{ functionName: string; ranges: Array<{ startOffset: number; count: number }> }>;
}

const [kind = '', url = ''] = process.argv.slice(2);
const start = redisHttpServers[kind];
if (!start) {
  console.error(`usage: request-path-server.mjs <${Object.keys(redisHttpServers).join('|')}> <redis://host:port>`);
  process.exit(2);
}
const port = await start(url);
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

function get(): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/hello', agent }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

const session = new Session();
session.connect();
await session.post('Profiler.enable');
// Counts per function; taking the coverage resets them, so the second take holds one request alone.
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
for (let i = 0; i < WARM_REQUESTS; i++) if ((await get()) !== 200) throw new Error(`${kind}: a warm-up request was refused`);
await session.post('Profiler.takePreciseCoverage');
const status = await get();
const { result } = (await session.post('Profiler.takePreciseCoverage')) as unknown as { result: ScriptCoverage[] };
await session.post('Profiler.stopPreciseCoverage');
if (status !== 200) throw new Error(`${kind}: the measured request was answered ${status}`);

const functions = result
  // Node.js's own code has node: URLs; this file (the client, and the route's handler) is the benchmark's.
  .filter((script) => script.url.startsWith('file://') && !script.url.includes('/.bench/'))
  .flatMap((script) =>
    script.functions
      .filter((f) => (f.ranges[0]?.count ?? 0) > 0)
      .map((f) => ({ url: script.url, name: f.functionName, offset: f.ranges[0]!.startOffset })),
  );
// Written before exiting: the server, the Redis client and the agent would keep the process alive.
process.stdout.write(`${JSON.stringify({ functions })}\n`, () => process.exit(0));
