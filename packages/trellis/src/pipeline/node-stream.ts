// node:stream, loaded the first time a stream is made or met rather than when the package is imported: a cold
// start whose bodies and responses are whole never loads it (CONTRIBUTING.md, "Cold starts").
import type { Readable } from 'node:stream';

const load = () => process.getBuiltinModule('node:stream');
let loaded: ReturnType<typeof load> | undefined;

/** Node.js's stream module, loaded on first use. */
export function nodeStream(): ReturnType<typeof load> {
  return (loaded ??= load());
}

/** Whether a value is a Node.js Readable; a value that cannot be one (no `pipe`) is told without loading node:stream. */
export function isReadable(value: unknown): value is Readable {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { pipe?: unknown }).pipe === 'function' &&
    value instanceof nodeStream().Readable
  );
}
