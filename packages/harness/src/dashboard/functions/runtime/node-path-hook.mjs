// A module resolve hook for a Node.js function's child process: a bare specifier its own node_modules cannot
// resolve is looked up in the NODE_PATH folders, as `require` does, so `import '@aws-sdk/client-s3'` finds the
// AWS SDK the harness provides exactly as `require` does. (Node.js's `import` ignores NODE_PATH.)
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const folders = (process.env.NODE_PATH || '').split(delimiter).filter(Boolean);
const BARE = /^(?![./]|[a-zA-Z][a-zA-Z0-9+.-]*:)/;

export async function resolve(specifier, context, nextResolve) {
  try {
    return await nextResolve(specifier, context);
  } catch (error) {
    if (!error || error.code !== 'ERR_MODULE_NOT_FOUND' || !BARE.test(specifier)) throw error;
    for (const folder of folders) {
      // A parent inside the folder: the lookup of node_modules from there reaches the folder itself.
      const parentURL = pathToFileURL(join(folder, 'node-path-parent.js')).href;
      try {
        return await nextResolve(specifier, { ...context, parentURL });
      } catch {
        // not in this folder either
      }
    }
    throw error;
  }
}
