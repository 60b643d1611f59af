// The packed harness installed in an empty project, as a user installs it: playwright-core is an optional peer
// dependency, so the install brings neither it nor any browser. Then widget images say what to install —
// `trellis snapshot` in one line, the image endpoint in a 503 — while every other command and endpoint works.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { linesOf } from '../support/child-lines.js';
import { installPackedPackage, type InstalledProject } from '../support/packed-package.js';

const MISSING =
  'Widget images are drawn by Chromium through playwright-core, an optional peer dependency of trellis-harness that is not installed: npm install --save-dev playwright-core';

describe('the harness installed without a browser', { timeout: 600_000 }, () => {
  let project: InstalledProject;
  let browsers: string;

  before(async () => {
    // Where Playwright would put browsers it downloads, watched for the install.
    browsers = mkdtempSync(join(tmpdir(), 'trellis-no-browsers-'));
    const saved = process.env.PLAYWRIGHT_BROWSERS_PATH;
    process.env.PLAYWRIGHT_BROWSERS_PATH = browsers;
    try {
      project = await installPackedPackage();
    } finally {
      if (saved === undefined) delete process.env.PLAYWRIGHT_BROWSERS_PATH;
      else process.env.PLAYWRIGHT_BROWSERS_PATH = saved;
    }
  });
  after(() => {
    project?.remove();
    rmSync(browsers, { recursive: true, force: true });
  });

  it('installs neither playwright-core nor a browser, and says playwright-core is an optional peer', () => {
    assert.ok(!existsSync(join(project.dir, 'node_modules', 'playwright-core')), 'playwright-core is not installed');
    assert.ok(!existsSync(join(project.dir, 'node_modules', 'playwright')), 'playwright is not installed');
    const lock = JSON.parse(readFileSync(join(project.dir, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    assert.deepEqual(
      Object.keys(lock.packages).filter((p) => /playwright/.test(p)),
      [],
    );
    assert.deepEqual(readdirSync(browsers), [], 'no browser was downloaded');
    const manifest = JSON.parse(readFileSync(join(project.dir, 'node_modules', 'trellis-harness', 'package.json'), 'utf8'));
    assert.equal(manifest.peerDependenciesMeta['playwright-core'].optional, true);
    assert.ok(manifest.peerDependencies['playwright-core']);
  });

  it('trellis snapshot says in one line what to install, before any widget runs', () => {
    const run = spawnSync(process.execPath, [join('node_modules', '.bin', 'trellis'), 'snapshot'], {
      cwd: project.dir,
      encoding: 'utf8',
      timeout: 120_000,
    });
    assert.equal(run.status, 1);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr, `trellis snapshot: ${MISSING}\n`);
    assert.ok(!existsSync(join(project.dir, 'snapshots')), 'nothing is written');
  });

  it('WidgetImages.missingBrowser() says the same, from CommonJS', () => {
    const run = spawnSync(
      process.execPath,
      ['-e', "process.stdout.write(String(require('trellis-harness').WidgetImages.missingBrowser()))"],
      {
        cwd: project.dir,
        encoding: 'utf8',
      },
    );
    assert.equal(run.stdout, MISSING, run.stderr);
  });

  it('trellis harness serves everything, and the image endpoint answers 503 saying what to install', async () => {
    const child = spawn(process.execPath, [join('node_modules', '.bin', 'trellis'), 'harness', '--port', '0'], {
      cwd: project.dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const [first, second] = await linesOf(child, (lines) => lines.length === 2);
      const url = /^Trellis harness listening on (\S+)$/.exec(first!)![1]!;
      const id = /^dashboard (\S+) dashboard /.exec(second!)![1]!;
      const widget = await fetch(`${url}/api/dashboards/${id}/widgets/2`);
      assert.equal(widget.status, 200);
      const image = await fetch(`${url}/api/dashboards/${id}/widgets/2/image`);
      assert.equal(image.status, 503);
      const problem = (await image.json()) as { code: string; detail: string };
      assert.deepEqual(problem, {
        type: 'about:blank',
        title: 'Service Unavailable',
        status: 503,
        detail: MISSING,
        code: 'TRELLIS_IMAGE_BROWSER_UNAVAILABLE',
      });
      assert.equal((await fetch(`${url}/api/openapi.json`)).status, 200);
      assert.equal((await fetch(`${url}/`)).status, 200);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
