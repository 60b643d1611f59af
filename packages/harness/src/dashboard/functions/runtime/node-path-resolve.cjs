// How a Node.js function's `import` finds packages, for the resolve hooks of its child process (the bootstrap
// registers `hooks.resolve` in the function's own thread with `module.registerHooks` where Node.js has it, from
// 22.15; node-path-hook.mjs wraps the same plan for `module.register`, whose loader thread costs memory Lambda's
// runtime does not spend — about 17 MiB idle and up to 48 MiB more while `import()` hands over the EC2 client):
// - a bare specifier its own node_modules cannot resolve is looked up in the NODE_PATH folders, as `require`
//   does (Node.js's `import` ignores NODE_PATH); only a package a folder holds is looked up there, so the lookup
//   never goes on to the folders above it;
// - code the harness wrote into its private folder (`pinned`, a template's inline code) resolves packages from
//   its project's folder (`from`) and the NODE_PATH folders only, never from the folders above the private one.
// `require` is left alone: it reads NODE_PATH itself, and the bootstrap pins inline code's `require`.
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const { pathToFileURL } = require('node:url');

const BARE = /^(?![./]|[a-zA-Z][a-zA-Z0-9+.-]*:)/;

/**
 * The lookups for NODE_PATH's `folders`; `pinned` (a file URL ending in `/`) and `from` (a file URL in the
 * project's folder) pin the imports of the code under `pinned`. `plan(specifier, context)` gives the context to
 * resolve with first and, when that finds nothing, the contexts to try in turn.
 */
function nodePathLookups(folders, pinned, from) {
  return {
    plan(specifier, context) {
      const bare = BARE.test(specifier);
      const fromPinned = bare && Boolean(pinned) && typeof context.parentURL === 'string' && context.parentURL.startsWith(pinned);
      return {
        first: fromPinned ? { ...context, parentURL: from } : context,
        /** Whether a failure of the first lookup may be retried in the NODE_PATH folders. */
        retries: (error) => bare && Boolean(error) && error.code === 'ERR_MODULE_NOT_FOUND',
        *then() {
          const parts = specifier.split('/');
          const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
          for (const folder of folders) {
            // A parent inside the folder: the lookup of node_modules from there reaches the folder itself.
            if (existsSync(join(folder, name))) yield { ...context, parentURL: pathToFileURL(join(folder, 'node-path-parent.js')).href };
          }
        },
      };
    },
  };
}

/** A synchronous resolve hook (module.registerHooks) over {@link nodePathLookups}; `import` only. */
function nodePathResolve(folders, pinned, from) {
  const lookups = nodePathLookups(folders, pinned, from);
  return function resolve(specifier, context, nextResolve) {
    if (!context.conditions || !context.conditions.includes('import')) return nextResolve(specifier, context);
    const plan = lookups.plan(specifier, context);
    try {
      return nextResolve(specifier, plan.first);
    } catch (error) {
      if (!plan.retries(error)) throw error;
      for (const next of plan.then()) {
        try {
          return nextResolve(specifier, next);
        } catch {
          // not in this folder either
        }
      }
      throw error;
    }
  };
}

module.exports = { nodePathLookups, nodePathResolve };
