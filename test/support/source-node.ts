/**
 * The Node.js arguments that run a test's own TypeScript as the test runner runs it: through tsx, with the
 * workspace packages resolved to their sources (the "trellis-source" export condition), so a module imported
 * by a relative path and by its package name is one module.
 *
 * @example
 * spawn(process.execPath, [...SOURCE_NODE_ARGS, fileURLToPath(import.meta.url)]);
 */
export const SOURCE_NODE_ARGS: readonly string[] = ['--conditions=trellis-source', '--import', 'tsx'];
