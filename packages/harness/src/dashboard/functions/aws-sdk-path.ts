/**
 * The AWS SDK for JavaScript v3 a Node.js function finds when its own `node_modules` lacks it, as Lambda's
 * Node.js runtime provides one. The harness installs the clients it provides as optional dependencies; a
 * function reaches them through `NODE_PATH` (for `require`) and a resolve hook that reads the same folders (for
 * `import`, which ignores `NODE_PATH`). Only `@aws-sdk/*` is exposed, never the harness's other dependencies:
 * `NODE_PATH` names a folder of its own whose only entry is a link to the SDK's scope folder.
 */
import { createHash } from 'node:crypto';
import { readlinkSync, statSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { privateSubfolder } from './private-folder.js';

/** The clients the harness provides (the ones AWS's sample widgets use). */
export const PROVIDED_CLIENTS = [
  '@aws-sdk/client-athena',
  '@aws-sdk/client-cloudwatch',
  '@aws-sdk/client-cloudwatch-logs',
  '@aws-sdk/client-codedeploy',
  '@aws-sdk/client-cost-explorer',
  '@aws-sdk/client-ec2',
  '@aws-sdk/client-s3',
];

const isDirectory = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** The folder holding the harness's `@aws-sdk` packages, or undefined when none of them is installed. */
export function providedSdkScope(): string | undefined {
  const require = createRequire(import.meta.url);
  for (const name of PROVIDED_CLIENTS) {
    try {
      return dirname(dirname(require.resolve(`${name}/package.json`)));
    } catch {
      // not installed (optional dependencies can be left out)
    }
  }
  return undefined;
}

let linked: { scope: string; dir: string } | undefined;

/**
 * A `node_modules` folder whose only entry, `@aws-sdk`, links to the harness's SDK; made once per scope
 * folder in the harness's private folder, where no other user can swap the link. Undefined when the SDK is not
 * installed or no link can be made.
 */
export function providedSdkNodePath(): string | undefined {
  const scope = providedSdkScope();
  if (!scope) return undefined;
  if (linked?.scope === scope) return linked.dir;
  try {
    const hash = createHash('sha256').update(scope).digest('hex').slice(0, 16);
    const dir = privateSubfolder(`aws-sdk-${hash}`, 'node_modules');
    const link = join(dir, '@aws-sdk');
    let current: string | undefined;
    try {
      current = readlinkSync(link);
    } catch {
      current = undefined;
    }
    if (current !== scope) symlinkSync(scope, link, 'junction');
    linked = { scope, dir };
    return dir;
  } catch {
    return undefined;
  }
}

/**
 * The `node_modules` folder meant by a user's `awsSdkPath`: the folder itself when it is named `node_modules`,
 * else its `node_modules`. Returns an error message when it holds no `@aws-sdk` folder.
 *
 * @example
 * sdkNodeModules('/opt/sdk'); // { dir: '/opt/sdk/node_modules' } once `npm install @aws-sdk/client-dynamodb` ran there
 */
export function sdkNodeModules(path: string): { dir: string } | { error: string } {
  const full = resolve(path);
  const dir = basename(full) === 'node_modules' ? full : join(full, 'node_modules');
  if (!isDirectory(join(dir, '@aws-sdk'))) {
    return {
      error: `${full} holds no AWS SDK: expected ${join(dir, '@aws-sdk')} (run "npm install @aws-sdk/client-…" in ${basename(full) === 'node_modules' ? dirname(full) : full})`,
    };
  }
  return { dir };
}
