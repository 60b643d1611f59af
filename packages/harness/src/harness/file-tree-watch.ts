// Watches folders and everything below them, one fs.watch per folder, skipping node_modules, hidden folders
// and __pycache__ (a dependency tree would cost thousands of watches and never holds the code being edited),
// and single files, through their folder (an editor that saves by renaming a new file over the old one would
// end a watch of the file itself).
import { watch, readdirSync, statSync, type FSWatcher } from 'node:fs';
import { basename, dirname, join } from 'node:path';

const IGNORED = /^(node_modules|__pycache__|\..+)$/;
/** Past this many folders the rest are not watched (and a warning says so). */
export const MAX_WATCHED_FOLDERS = 4000;

/**
 * Calls `onChange(file)` for every change under `roots` (new folders are watched as they appear) and to each
 * of `files`.
 *
 * @example
 * const w = new FileTreeWatch(['/srv/widgets'], (file) => console.log(file), console.warn, ['/srv/template.yaml']);
 * w.close();
 */
export class FileTreeWatch {
  readonly #watchers = new Map<string, FSWatcher>();
  readonly #fileWatchers: FSWatcher[] = [];
  #warned = false;

  constructor(
    roots: readonly string[],
    private readonly onChange: (file: string) => void,
    private readonly warn: (message: string) => void = () => {},
    files: readonly string[] = [],
  ) {
    for (const root of roots) this.#add(root);
    const names = new Map<string, Set<string>>();
    for (const file of files) names.set(dirname(file), (names.get(dirname(file)) ?? new Set()).add(basename(file)));
    for (const [dir, named] of names) this.#addFiles(dir, named);
  }

  /** How many folders are watched. */
  get folders(): number {
    return this.#watchers.size;
  }

  #add(dir: string): void {
    if (this.#watchers.has(dir)) return;
    if (this.#watchers.size >= MAX_WATCHED_FOLDERS) {
      if (!this.#warned) this.warn(`more than ${MAX_WATCHED_FOLDERS} folders: changes below ${dir} and further folders are not watched`);
      this.#warned = true;
      return;
    }
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { persistent: false }, (_event, name) => {
        const file = name ? join(dir, String(name)) : dir;
        if (name && IGNORED.test(String(name))) return;
        if (name && isFolder(file)) this.#add(file);
        this.onChange(file);
      });
    } catch {
      return; // gone or unreadable: nothing to watch there
    }
    watcher.on('error', () => {
      watcher.close();
      this.#watchers.delete(dir);
    });
    this.#watchers.set(dir, watcher);
    let entries: string[];
    try {
      entries = readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory() && !IGNORED.test(e.name))
        .map((e) => e.name);
    } catch {
      entries = [];
    }
    for (const name of entries) this.#add(join(dir, name));
  }

  /** Watches `dir` alone (not below it) for changes to the files `named`. */
  #addFiles(dir: string, named: ReadonlySet<string>): void {
    let watcher: FSWatcher;
    try {
      watcher = watch(dir, { persistent: false }, (_event, name) => {
        if (name && named.has(String(name))) this.onChange(join(dir, String(name)));
      });
    } catch {
      return; // gone or unreadable: nothing to watch there
    }
    watcher.on('error', () => watcher.close());
    this.#fileWatchers.push(watcher);
  }

  close(): void {
    for (const w of this.#watchers.values()) w.close();
    this.#watchers.clear();
    for (const w of this.#fileWatchers) w.close();
    this.#fileWatchers.length = 0;
  }
}

function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
