// Each package's tarball as it would be published: publint finds no error, warning or suggestion, and Are the
// Types Wrong finds no problem under any module resolution TypeScript offers (node10, node16 from CommonJS and
// from ES modules, bundler).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { PACKAGES, packTarballs, REPO, type PackageName } from '../support/packed-package.js';

const run = promisify(execFile);
const BIN = join(REPO, 'node_modules', '.bin');

/** Runs a tool; its output either way, and whether it exited with 0. */
async function tool(name: string, args: string[]): Promise<{ ok: boolean; output: string }> {
  try {
    const { stdout, stderr } = await run(join(BIN, name), args, {
      cwd: REPO,
      maxBuffer: 16 * 1024 * 1024,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
    });
    return { ok: true, output: stdout + stderr };
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('the packages as published', { timeout: 240_000 }, () => {
  let dir: string;
  let tarballs: Record<PackageName, string>;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'trellis-pack-'));
    tarballs = await packTarballs(dir);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  for (const name of Object.keys(PACKAGES) as PackageName[]) {
    it(`${name}: publint reports nothing`, async () => {
      const { ok, output } = await tool('publint', [join(REPO, PACKAGES[name]), '--strict', '--level', 'suggestion']);
      assert.ok(ok, output);
      assert.match(output, /All good!/, output);
    });
  }

  for (const name of ['trellis', 'trellis-harness'] as const) {
    it(`${name}: the tarball holds its own code only (no bundled node_modules), and no tests`, async () => {
      const { stdout } = await run('tar', ['-tzf', tarballs[name]], { maxBuffer: 16 * 1024 * 1024 });
      const files = stdout.split('\n').filter(Boolean);
      assert.deepEqual(
        files.filter((f) => f.includes('/node_modules/')),
        [],
      );
      assert.deepEqual(
        files.filter((f) => /\.test(-suite)?\.ts$/.test(f)),
        [],
      );
      assert.ok(files.includes('package/CHANGELOG.md') && files.includes('package/README.md'), 'README and changelog are shipped');
    });

    it(`${name}: Are the Types Wrong finds no problem for node10, node16 (CommonJS and ES modules) or bundlers`, async () => {
      const { ok, output } = await tool('attw', [tarballs[name], '--profile', 'strict', '--format', 'table-flipped']);
      assert.ok(ok, output);
      assert.match(output, /No problems found/, output);
    });
  }
});
