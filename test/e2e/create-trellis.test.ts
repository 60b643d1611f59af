// `npm create trellis`, as a new user runs it from the release tarballs: each template makes a project that
// installs, passes its own `npm test`, bundles with its own build command, and carries a valid SAM template.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { readTemplate } from '../support/cloudformation-yaml.js';
import { validateTemplate } from '../support/cloudformation-validate.js';
import { packTarballs, REPO, type PackageName } from '../support/packed-package.js';

const run = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let root: string;
let packs: string;
let tarballs: Record<PackageName, string>;

before(async () => {
  root = mkdtempSync(join(tmpdir(), 'trellis-create-'));
  packs = join(root, 'packs');
  mkdirSync(packs);
  tarballs = await packTarballs(packs);
});
after(() => rmSync(root, { recursive: true, force: true }));

/** `npm exec` of the create-trellis tarball, as the docs show it; its output and exit code. */
async function create(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      NPM,
      ['exec', '--yes', '--prefer-offline', '--package', tarballs['create-trellis'], '--', 'create-trellis', ...args],
      {
        cwd: root,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Runs npm in a project; fails with its output when it fails. */
async function npm(dir: string, ...args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run(NPM, args, {
      cwd: dir,
      maxBuffer: 32 * 1024 * 1024,
      timeout: 300_000,
      env: { ...process.env, NODE_TEST_CONTEXT: undefined, NODE_OPTIONS: undefined },
    });
    return stdout + stderr;
  } catch (error) {
    const e = error as { message: string; stdout?: string; stderr?: string };
    assert.fail(`npm ${args.join(' ')} in ${dir} failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

describe('create-trellis', { timeout: 900_000 }, () => {
  for (const [template, bundle] of [
    ['lambda-api', 'dist/handler.mjs'],
    ['widget-lambda', 'dist/handler.mjs'],
    ['widget-project', 'dist/greeting.mjs'],
  ] as const) {
    it(`${template}: makes a project that installs from the tarballs, passes its own tests, bundles, and has a valid SAM template`, async () => {
      const dir = join(root, `my-${template}`);
      const made = await create(dir, '--template', template, '--packages', packs);
      assert.equal(made.code, 0, made.stderr);
      assert.match(made.stdout, new RegExp(`Made my-${template} \\(${template}\\)`));
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      assert.equal(manifest.name, `my-${template}`);
      assert.equal(manifest.dependencies.trellis, `file:${tarballs.trellis}`);
      assert.ok(existsSync(join(dir, '.gitignore')), 'the project has its .gitignore');
      await npm(dir, 'install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error');
      const tested = await npm(dir, 'test');
      // node --test's summary: TAP (`# fail 0`) on Node.js 20, its spec reporter (`ℹ fail 0`) on Node.js 24.
      assert.match(tested, /^(#|ℹ) fail 0$/m, tested);
      assert.match(tested, /^(#|ℹ) pass [1-9]\d*$/m, tested);
      await npm(dir, 'run', 'build');
      assert.ok(existsSync(join(dir, bundle)), `npm run build makes ${bundle}`);
      assert.deepEqual(validateTemplate(readTemplate(join(dir, 'template.yaml'))), []);
    });
  }

  it('says what is wrong, and writes nothing, for a missing or unknown template, a folder in use, and missing tarballs', async () => {
    const none = await create(join(root, 'a'));
    assert.equal(none.code, 2);
    assert.match(none.stderr, /choose a template with --template/);
    assert.match(none.stderr, /lambda-api .*\n.*widget-lambda .*\n.*widget-project /);
    const unknown = await create(join(root, 'b'), '--template', 'lambda');
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no template "lambda"; the templates are lambda-api, widget-lambda, widget-project/);
    const used = join(root, 'used');
    mkdirSync(used);
    writeFileSync(join(used, 'notes.txt'), 'mine');
    const busy = await create(used, '--template', 'lambda-api');
    assert.equal(busy.code, 2);
    assert.match(busy.stderr, /is not empty; choose a new folder/);
    const missing = await create(join(root, 'c'), '--template', 'lambda-api', '--packages', join(root, 'nowhere'));
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /no trellis-\d+\.\d+\.\d+\.tgz in /);
    for (const name of ['a', 'b', 'c']) assert.ok(!existsSync(join(root, name)), `${name} was not made`);
    assert.equal(readFileSync(join(used, 'notes.txt'), 'utf8'), 'mine');
  });

  it('prints its version', async () => {
    const { code, stdout } = await create('--version');
    assert.equal(code, 0);
    assert.equal(stdout.trim(), JSON.parse(readFileSync(join(REPO, 'packages', 'create-trellis', 'package.json'), 'utf8')).version);
  });
});
