/**
 * The one place the harness writes files it later loads code from: a folder of this process's own, made with
 * `mkdtemp` (a random name, mode 0700) on first use and removed when the process exits. Nothing in it can be
 * planted, swapped or linked by another user of a shared temporary folder, and nothing is written twice: a file
 * is created exclusively, never through a link.
 */
import { createHash } from 'node:crypto';
import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, isAbsolute } from 'node:path';

let folder: string | undefined;

/** This process's private folder, made on first use. */
export function privateFolder(): string {
  if (folder === undefined) {
    const made = mkdtempSync(join(tmpdir(), 'trellis-'));
    process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    folder = made;
  }
  return folder;
}

/** A folder inside the private folder (made when missing, mode 0700). */
export function privateSubfolder(...names: string[]): string {
  const dir = join(privateFolder(), ...names);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

/**
 * Writes `content` to `path` inside the private folder unless that exact file is already there: created
 * exclusively (`wx`), so a link or a file left by anyone else is never written through.
 */
export function writePrivateFile(path: string, content: string): void {
  try {
    writeFileSync(path, content, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const stat = lstatSync(path);
    const owner = process.getuid?.();
    if (!stat.isFile() || (owner !== undefined && stat.uid !== owner) || readFileSync(path, 'utf8') !== content) {
      throw new Error(`${path} is not the file the harness wrote there; it was left as it is`, { cause: error });
    }
  }
}

/** Code folders whose modules resolve from a project's folder rather than from where the code was written. */
const projects = new Map<string, string>();

/**
 * Writes code given as text (a template's `InlineCode` or `Code.ZipFile`) as `fileName` in a folder of its own
 * inside the private folder, and returns that folder. Its `require` and `import` of packages resolve from
 * `project` (the template's folder) and the AWS SDK the harness provides — never from the parents of the
 * temporary folder, where another user could have put a `node_modules`.
 *
 * @example
 * privateCodeFolder('exports.handler = async () => "<p>hi</p>";', 'index.js', '/srv/stack'); // /tmp/trellis-Ab12/code/3f…
 */
export function privateCodeFolder(code: string, fileName: string, project: string): string {
  const hash = createHash('sha256').update(project).update('\0').update(fileName).update('\0').update(code).digest('hex').slice(0, 20);
  const dir = privateSubfolder('code', hash);
  // A package.json of its own ends Node.js's search for one in the folders above (its `type` is left unsaid,
  // as where Lambda writes inline code: Node.js tells CommonJS from an ES module by the code itself).
  writePrivateFile(join(dir, 'package.json'), '{}\n');
  writePrivateFile(join(dir, fileName), code);
  projects.set(dir, project);
  return dir;
}

/** The project folder a code file written by {@link privateCodeFolder} resolves its packages from, if it is one. */
export function projectOfPrivateCode(file: string): string | undefined {
  const project = projects.get(dirname(file));
  if (project === undefined || folder === undefined) return undefined;
  const inside = relative(folder, file);
  return inside.startsWith('..') || isAbsolute(inside) ? undefined : project;
}
