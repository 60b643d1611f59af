// Watch mode: when a function's files change, its execution environments are restarted (the next call loads
// the new code), the widgets that show its output forget it (their next read runs it again), and the change
// is published for the page, which reads those widgets again. Only the functions' files (and the templates
// they come from) are watched.
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
  /**
   * Each function's code folder, by its key in the configuration, watched in place of its handler's folder (a
   * template's `CodeUri`, which may hold the handler in a subfolder and the modules it loads beside it).
   */
  codeFolders?: Readonly<Record<string, string>>;
  /**
   * The templates the configuration was read from. They are watched, but read only at start: a change to one
   * restarts nothing, and the log says the harness must be started again to apply it.
   */
  templates?: readonly string[];
}

/** A running watch; `close()` stops watching. */
export interface FunctionWatch {
  /**
   * What is watched: each function's code folder (its handler's folder, or `codeFolders`) with its subfolders,
   * the functions file's folder (`baseDir`) when the configuration has one, and setup modules and templates
   * outside those.
   */
  readonly roots: readonly string[];
  close(): void;
}

const MAX_FILES_LISTED = 20;

const inside = (file: string, dir: string): boolean => file === dir || file.startsWith(dir.endsWith(sep) ? dir : dir + sep);

/**
 * Watches the files of the functions of `config` that are modules on disk (Node.js or Python handlers), and
 * nothing else. A change inside a function's code folder, or to one of its setup modules, restarts that
 * function; a change elsewhere under the configuration's `baseDir` (the functions file's folder) restarts every
 * such function (it may be a shared module). A configuration without `baseDir` (one read from templates) has no
 * such shared folder: only what it names is watched, and a change to anything else is not published.
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
  const base = resolve(config.baseDir ?? process.cwd());
  const shared = config.baseDir === undefined ? undefined : base;
  const folders = new Map<string, string>();
  const setups = new Map<string, Set<string>>();
  for (const [key, spec] of Object.entries(config.functions)) {
    if (typeof spec.handler !== 'string') continue;
    const codeFolder = options.codeFolders?.[key];
    folders.set(key, codeFolder === undefined ? dirname(resolve(base, spec.handler)) : resolve(codeFolder));
    for (const setup of spec.setup ?? []) {
      const file = resolve(base, setup);
      setups.set(file, (setups.get(file) ?? new Set()).add(key));
    }
  }
  const templates = new Set((options.templates ?? []).map((file) => resolve(file)));
  const trees = [...new Set([...folders.values(), ...(shared === undefined ? [] : [shared])])];
  const files = [...new Set([...setups.keys(), ...templates])].filter((file) => !trees.some((dir) => inside(file, dir)));
  const roots = [...trees, ...files];
  const debounceMs = options.debounceMs ?? 150;
  const log = options.log ?? (() => {});
  let pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let work: Promise<void> = Promise.resolve();
  let closed = false;

  /** The functions a change to `file` restarts: the owners of its folder or setup module, else all (shared), else none. */
  const restartedBy = (file: string): string[] => {
    const owners = [...folders].filter(([, dir]) => inside(file, dir)).map(([key]) => key);
    const keys = [...new Set([...owners, ...(setups.get(file) ?? [])])];
    if (keys.length > 0) return keys;
    return shared !== undefined && inside(file, shared) ? [...folders.keys()] : [];
  };
  const watched = (file: string): boolean => templates.has(file) || restartedBy(file).length > 0;
  const shownPath = (file: string): string => relative(process.cwd(), file) || file;

  const handle = async (changed: string[]): Promise<void> => {
    if (closed) return;
    for (const file of changed.filter((f) => templates.has(f)))
      log(`the template ${shownPath(file)} changed: it is read at start only, so start the harness again to apply it`);
    const files = changed.filter((f) => restartedBy(f).length > 0);
    const keys = [...new Set(files.flatMap(restartedBy))];
    if (keys.length === 0) return;
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
    log(`restarted ${keys.join(', ')} after a change to ${shown.map(shownPath).join(', ')}${files.length > shown.length ? ', …' : ''}`);
  };

  const tree = new FileTreeWatch(
    trees,
    (file) => {
      if (closed || !watched(file)) return;
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
    files,
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
