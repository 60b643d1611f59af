// The "from an empty folder" guides of docs/, each followed literally in an empty folder with the release
// tarballs: its files written, its commands run (install, type-check, the guide's own tests, the bundle), then
// its SAM template validated and its bundle run alone on the events Lambda sends. Each guide's files are its
// example project's, shown whole.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { readTemplate } from '../support/cloudformation-yaml.js';
import { validateTemplate } from '../support/cloudformation-validate.js';
import { chromiumSkipReason } from '../support/chromium.js';
import { followGuide, readGuide, type GuideStep } from '../support/guide.js';
import { httpEvent } from '../support/lambda-events.js';
import { packTarballs, REPO } from '../support/packed-package.js';
import { writeSsmStandIn } from '../support/runtime-sdk.js';

interface Guide {
  readonly doc: string;
  readonly heading: string;
  /** The example project the guide's files are. */
  readonly example: string;
  /** Files of the example that the guide leaves out (another section of the doc shows them). */
  readonly elsewhere?: readonly string[];
  /** The folder the guide makes and ends in. */
  readonly project: string;
  /** The commands that need an AWS account, by their first two words. */
  readonly deploy: readonly string[];
  /** The bundle the guide builds, run alone: each event → the status code and body it must answer. */
  readonly bundle?: string;
  readonly events?: readonly { readonly event: unknown; readonly statusCode?: number; readonly body?: string | RegExp }[];
  /** Whether the guide's project has a SAM template. */
  readonly template: boolean;
  /** Why the guide cannot be followed on this machine, if it cannot. */
  readonly skip?: () => string | false;
  readonly environment?: Readonly<Record<string, string>>;
  readonly runtimeSdk?: (dir: string) => void;
  /** A command the guide shows with what it prints, in the `# ` lines under it: the commands must print those lines. */
  readonly prints?: string;
}

const LOAD = JSON.parse(readFileSync(join(REPO, 'test', 'fixtures', 'lambda-widget', 'load.json'), 'utf8'));

const GUIDES: readonly Guide[] = [
  {
    doc: 'docs/lambda.md',
    heading: '## From an empty folder to a deployed API',
    example: 'examples/lambda-api',
    elsewhere: ['gateway-identity.ts'],
    project: 'orders-api',
    deploy: ['aws ssm', 'sam validate', 'sam build', 'sam deploy', 'curl "$(aws'],
    bundle: 'dist/handler.mjs',
    template: true,
    prints: 'node local/invoke.mjs',
    environment: { API_KEYS_PARAMETER: '/orders-api/api-keys' },
    runtimeSdk: (dir) =>
      writeSsmStandIn(dir, { '/orders-api/api-keys': JSON.stringify({ k1: { subject: 'ana', grants: ['orders:read'] } }) }),
    events: [
      { event: httpEvent('http-api', { path: '/health' }), statusCode: 200, body: '{"status":"ok"}' },
      { event: httpEvent('http-api', { path: '/orders', headers: { 'x-api-key': 'k1' } }), statusCode: 200, body: '[]' },
      { event: httpEvent('http-api', { path: '/orders' }), statusCode: 401 },
    ],
  },
  {
    doc: 'docs/lambda-widgets.md',
    heading: '## From an empty folder to a deployed widget',
    example: 'examples/lambda-widget',
    project: 'service-status',
    deploy: ['sam validate', 'sam build', 'sam deploy'],
    bundle: 'dist/handler.mjs',
    template: true,
    events: [{ event: LOAD, body: /Services in eu-west-1/ }],
  },
  {
    doc: 'docs/widgets.md',
    heading: '## From an empty folder to a tested, deployable widget',
    example: 'examples/widget-project',
    project: 'widget-project',
    deploy: ['sam validate', 'sam build', 'sam deploy'],
    bundle: 'dist/greeting.mjs',
    template: true,
    events: [{ event: { ...LOAD, name: '<Ada>' }, body: /^<p class="greeting">Hello, &lt;Ada&gt;!<\/p>/ }],
  },
  {
    doc: 'docs/testing.md',
    heading: '# Testing widgets in your own test runner',
    example: 'examples/recipes',
    project: 'widget-tests',
    deploy: [],
    template: false,
    // Its visual tests and `trellis snapshot` draw with chromium.
    skip: () => pytestMissing() || chromiumSkipReason(),
    prints: 'npx trellis snapshot --compare screenshots/all',
  },
];

/** The guide to testing runs pytest: where it is missing, CI fails and elsewhere the guide is skipped. */
function pytestMissing(): string | false {
  for (const python of ['python3', '/usr/bin/python3']) {
    if (spawnSync(python, ['-m', 'pytest', '--version'], { stdio: 'ignore' }).status === 0) return false;
  }
  const message = 'pytest not found: install it (apt-get install -y python3-pytest) to follow docs/testing.md';
  if (process.env.CI === 'true') throw new Error(message);
  return message;
}

/** The lines a guide says a command prints: the `# ` lines that follow it in its block. */
function printedBy(steps: readonly GuideStep[], command: string): string[] {
  for (const step of steps) {
    if (step.kind !== 'shell') continue;
    const lines = step.script.split('\n');
    const at = lines.findIndex((line) => line.startsWith(command));
    if (at < 0) continue;
    const printed: string[] = [];
    for (const line of lines.slice(at + 1)) {
      if (!line.startsWith('# ')) break;
      printed.push(line.slice(2));
    }
    return printed;
  }
  return [];
}

