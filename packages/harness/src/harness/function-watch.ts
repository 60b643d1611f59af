// Watch mode: when a function's files change, its execution environments are restarted (the next call loads
// the new code), the widgets that show its output forget it (their next read runs it again), and the change
// is published for the page, which reads those widgets again.
import { dirname, relative, resolve, sep } from 'node:path';
import type { DashboardStore, FunctionRegistry, FunctionsConfig } from '../dashboard/index.js';
import type { ChangeFeed } from './change-feed.js';
import { FileTreeWatch } from './file-tree-watch.js';

/** Options of watch mode. */
export interface WatchOptions {
  /** Quiet time after the last file event before the functions restart, in milliseconds. Default 150. */
  debounceMs?: number;
  /** Hears one line per restart (and warnings); default none. */
  log?: (line: string) => void;
}

/** A running watch; `close()` stops watching. */
export interface FunctionWatch {
  /** The folders watched (each function's handler folder and the functions file's folder, with their subfolders). */
  readonly roots: readonly string[];
  close(): void;
}

const MAX_FILES_LISTED = 20;

const inside = (file: string, dir: string): boolean => file === dir || file.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/**
 * Watches the files of the functions of `config` that are modules on disk (Node.js or Python handlers).
 * A change inside a function's handler folder restarts that function; a change elsewhere under the
 * configuration's base folder restarts every such function (it may be a shared module).
 *
 * @example
 * const watch = watchFunctions(config, registry, interpreter.store, feed, { log: console.error });
 */
export function watchFunctions(
  config: FunctionsConfig,
  registry: FunctionRegistry,
  store: DashboardStore,
  feed: ChangeFeed,
  options: WatchOptions = {},
): FunctionWatch {
  const baseDir = resolve(config.baseDir ?? process.cwd());
  const folders = new Map<string, string>();
  for (const [key, spec] of Object.entries(config.functions)) {
    if (typeof spec.handler === 'string') folders.set(key, dirname(resolve(baseDir, spec.handler)));
  }
  const roots = [...new Set([...folders.values(), baseDir])];
  const debounceMs = options.debounceMs ?? 150;
  const log = options.log ?? (() => {});
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let work: Promise<void> = Promise.resolve();
  let closed = false;

  const handle = async (files: string[]): Promise<void> => {
    let keys = [...folders].filter(([, dir]) => files.some((f) => inside(f, dir))).map(([key]) => key);
    if (files.some((f) => ![...folders.values()].some((dir) => inside(f, dir)))) keys = [...folders.keys()];
    if (keys.length === 0 || closed) return;
    await registry.restart(keys);
    const chosen = new Set(keys);
    const affected = (endpoint: string): boolean => {
      const key = registry.keyFor(endpoint);
      return key !== undefined && chosen.has(key);
    };
    const widgets: Record<string, string[]> = {};
    for (const dashboard of store.dashboards()) {
      const forgotten = await dashboard.forget(affected);
      if (forgotten.length > 0) widgets[dashboard.id] = forgotten;
    }
    const shown = files.slice(0, MAX_FILES_LISTED);
    feed.publish({ files: shown, functions: keys, widgets });
    log(
      `restarted ${keys.join(', ')} after a change to ${shown.map((f) => relative(process.cwd(), f) || f).join(', ')}${files.length > shown.length ? ', …' : ''}`,
    );
  };

  const tree = new FileTreeWatch(
    roots,
    (file) => {
      if (closed) return;
      pending.add(file);
      clearTimeout(timer);
      timer = setTimeout(() => {
        const files = [...pending];
        pending = new Set();
        work = work
          .then(() => handle(files))
          .catch((error: unknown) => log(`could not restart after a change: ${(error as Error).message}`));
      }, debounceMs);
    },
    log,
  );

  return {
    roots,
    close: () => {
      closed = true;
      clearTimeout(timer);
      tree.close();
    },
  };
}
