/**
 * `npm run bench -- request-path`: which code one warm request to a Redis-limited route runs, Trellis beside
 * Fastify with @fastify/rate-limit on the same redis-server (the servers of the Redis HTTP benchmark). Each
 * server runs in a process of its own, is warmed with 2,000 requests, and V8's precise coverage records the
 * functions that ran while it answered one more (bench/request-path-server.ts). Printed: the files and the
 * functions, in all and by package (Trellis's own packages are `trellis` and `trellis-harness`). Trellis's
 * built files bundle its sources, so each function is counted in the source file its source map names.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { redisServerAvailable, startRedisServer } from '../test/support/redis-server.js';

const serverScript = fileURLToPath(new URL('./request-path-server.mjs', import.meta.url));

interface Path {
  /** Package → the files of it that ran. */
  files: Map<string, Set<string>>;
  /** Package → how many of its functions ran. */
  calls: Map<string, number>;
  /** Source file → the names of its functions that ran. */
  names: Map<string, string[]>;
  functions: number;
}

/** The package a file belongs to: the folder after the last node_modules/ (with its scope), or ours. */
function packageOf(url: string): string {
  const path = fileURLToPath(url);
  const ours = /\/packages\/(trellis|harness|create-trellis)\//.exec(path);
  const modules = path.lastIndexOf('/node_modules/');
  if (modules >= 0) {
    const [first = '', second = ''] = path.slice(modules + '/node_modules/'.length).split('/');
    return first.startsWith('@') ? `${first}/${second}` : first;
  }
  if (ours) return ours[1] === 'harness' ? 'trellis-harness' : ours[1]!;
  return path;
}

/** Where a function of a built file comes from: its source file by the file's source map, else the file itself. */
function sourceOf(url: string, offset: number, maps: Map<string, { map: SourceMap; lineStarts: number[] } | null>): string {
  const path = fileURLToPath(url);
  if (!maps.has(path)) {
    const mapFile = `${path}.map`;
    if (!existsSync(mapFile)) maps.set(path, null);
    else {
      const text = readFileSync(path, 'utf8');
      const lineStarts = [0];
      for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
      maps.set(path, { map: new SourceMap(JSON.parse(readFileSync(mapFile, 'utf8'))), lineStarts });
    }
  }
  const found = maps.get(path);
  if (!found) return url;
  let line = 0;
  while (line + 1 < found.lineStarts.length && found.lineStarts[line + 1]! <= offset) line++;
  const entry = found.map.findEntry(line, offset - found.lineStarts[line]!) as { originalSource?: string };
  return entry.originalSource ? new URL(entry.originalSource, url).href : url;
}

function measure(kind: string, redisUrl: string): Path {
  const run = spawnSync(process.execPath, [serverScript, kind, redisUrl], { encoding: 'utf8', timeout: 120_000 });
  if (run.status !== 0) throw new Error(`${kind} did not finish: ${run.stderr || run.signal || run.status}`);
  const { functions } = JSON.parse(run.stdout) as { functions: Array<{ url: string; name: string; offset: number }> };
  const files = new Map<string, Set<string>>();
  const calls = new Map<string, number>();
  const names = new Map<string, string[]>();
  const maps = new Map<string, { map: SourceMap; lineStarts: number[] } | null>();
  for (const { url, name: fn, offset } of functions) {
    const name = packageOf(url);
    if (!files.has(name)) files.set(name, new Set());
    const source = sourceOf(url, offset, maps);
    files.get(name)!.add(source);
    calls.set(name, (calls.get(name) ?? 0) + 1);
    if (!names.has(source)) names.set(source, []);
    names.get(source)!.push(fn || '(anonymous)');
  }
  return { files, calls, names, functions: functions.length };
}

function line(label: string, path: Path): string {
  const count = [...path.files.values()].reduce((n, set) => n + set.size, 0);
  const byPackage = [...path.files.entries()]
    .sort((a, b) => b[1].size - a[1].size)
    .map(([name, set]) => `${name} ${set.size} (${path.calls.get(name)})`)
    .join(', ');
  return `${label.padEnd(30)} ${String(count).padStart(5)} ${String(path.functions).padStart(10)}   ${byPackage}`;
}

export async function runRequestPathBench(): Promise<void> {
  if (!redisServerAvailable()) throw new Error('redis-server not found: install it (apt-get install -y redis-server)');
  const redis = await startRedisServer();
  try {
    const trellis = measure('trellis-redis', redis.url);
    const fastify = measure('fastify-redis', redis.url);
    console.log('\nRequest path: one warm GET /hello under a Redis rate limit (V8 precise coverage of that request)');
    console.log(`${'server'.padEnd(30)} ${'files'.padStart(5)} ${'functions'.padStart(10)}   files (functions) by package`);
    console.log(line('Trellis + RedisRateLimitStore', trellis));
    console.log(line('Fastify + @fastify/rate-limit', fastify));
    const own = (path: Path, names: string[]) => names.reduce((n, name) => n + (path.files.get(name)?.size ?? 0), 0);
    const ours = ['trellis', 'trellis-harness'];
    const functions = ours.reduce((n, name) => n + (trellis.calls.get(name) ?? 0), 0);
    console.log(`Trellis's own packages: ${own(trellis, ours)} files, ${functions} functions (goal: at most 20 files)`);
    const root = new URL('../', import.meta.url).href;
    for (const name of ours) {
      for (const file of [...(trellis.files.get(name) ?? [])].sort()) {
        console.log(`  ${file.replace(root, '')}: ${[...new Set(trellis.names.get(file))].join(', ')}`);
      }
    }
  } finally {
    await redis.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    await runRequestPathBench();
  } catch (error) {
    console.log(`\nRequest-path benchmark skipped: ${(error as Error).message}`);
  }
}
