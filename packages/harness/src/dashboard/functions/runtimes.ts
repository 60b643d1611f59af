/**
 * Lambda runtime identifiers as a functions file or a template names them. `nodejs22.x` and `nodejs24.x` run on
 * that Node.js major with that runtime's rules; the plain `nodejs` and `python` run on the harness's own Node.js
 * and on the `python3` it finds.
 */

/** The Node.js runtimes Lambda offers (nodejs20.x is deprecated since 2026-04-30, still accepted for old stacks). */
export const NODE_RUNTIMES = ['nodejs20.x', 'nodejs22.x', 'nodejs24.x'] as const;
/** The Python runtimes Lambda offers. */
export const PYTHON_RUNTIMES = ['python3.9', 'python3.10', 'python3.11', 'python3.12', 'python3.13', 'python3.14'] as const;

/** A runtime a function may name. */
export type RuntimeName = 'nodejs' | 'python' | (typeof NODE_RUNTIMES)[number] | (typeof PYTHON_RUNTIMES)[number];

/** The language a runtime runs. */
export const runtimeLanguage = (runtime: RuntimeName | undefined): 'nodejs' | 'python' =>
  runtime?.startsWith('python') ? 'python' : 'nodejs';

/**
 * The Node.js major a runtime names, or undefined for the plain `nodejs` (the harness's own Node.js).
 *
 * @example
 * nodeMajorOf('nodejs24.x'); // 24
 */
export function nodeMajorOf(runtime: RuntimeName | undefined): number | undefined {
  const match = runtime === undefined ? null : /^nodejs(\d+)\.x$/.exec(runtime);
  return match ? Number(match[1]) : undefined;
}

/** The list a message gives when a runtime is not known. */
export const RUNTIME_CHOICES = `one of ${['nodejs', ...NODE_RUNTIMES, 'python', ...PYTHON_RUNTIMES].map((r) => `"${r}"`).join(', ')}`;
