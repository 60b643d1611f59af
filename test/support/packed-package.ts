/**
 * The packages as a user gets them: `npm pack` of each workspace package (built first when a `dist/` is missing
 * or older than its sources), installed from the tarballs into a new, empty project folder.
 *
 * @example
 * const project = await installPackedPackage();
 * try { execFileSync('node', ['index.js'], { cwd: project.dir }); } finally { project.remove(); }
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { alive } from './process-alive.js';

const run = promisify(execFile);
export const REPO = fileURLToPath(new URL('../../', import.meta.url));
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function newest(dir: string, skip: RegExp): number {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) latest = Math.max(latest, newest(path, skip));
    else if (!skip.test(entry.name)) latest = Math.max(latest, statSync(path).mtimeMs);
  }
  return latest;
}

/** The packages a project can install, by name, with their folders in this repository. */
export const PACKAGES = {
  trellis: 'packages/trellis',
  'trellis-harness': 'packages/harness',
  'create-trellis': 'packages/create-trellis',
} as const;
export type PackageName = keyof typeof PACKAGES;

function built(): boolean {
  return [
    ['trellis', 'widgets/index.d.cts'],
    ['harness', 'public/lint.d.cts'],
  ].every(([pkg, file]) => {
    const marker = join(REPO, 'packages', pkg!, 'dist', file!);
    return existsSync(marker) && statSync(marker).mtimeMs >= newest(join(REPO, 'packages', pkg!, 'src'), /\.test(-suite)?\.ts$/);
  });
}

/**
 * Whether a lock folder was left by a run that is gone: its holder's process id (the file `pid` in it) names
 * no running process, or it has had no `pid` for longer than taking a lock takes.
 */
function abandoned(lock: string): boolean {
  try {
    return !alive(Number(readFileSync(join(lock, 'pid'), 'utf8')));
  } catch {
    try {
      return Date.now() - statSync(lock).mtimeMs > 5_000;
    } catch {
      return false;
    }
  }
}

/**
 * Builds `dist/` unless it is newer than every source file it is made from. Test files run at the same time
 * take turns through a lock folder, so one builds and the others wait for it; a lock whose holder was killed
 * is taken over.
 */
async function ensureBuilt(): Promise<void> {
  const lock = join(tmpdir(), `trellis-build-${createHash('sha256').update(REPO).digest('hex').slice(0, 16)}`);
  const giveUp = Date.now() + 10 * 60_000;
  while (!built()) {
    try {
      mkdirSync(lock);
      writeFileSync(join(lock, 'pid'), String(process.pid));
    } catch {
      if (abandoned(lock)) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > giveUp) throw new Error(`another build holds ${lock}; remove it if no build is running`);
      else await new Promise((r) => setTimeout(r, 500));
      continue;
    }
    try {
      if (!built()) await run(NPM, ['run', 'build'], { cwd: REPO, maxBuffer: 16 * 1024 * 1024 });
    } finally {
      rmSync(lock, { recursive: true, force: true });
    }
  }
}

/** Builds the packages when needed and packs every one into `dir`: the tarball of each package, by name. */
export async function packTarballs(dir: string): Promise<Record<PackageName, string>> {
  await ensureBuilt();
  const { stdout } = await run(NPM, ['pack', '--workspaces', '--json', '--pack-destination', dir], {
    cwd: REPO,
    maxBuffer: 16 * 1024 * 1024,
  });
  const packed = JSON.parse(stdout) as { name: PackageName; filename: string }[];
  return Object.fromEntries(packed.map((p) => [p.name, join(dir, p.filename)])) as Record<PackageName, string>;
}

export interface InstalledProject {
  /** The project folder: a CommonJS package (as `npm init` makes it) with the packages installed. */
  dir: string;
  /** The tarball of each package, as `npm pack` made them. */
  tarballs: Record<PackageName, string>;
  remove(): void;
}

export interface InstallOptions {
  /** The packages to install; default the framework and the harness. */
  readonly packages?: readonly PackageName[];
  /** npm install's extra arguments, e.g. `--omit=dev`. */
  readonly npmArgs?: readonly string[];
}

/**
 * Packs the packages and installs the tarballs into a new project whose package.json is what `npm init -y`
 * writes (no `"type"`, so `.js` files are CommonJS). Their dependencies come from the npm cache when they are
 * there (`--prefer-offline`).
 */
export async function installPackedPackage(options: InstallOptions = {}): Promise<InstalledProject> {
  const root = mkdtempSync(join(tmpdir(), 'trellis-consumer-'));
  try {
    const packDir = join(root, 'pack');
    const dir = join(root, 'project');
    for (const d of [packDir, dir]) mkdirSync(d);
    const tarballs = await packTarballs(packDir);
    writeFileSync(
      join(dir, 'package.json'),
      `${JSON.stringify({ name: 'widget-project', version: '1.0.0', main: 'index.js', scripts: { test: 'echo "Error: no test specified" && exit 1' }, license: 'ISC' }, null, 2)}\n`,
    );
    const install = (options.packages ?? ['trellis', 'trellis-harness']).map((name) => tarballs[name]);
    await run(NPM, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...(options.npmArgs ?? []), ...install], {
      cwd: dir,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { dir, tarballs, remove: () => rmSync(root, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    throw error;
  }
}
