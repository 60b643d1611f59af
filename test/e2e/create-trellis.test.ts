// `npm create trellis`, as a new user runs it from the release tarballs: each template makes a project that
// carries the tarballs it installs, so it installs after being copied elsewhere, passes its own `npm test`,
// bundles with its own build command, and carries a valid SAM template. README.md's line makes one where npm
// cannot ask whether to install create-trellis.
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
    it(`${template}: makes a project that carries its tarballs, installs when copied elsewhere, passes its own tests, bundles, and has a valid SAM template`, async () => {
      // The tarballs it is given are gone, and the project is in another folder, by the time it installs.
      const given = join(root, `given-${template}`);
      cpSync(packs, given, { recursive: true });
      const made = join(root, 'made', `my-${template}`);
      const result = await create(made, '--template', template, '--packages', given);
      assert.equal(result.code, 0, result.stderr);
      assert.match(result.stdout, new RegExp(`Made my-${template} \\(${template}\\)`));
      const dir = join(root, 'elsewhere', `my-${template}`);
      cpSync(made, dir, { recursive: true });
      rmSync(made, { recursive: true, force: true });
      rmSync(given, { recursive: true, force: true });
      const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      assert.equal(manifest.name, `my-${template}`);
      const version = JSON.parse(readFileSync(join(REPO, 'packages', 'trellis', 'package.json'), 'utf8')).version;
      assert.equal(manifest.dependencies.trellis, `file:./vendor/trellis-${version}.tgz`);
      const harness = manifest.devDependencies['trellis-harness'];
      assert.equal(harness, template === 'lambda-api' ? undefined : `file:./vendor/trellis-harness-${version}.tgz`);
      assert.deepEqual(
        readdirSync(join(dir, 'vendor')).sort(),
        [`trellis-${version}.tgz`, ...(harness ? [`trellis-harness-${version}.tgz`] : [])],
        'the project carries the tarballs it installs, and no other',
      );
      assert.ok(existsSync(join(dir, '.gitignore')), 'the project has its .gitignore');
      const readme = readFileSync(join(dir, 'README.md'), 'utf8');
      assert.equal(readme.split('\n')[0], `# my-${template}`, "the README is titled with the project's name");
      assert.doesNotMatch(readme, /npmjs\.com/, 'the README links no registry page that does not exist');
      await npm(dir, 'install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error');
      assert.ok(!readFileSync(join(dir, 'package-lock.json'), 'utf8').includes(root), 'the lock names no folder outside the project');
      const tested = await npm(dir, 'test');
      // node --test's summary: TAP (`# fail 0`) on Node.js 22, its spec reporter (`ℹ fail 0`) on Node.js 24 and 26.
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

  it("README.md's line makes a project where npm cannot ask whether to install create-trellis", () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const line = readme.split('\n').find((l) => l.startsWith('npm exec') && l.includes('create-trellis'));
    assert.ok(line, 'README.md shows how to run create-trellis');
    const dir = join(root, 'readme');
    mkdirSync(join(dir, 'npm-cache'), { recursive: true });
    // npm's `yes` setting off and no terminal, as in CI; an npm cache of its own, which has never seen
    // create-trellis's tarball (npm asks only for packages it must install).
    const env = {
      ...process.env,
      TRELLIS_PACKS: packs,
      npm_config_yes: 'false',
      npm_config_cache: join(dir, 'npm-cache'),
      npm_config_update_notifier: 'false',
    };
    const follow = (command: string) =>
      spawnSync('bash', ['-c', `set -euo pipefail\n${command}`], { cwd: dir, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const unasked = follow(line.replace(' --yes', ''));
    assert.notEqual(unasked.status, 0, 'without --yes, npm cancels here');
    assert.match(unasked.stderr, /canceled due to missing packages and no YES option/);
    const run = follow(line);
    assert.equal(run.status, 0, `${line}\n${run.stdout}${run.stderr}`);
    assert.match(run.stdout, /^Made my-api \(lambda-api\)/);
    const manifest = JSON.parse(readFileSync(join(dir, 'my-api', 'package.json'), 'utf8'));
    assert.match(manifest.dependencies.trellis, /^file:\.\/vendor\/trellis-\d+\.\d+\.\d+\.tgz$/);
    assert.ok(existsSync(join(dir, 'my-api', manifest.dependencies.trellis.slice('file:'.length))));
    assert.equal(readFileSync(join(dir, 'my-api', 'README.md'), 'utf8').split('\n')[0], '# my-api');
  });

  it('prints its version', async () => {
    const { code, stdout } = await create('--version');
    assert.equal(code, 0);
    assert.equal(stdout.trim(), JSON.parse(readFileSync(join(REPO, 'packages', 'create-trellis', 'package.json'), 'utf8')).version);
  });
});
