import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { providedSdkScope } from './aws-sdk-path.js';
import { hasInThreadHooks } from './module-targets.js';

const runtime = (name: string) => fileURLToPath(new URL(`./runtime/${name}`, import.meta.url));

test(
  "the in-thread resolve hook finds what the loader thread's hook finds: NODE_PATH for import, and pinned code's packages only from its project",
  { skip: hasInThreadHooks(process.version) ? false : 'module.registerHooks needs Node.js 22.15 or later' },
  () => {
    const root = mkdtempSync(join(tmpdir(), 'trellis-resolve-'));
    after(() => rmSync(root, { recursive: true, force: true }));
    const write = (path: string, text: string) => {
      mkdirSync(join(root, path, '..'), { recursive: true });
      writeFileSync(join(root, path), text);
    };
    // Pinned code in a shared folder with a package planted above it; its project elsewhere; an SDK on NODE_PATH.
    write('shared/node_modules/planted/index.js', "module.exports = 'planted';");
    write('project/node_modules/own/index.js', "module.exports = 'own';");
    write('project/package.json', '{}');
    write(
      'shared/code/index.js',
      `exports.run = async () => {
  const seen = {};
  for (const name of ['own', 'planted', '@sdk/client']) {
    try { seen[name] = (await import(name)).default; } catch (error) { seen[name] = error.code; }
  }
  seen.required = require('@sdk/client');
  return seen;
};`,
    );
    write('np/node_modules/@sdk/client/index.js', "module.exports = 'sdk';");
    write('np/node_modules/@sdk/client/package.json', '{ "name": "@sdk/client", "main": "index.js" }');
    const pins = {
      pinned: pathToFileURL(join(root, 'shared/code')).href + '/',
      from: pathToFileURL(join(root, 'project/package.json')).href,
    };
    const register = {
      thread: `require('node:module').registerHooks({ resolve: require(${JSON.stringify(runtime('node-path-resolve.cjs'))}).nodePathResolve([${JSON.stringify(join(root, 'np/node_modules'))}], ${JSON.stringify(pins.pinned)}, ${JSON.stringify(pins.from)}) });`,
      worker: `require('node:module').register(${JSON.stringify(pathToFileURL(runtime('node-path-hook.mjs')).href)}, { data: ${JSON.stringify(pins)} });`,
    };
    const seen = Object.fromEntries(
      Object.entries(register).map(([how, code]) => {
        const run = spawnSync(
          process.execPath,
          [
            '-e',
            `${code} require(${JSON.stringify(join(root, 'shared/code/index.js'))}).run().then((v) => process.stdout.write(JSON.stringify(v)))`,
          ],
          { encoding: 'utf8', env: { ...process.env, NODE_PATH: join(root, 'np/node_modules') } },
        );
        assert.equal(run.status, 0, run.stderr);
        return [how, JSON.parse(run.stdout)];
      }),
    );
    assert.deepEqual(seen.thread, { own: 'own', planted: 'ERR_MODULE_NOT_FOUND', '@sdk/client': 'sdk', required: 'sdk' });
    assert.deepEqual(seen.thread, seen.worker);
  },
);

test(
  'the in-thread hook finds the AWS SDK the harness provides for a dynamic import from CommonJS, as Lambda does',
  { skip: hasInThreadHooks(process.version) && providedSdkScope() ? false : 'needs Node.js 22.15 or later and the provided SDK' },
  () => {
    const root = mkdtempSync(join(tmpdir(), 'trellis-resolve-sdk-'));
    after(() => rmSync(root, { recursive: true, force: true }));
    mkdirSync(join(root, 'np', 'node_modules'), { recursive: true });
    symlinkSync(providedSdkScope()!, join(root, 'np', 'node_modules', '@aws-sdk'));
    writeFileSync(join(root, 'index.js'), "exports.run = async () => typeof (await import('@aws-sdk/client-s3')).S3Client;");
    const run = spawnSync(
      process.execPath,
      [
        '-e',
        `require('node:module').registerHooks({ resolve: require(${JSON.stringify(runtime('node-path-resolve.cjs'))}).nodePathResolve([${JSON.stringify(join(root, 'np', 'node_modules'))}]) });
require(${JSON.stringify(join(root, 'index.js'))}).run().then((v) => process.stdout.write(v))`,
      ],
      { encoding: 'utf8', env: { ...process.env, NODE_PATH: join(root, 'np', 'node_modules') } },
    );
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, 'function');
  },
);
