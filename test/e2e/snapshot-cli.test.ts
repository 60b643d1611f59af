// `trellis snapshot` as a user runs it (the built command): the bundled example with no arguments writes a PNG per
// custom widget and theme with a gallery; the same widgets compared with those images are unchanged (exit 0);
// one widget's CSS changed makes the comparison exit 1 naming that widget only, with a diff image; --update
// rewrites the golden images; a template works the same way; usage errors exit 2 and a missing browser 1.
// Without chromium the drawing tests skip with one line (and fail under CI=true).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { REPO } from '../support/packed-package.js';
import { chromiumSkipReason } from '../support/chromium.js';

const CLI = join(REPO, 'packages', 'harness', 'dist', 'cli', 'main.js');
const skip = chromiumSkipReason();

function snapshot(cwd: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [CLI, 'snapshot', ...args], {
    cwd,
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...process.env, NODE_OPTIONS: undefined },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

const pngs = (dir: string) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.png') && !f.endsWith('.diff.png'))
    .sort();

describe('trellis snapshot', { timeout: 600_000 }, () => {
  let root: string;
  before(() => {
    // Inside the repository (its .tmp/ is ignored), so that the copied widgets find trellis/widgets as the
    // bundled ones do.
    mkdirSync(join(REPO, '.tmp'), { recursive: true });
    root = mkdtempSync(join(REPO, '.tmp', 'snapshot-'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  describe('drawing', { skip }, () => {
    it('with no arguments draws the bundled example: a PNG per custom widget and theme, a gallery and a manifest', () => {
      const run = snapshot(root);
      assert.equal(run.code, 0, run.stderr);
      assert.deepEqual(run.stdout.split('\n'), [
        'wrote 22 images of 11 custom widgets (light, dark) to snapshots',
        'gallery snapshots/index.html',
        '',
      ]);
      const files = pngs(join(root, 'snapshots'));
      assert.equal(files.length, 22);
      assert.ok(files.includes('dashboard-widget-2-light.png') && files.includes('dashboard-widget-2-dark.png'), files.join(' '));
      const greeter = PNG.sync.read(readFileSync(join(root, 'snapshots', 'dashboard-widget-2-dark.png')));
      assert.deepEqual([greeter.width, greeter.height], [1186, 505]);
      const gallery = readFileSync(join(root, 'snapshots', 'index.html'), 'utf8');
      assert.equal(gallery.match(/<img src="data:image\/png;base64,/g)?.length, 22, 'every image inline');
      assert.doesNotMatch(gallery, /src="(?!data:)/, 'nothing outside the file');
      const manifest = JSON.parse(readFileSync(join(root, 'snapshots', 'snapshots.json'), 'utf8'));
      assert.equal(manifest.now, '2025-01-01T00:00:00.000Z');
      assert.equal(manifest.images.length, 22);
      assert.deepEqual(manifest.images[0].remote, []);
      assert.match(manifest.browser.version, /^\d+\./);
    });

    it('--compare: the same widgets are unchanged (exit 0); one changed CSS is named alone, with a diff image; --update rewrites', () => {
      const project = join(root, 'project');
      cpSync(join(REPO, 'packages', 'harness', 'examples'), project, { recursive: true });
      const args = [
        '--functions',
        'project/functions.json',
        '--dashboard',
        'project/dashboard.json',
        '--compare',
        'snapshots',
        '--out',
        'run',
      ];
      const same = snapshot(root, ...args);
      assert.equal(same.code, 0, same.stdout + same.stderr);
      assert.match(
        same.stdout,
        /^compared 22 images of 11 custom widgets \(light, dark\) with snapshots: 22 unchanged, 0 changed or missing$/m,
      );
      assert.deepEqual(
        readdirSync(join(root, 'run')).filter((f) => f.endsWith('.diff.png')),
        [],
      );

      const greeter = join(project, 'widgets', 'greeter.ts');
      const source = readFileSync(greeter, 'utf8');
      const changedSource = source.replace(
        'html`<p class="greeting">Nobody greeted yet.</p>`',
        'html`<p class="greeting" style="padding-left:6px;color:#d13212">Nobody greeted yet.</p>`',
      );
      assert.notEqual(changedSource, source);
      writeFileSync(greeter, changedSource);
      const changed = snapshot(root, ...args);
      assert.equal(changed.code, 1, changed.stderr);
      const lines = changed.stdout.trim().split('\n');
      assert.deepEqual(
        lines.filter((l) => l.startsWith('changed: ')).map((l) => l.replace(/: \d+ pixels differ.*$/, '')),
        ['changed: dashboard widget-2 "Greeter" (light)', 'changed: dashboard widget-2 "Greeter" (dark)'],
      );
      assert.match(lines[0]!, /pixels differ \(at most 0 may\); diff run\/dashboard-widget-2-light\.diff\.png$/);
      assert.doesNotMatch(changed.stdout, /widget-(1|3|4|5|6|7|8|9|10|11)\b/, 'no other widget is named');
      assert.match(changed.stdout, /20 unchanged, 2 changed or missing/);
      assert.deepEqual(
        readdirSync(join(root, 'run'))
          .filter((f) => f.endsWith('.diff.png'))
          .sort(),
        ['dashboard-widget-2-dark.diff.png', 'dashboard-widget-2-light.diff.png'],
      );
      const gallery = readFileSync(join(root, 'run', 'index.html'), 'utf8');
      assert.equal(gallery.match(/class="card changed"/g)?.length, 2);
      assert.ok(gallery.indexOf('dashboard widget-2 light') < gallery.indexOf('<h2>'), 'the changed widgets are listed first');

      const update = snapshot(root, ...args, '--update');
      assert.equal(update.code, 0, update.stderr);
      assert.match(update.stdout, /^updated the golden images in snapshots: 22 images/m);
      assert.ok(existsSync(join(root, 'snapshots', 'snapshots.json')));
      const after = snapshot(root, ...args);
      assert.equal(after.code, 0, after.stdout);
    });

    it('a template and one theme; a missing golden image fails the comparison, naming the widget', () => {
      const template = join(REPO, 'examples', 'lambda-widget', 'template.yaml');
      const run = snapshot(root, '--template', template, '--theme', 'dark', '--out', 'stack', '--compare', 'empty');
      assert.equal(run.code, 1, run.stderr);
      assert.match(
        run.stdout,
        /^missing: service-status widget-0 "Service status" \(dark\): no golden image empty\/service-status-widget-0-dark\.png$/m,
      );
      assert.match(run.stdout, /^missing: service-status widget-1 .*\(dark\)/m);
      assert.deepEqual(pngs(join(root, 'stack')), ['service-status-widget-0-dark.png', 'service-status-widget-1-dark.png']);
    });
  });

  it('usage errors exit 2, naming the flag', () => {
    for (const [args, message] of [
      [['--update'], /--update rewrites the golden images of --compare <folder>/],
      [['--theme', 'blue'], /--theme should be light or dark; got "blue"/],
      [['--scale', '4'], /--scale should be 1, 2 or 3; got "4"/],
      [['--now', 'yesterday'], /--now should be an ISO 8601 time/],
      [['--threshold', '2'], /--threshold should be a number from 0 to 1/],
      [['extra'], /unexpected argument "extra"/],
    ] as const) {
      const run = snapshot(root, ...args);
      assert.equal(run.code, 2, args.join(' '));
      assert.match(run.stderr, message);
      assert.match(run.stderr, /usage: trellis snapshot/);
    }
  });

  it('without a browser, exits 1 with one line saying what to install', () => {
    const run = spawnSync(process.execPath, [CLI, 'snapshot', '--out', 'none'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, TRELLIS_CHROMIUM: '/nonexistent/chromium' },
    });
    assert.equal(run.status, 1);
    assert.equal(run.stdout, '');
    assert.equal(
      run.stderr,
      'trellis snapshot: Widget images need Chromium: TRELLIS_CHROMIUM names /nonexistent/chromium, which is not a program on this machine. Give the path of a Chromium or Chrome program.\n',
    );
  });
});
