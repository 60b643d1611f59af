/**
 * Handler strings as the Lambda runtimes read them. Node.js: `dir/file.export.nested` — the module is the
 * last path segment up to its first dot, the rest is a property path. Python: `dir/module.function` — split
 * at the last dot.
 */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';

export interface NodeHandlerPath {
  /** Absolute path of the module without extension. */
  modulePath: string;
  /** The property path inside the module, e.g. `handler` or `widgets.greeter`. */
  property: string;
}

/** Extensions tried in the Node.js runtime's order (extensionless first), then TypeScript. */
export const NODE_EXTENSIONS = ['', '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts'] as const;

/**
 * Splits a Node.js handler string; `undefined` when it has no dot after its last `/`.
 *
 * @example
 * splitNodeHandler('widgets/greeter.handlers.main', '/srv');
 * // { modulePath: '/srv/widgets/greeter', property: 'handlers.main' }
 */
export function splitNodeHandler(handler: string, baseDir: string): NodeHandlerPath | undefined {
  const slash = handler.lastIndexOf('/');
  const root = handler.slice(0, slash + 1);
  const base = handler.slice(slash + 1);
  const dot = base.indexOf('.');
  if (dot <= 0 || dot === base.length - 1) return undefined;
  return { modulePath: resolve(baseDir, root, base.slice(0, dot)), property: base.slice(dot + 1) };
}

/**
 * The module file the Node.js runtime would load for `modulePath`, or `undefined`.
 *
 * @example
 * findNodeModuleFile('/srv/widgets/greeter'); // '/srv/widgets/greeter.mjs'
 */
export function findNodeModuleFile(modulePath: string): string | undefined {
  for (const ext of NODE_EXTENSIONS) {
    const file = modulePath + ext;
    if (existsSync(file) && statSync(file).isFile()) return file;
  }
  return undefined;
}

export interface PythonHandlerPath {
  /** The module's file. */
  file: string;
  functionName: string;
}

/**
 * Splits a Python handler string (at its last dot); `undefined` when it has no dot after its last `/`.
 * Dots in the module part name packages, as in `pkg.module.handler`.
 *
 * @example
 * splitPythonHandler('py/inventory.lambda_handler', '/srv');
 * // { file: '/srv/py/inventory.py', functionName: 'lambda_handler' }
 */
export function splitPythonHandler(handler: string, baseDir: string): PythonHandlerPath | undefined {
  const slash = handler.lastIndexOf('/');
  const dot = handler.lastIndexOf('.');
  if (dot <= slash + 1 || dot === handler.length - 1) return undefined;
  const folder = handler.slice(0, slash + 1);
  const module = handler.slice(slash + 1, dot);
  return { file: resolve(baseDir, folder + module.replaceAll('.', '/') + '.py'), functionName: handler.slice(dot + 1) };
}