/** Every file of a project folder, relative to it, but what the guide's commands make or a reader keeps out. */
function projectFiles(
  dir: string,
  // test/screenshots/: the golden images the example's visual test writes where it runs, per platform.
  skip = new Set(['node_modules', 'dist', 'README.md', '.gitignore', 'package-lock.json', 'screenshots']),
): string[] {
  const files: string[] = [];
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      if (skip.has(name)) continue;
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(relative(dir, path));
    }
  };
  walk(dir);
  return files.sort();
}

/** Runs a bundle alone in a fresh folder, as Lambda's runtime would, on each event; what it answered. */
function runBundle(bundle: string, guide: Guide, root: string): { statusCode?: number; body: string }[] {
  const events = guide.events ?? [];
  const lambda = join(root, 'lambda');
  mkdirSync(lambda);
  copyFileSync(bundle, join(lambda, 'handler.mjs'));
  guide.runtimeSdk?.(lambda);
  const script = `const { handler } = await import('./handler.mjs');
const out = [];
for (const event of ${JSON.stringify(events.map((e) => e.event))}) {
  // As Lambda's runtime sends a result back: JSON.
  const r = JSON.parse(JSON.stringify(await handler(event, { awsRequestId: 'r1', functionName: 'f', invokedFunctionArn: 'arn:aws:lambda:eu-west-1:111122223333:function:f' })));
  out.push(typeof r === 'string' ? { body: r } : { statusCode: r.statusCode, body: r.body });
}
process.stdout.write(JSON.stringify(out));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: lambda,
    env: { PATH: process.env.PATH, ...guide.environment },
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout);
}

for (const guide of GUIDES) {
  const steps: GuideStep[] = readGuide(join(REPO, guide.doc), guide.heading);
  const files = steps.flatMap((s) => (s.kind === 'file' ? [s] : []));

  describe(`${guide.doc}: ${guide.heading.replace(/^#+ /, '')}`, { timeout: 600_000 }, () => {
    it(`shows every file of ${guide.example} whole, as it is`, () => {
      const expected = projectFiles(join(REPO, guide.example)).filter((f) => !guide.elsewhere?.includes(f));
      assert.deepEqual(files.map((f) => f.path).sort(), expected);
      for (const file of files) {
        const actual = readFileSync(join(REPO, guide.example, file.path), 'utf8');
        if (file.path === 'package.json') {
          // The guide's package.json is the one before `npm install` adds the dependencies.
          const example = JSON.parse(actual);
          const shown = JSON.parse(file.body);
          for (const key of ['name', 'type', 'scripts']) assert.deepEqual(shown[key], example[key], `the same ${key}`);
        } else {
          assert.equal(file.body, actual, `the guide shows ${file.path} as it is`);
        }
      }
    });

    it('deploys only with commands that need an AWS account', () => {
      const lines = steps.flatMap((s) => (s.kind === 'shell' && s.needsAws ? s.script.split('\n') : []));
      const commands = lines.filter((l) => l.trim() !== '' && !l.startsWith(' ')).map((l) => l.split(' ').slice(0, 2).join(' '));
      assert.deepEqual(commands, guide.deploy);
    });

    describe('followed in an empty folder', { skip: guide.skip?.() ?? false }, () => {
      let root: string;
      let project: string;
      let output: string;
      before(async () => {
        root = mkdtempSync(join(tmpdir(), 'trellis-guide-'));
        const packs = join(root, 'packs');
        mkdirSync(packs);
        await packTarballs(packs);
        const work = join(root, 'work');
        mkdirSync(work);
        ({ cwd: project, output } = await followGuide(steps, { dir: work, env: { TRELLIS_PACKS: packs } }));
      });
      after(() => rmSync(root, { recursive: true, force: true }));

      it('ends in the project', () => {
        assert.equal(project, join(root, 'work', guide.project));
      });

      it(
        `${guide.prints ?? 'its commands'} print${guide.prints ? 's' : ''} what the guide says`,
        { skip: guide.prints === undefined },
        () => {
          const expected = printedBy(steps, guide.prints!);
          assert.ok(expected.length > 0, `the guide shows what ${guide.prints} prints`);
          const printed = output.split('\n');
          for (const line of expected) assert.ok(printed.includes(line), `${guide.prints} prints "${line}":\n${output}`);
        },
      );

      it('has a valid SAM template', { skip: !guide.template }, () => {
        assert.deepEqual(validateTemplate(readTemplate(join(project, 'template.yaml'))), []);
      });

      it('the bundle alone answers the events Lambda sends it', { skip: guide.bundle === undefined }, () => {
        const answers = runBundle(join(project, guide.bundle!), guide, root);
        (guide.events ?? []).forEach((expected, i) => {
          const answer = answers[i]!;
          if (expected.statusCode !== undefined) assert.equal(answer.statusCode, expected.statusCode, answer.body);
          if (typeof expected.body === 'string') assert.equal(answer.body, expected.body);
          else if (expected.body) assert.match(answer.body, expected.body);
        });
      });
    });
  });
}
