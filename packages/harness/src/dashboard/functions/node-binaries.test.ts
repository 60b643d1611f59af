// The Node.js binaries cache: a copy is run only when it is the binary installed there (its SHA-256 recorded at
// install time) and no other user can change the cache folder. The npm registry is replaced by a fetcher that
// writes a stand-in `bin/node` (a shell script that prints a version), so nothing is downloaded.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { appendFileSync, chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { findNodeBinary, nodeBinary, nodePackageName, type PackageFetcher } from './node-binaries.js';

const major = process.versions.node.startsWith('22.') ? 24 : 22;
const work = mkdtempSync(join(tmpdir(), 'trellis-node-cache-'));
after(() => rmSync(work, { recursive: true, force: true }));

/** A fetcher that lays out a stand-in package, and counts its calls. */
function standIn(): { fetchPackage: PackageFetcher; calls: string[] } {
  const calls: string[] = [];
  const fetchPackage: PackageFetcher = async (spec, into) => {
    calls.push(spec);
    mkdirSync(join(into, 'bin'));
    writeFileSync(join(into, 'bin', 'node'), `#!/bin/sh\necho v${major}.99.0\n`, { mode: 0o755 });
  };
  return { fetchPackage, calls };
}

/** A fresh, private cache folder. */
function cache(): { root: string; env: NodeJS.ProcessEnv; folder: string } {
  const root = mkdtempSync(join(work, 'cache-'));
  return { root, env: { TRELLIS_CACHE_DIR: root }, folder: join(root, `${nodePackageName()}-${major}`) };
}

describe('the Node.js binaries cache', { skip: process.platform === 'win32' ? 'the stand-in binary is a shell script' : false }, () => {
  it('records the binary SHA-256 at install and runs the cached copy after', async () => {
    const { env, folder } = cache();
    const registry = standIn();
    const first = await findNodeBinary(major, env, registry);
    assert.deepEqual(first, { path: join(folder, 'bin', 'node'), version: `v${major}.99.0`, source: 'registry' });
    const digest = createHash('sha256').update(readFileSync(first.path)).digest('hex');
    assert.equal(readFileSync(join(folder, '.trellis-sha256'), 'utf8').trim(), digest);
    assert.equal(statSync(join(folder, '.trellis-sha256')).mode & 0o222, 0, 'the record is read-only');
    const second = await findNodeBinary(major, env, registry);
    assert.equal(second.source, 'cache');
    assert.deepEqual(registry.calls, [`${nodePackageName()}@${major}`]);
  });

  it('a cached binary that is not the one installed is not run: it is fetched again', async () => {
    const { env, folder } = cache();
    const registry = standIn();
    await findNodeBinary(major, env, registry);
    const marker = join(work, 'tampered-binary-ran');
    appendFileSync(join(folder, 'bin', 'node'), `touch ${marker}\n`);
    const again = await findNodeBinary(major, env, registry);
    assert.equal(again.source, 'registry');
    assert.equal(registry.calls.length, 2);
    assert.equal(existsSync(marker), false, 'the changed binary was never started');
    assert.doesNotMatch(readFileSync(again.path, 'utf8'), /touch/);
  });

  it('a copy without a recorded digest (installed by an older harness) is fetched again', async () => {
    const { env, folder } = cache();
    const registry = standIn();
    await findNodeBinary(major, env, registry);
    rmSync(join(folder, '.trellis-sha256'), { force: true });
    assert.equal((await findNodeBinary(major, env, registry)).source, 'registry');
    assert.equal(registry.calls.length, 2);
  });

  it('a cache folder other users can write is refused: nothing is run from it or fetched into it', async () => {
    const { root, env } = cache();
    const registry = standIn();
    await findNodeBinary(major, env, registry);
    chmodSync(root, 0o777);
    const refused = await findNodeBinary(major, env, registry);
    assert.equal(refused.source, 'fallback');
    assert.equal(refused.path, process.execPath);
    assert.equal(
      refused.problem,
      `the cache folder ${root} is writable by other users (mode 777); the harness runs no program from a cache folder other users could change: make it private (chmod go-w) or set TRELLIS_CACHE_DIR to a folder only you can write`,
    );
    assert.equal(registry.calls.length, 1);
  });

  it('a cache folder inside a folder every user can write (not sticky) is refused', async () => {
    const open = mkdtempSync(join(work, 'open-'));
    chmodSync(open, 0o777);
    const root = join(open, 'cache');
    const registry = standIn();
    const refused = await findNodeBinary(major, { TRELLIS_CACHE_DIR: root }, registry);
    assert.equal(refused.source, 'fallback');
    assert.match(refused.problem ?? '', new RegExp(`^${open}, a folder above the cache folder, is writable by every user \\(mode 777\\)`));
    assert.equal(registry.calls.length, 0);
  });

  it('a package folder in the cache that others can write is not run: it is fetched again', async () => {
    const { env, folder } = cache();
    const registry = standIn();
    await findNodeBinary(major, env, registry);
    chmodSync(join(folder, 'bin'), 0o777);
    assert.equal((await findNodeBinary(major, env, registry)).source, 'registry');
    assert.equal(statSync(join(folder, 'bin')).mode & 0o022, 0);
  });
});

describe(
  'nodeBinary, the Node.js a function starts on',
  { skip: process.platform === 'win32' ? 'the stand-in binary is a shell script' : false },
  () => {
    it('checks the cache again at each call: a cache folder made writable by others since is refused', async () => {
      const { root, env } = cache();
      const saved = { cache: process.env.TRELLIS_CACHE_DIR, variable: process.env[`TRELLIS_NODE_${major}`] };
      process.env.TRELLIS_CACHE_DIR = env.TRELLIS_CACHE_DIR;
      delete process.env[`TRELLIS_NODE_${major}`];
      try {
        await findNodeBinary(major, process.env, standIn());
        assert.equal((await nodeBinary(major)).source, 'cache');
        assert.equal((await nodeBinary(major)).source, 'cache');
        chmodSync(root, 0o777);
        const refused = await nodeBinary(major);
        assert.equal(refused.source, 'fallback');
        assert.match(refused.problem ?? '', /is writable by other users \(mode 777\)/);
      } finally {
        for (const [name, value] of [
          ['TRELLIS_CACHE_DIR', saved.cache],
          [`TRELLIS_NODE_${major}`, saved.variable],
        ] as const) {
          if (value === undefined) delete process.env[name];
          else process.env[name] = value;
        }
      }
    });
  },
);
