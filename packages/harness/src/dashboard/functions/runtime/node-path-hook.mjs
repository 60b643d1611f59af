// A module resolve hook for a Node.js function's child process:
// - a bare specifier its own node_modules cannot resolve is looked up in the NODE_PATH folders, as `require`
//   does, so `import '@aws-sdk/client-s3'` finds the AWS SDK the harness provides exactly as `require` does
//   (Node.js's `import` ignores NODE_PATH); only a package the folder holds is looked up, so the lookup never
//   goes on to the folders above it;
// - code the harness wrote into its private folder (`pinned`, a template's inline code) resolves packages from
//   its project's folder (`from`) and the NODE_PATH folders only, never from the folders above the private one.
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const folders = (process.env.NODE_PATH || '').split(delimiter).filter(Boolean);
const BARE = /^(?![./]|[a-zA-Z][a-zA-Z0-9+.-]*:)/;
let pinned = null;
let from = null;

export function initialize(data) {
  if (data && typeof data.pinned === 'string' && typeof data.from === 'string') {
    pinned = data.pinned;
    from = data.from;
  }
}

export async function resolve(specifier, context, nextResolve) {
  const bare = BARE.test(specifier);
  const fromPinned = bare && pinned !== null && typeof context.parentURL === 'string' && context.parentURL.startsWith(pinned);
  let failure;
  try {
    return await nextResolve(specifier, fromPinned ? { ...context, parentURL: from } : context);
  } catch (error) {
    if (!error || error.code !== 'ERR_MODULE_NOT_FOUND' || !bare) throw error;
    failure = error;
  }
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  for (const folder of folders) {
    if (!existsSync(join(folder, name))) continue;
    // A parent inside the folder: the lookup of node_modules from there reaches the folder itself.
    const inside = pathToFileURL(join(folder, 'node-path-parent.js')).href;
    try {
      return await nextResolve(specifier, { ...context, parentURL: inside });
    } catch {
      // not in this folder either
    }
  }
  throw failure;
}
