// The asynchronous resolve hook (module.register) of a Node.js function's child process, for a Node.js without
// module.registerHooks (before 22.15): the lookups of node-path-resolve.cjs, awaited.
import { createRequire } from 'node:module';
import { delimiter } from 'node:path';

const { nodePathLookups } = createRequire(import.meta.url)('./node-path-resolve.cjs');
const folders = (process.env.NODE_PATH || '').split(delimiter).filter(Boolean);
let lookups = nodePathLookups(folders, null, null);

export function initialize(data) {
  if (data && typeof data.pinned === 'string' && typeof data.from === 'string') lookups = nodePathLookups(folders, data.pinned, data.from);
}

export async function resolve(specifier, context, nextResolve) {
  const plan = lookups.plan(specifier, context);
  try {
    return await nextResolve(specifier, plan.first);
  } catch (error) {
    if (!plan.retries(error)) throw error;
    for (const next of plan.then()) {
      try {
        return await nextResolve(specifier, next);
      } catch {
        // not in this folder either
      }
    }
    throw error;
  }
}
