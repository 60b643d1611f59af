// The packages as users install them (`npm pack`, then `npm install <tarballs>` into an empty project): a
// CommonJS project, an ES module project and a TypeScript project compiled to CommonJS each load every subpath,
// and the harness installed there runs a CommonJS widget that requires `trellis/widgets`. The framework alone,
// installed for production, is small and brings none of the harness's tools. The harness installed as its
// README says runs AWS's EC2 and CloudWatch samples with the stubs it ships, and says what to install when an
// install left their dependency out.
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import semver from 'semver';
import { linesOf } from '../support/child-lines.js';
import { installPackedPackage, packTarballs, REPO, type InstalledProject } from '../support/packed-package.js';

const run = promisify(execFile);
const TSC = join(REPO, 'node_modules', 'typescript', 'bin', 'tsc');

/** Each subpath with one export it must have. `trellis/ratelimit/redis` needs the optional peer `ioredis`. */
const SUBPATHS: Record<string, string> = {
  trellis: 'createApp',
  'trellis/ratelimit': 'RateLimit',
  'trellis/ratelimit/store-kit': 'rateLimitStoreContract',
  'trellis/testing': 'ManualClock',
  'trellis/widgets': 'html',
  'trellis-harness/lint': 'lint',
  'trellis-harness/dashboard': 'createInterpreter',
  'trellis-harness': 'startHarness',
  'trellis/lambda': 'lambdaHandler',
  'trellis/openapi': 'createOpenApiDocument',
};

const PROBE = `const expected = ${JSON.stringify(SUBPATHS)};`;
const REPORT = `
const seen = {};
for (const [name, mod] of Object.entries(loaded)) seen[name] = typeof mod[expected[name]];
console.log(JSON.stringify(seen));`;
const ALL_FUNCTIONS = JSON.stringify(Object.fromEntries(Object.keys(SUBPATHS).map((k) => [k, 'function'])));

let project: InstalledProject;

before(async () => {
  project = await installPackedPackage();
});

after(() => project?.remove());

async function node(file: string, cwd = project.dir): Promise<string> {
  const { stdout } = await run(process.execPath, [file], { cwd });
  return stdout.trim();
}

describe('the packed package in a new project', () => {
  it('is exported for both import and require, with types for each, and each package states the Node.js versions it runs on', () => {
    for (const pkg of ['trellis', 'trellis-harness']) {
      const manifest = JSON.parse(readFileSync(join(project.dir, 'node_modules', pkg, 'package.json'), 'utf8'));
      assert.equal(manifest.engines.node, '>=22.12');
    }
    for (const name of Object.keys(SUBPATHS)) {
      const pkg = name.startsWith('trellis-harness') ? 'trellis-harness' : 'trellis';
      const manifest = JSON.parse(readFileSync(join(project.dir, 'node_modules', pkg, 'package.json'), 'utf8'));
      const entry = manifest.exports[name === pkg ? '.' : `./${name.slice(pkg.length + 1)}`];
      assert.ok(entry.require.types.endsWith('.d.cts'), `${name} has CommonJS types`);
      assert.ok(entry.require.default.endsWith('.cjs'), `${name} has a CommonJS module`);
      assert.ok(entry.import.types.endsWith('.d.ts') && entry.import.default.endsWith('.js'), `${name} has an ES module`);
    }
  });

  it('a CommonJS project (npm init) requires every subpath', async () => {
    const lines = Object.keys(SUBPATHS).map((name) => `  ${JSON.stringify(name)}: require(${JSON.stringify(name)}),`);
    writeFileSync(join(project.dir, 'index.js'), `'use strict';\n${PROBE}\nconst loaded = {\n${lines.join('\n')}\n};${REPORT}\n`);
    assert.equal(await node('index.js'), ALL_FUNCTIONS);
  });

  it('an ES module project imports every subpath', async () => {
    const dir = join(project.dir, 'esm');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    const imports = Object.keys(SUBPATHS).map((name, i) => `import * as m${i} from ${JSON.stringify(name)};`);
    const loaded = Object.keys(SUBPATHS).map((name, i) => `  ${JSON.stringify(name)}: m${i},`);
    writeFileSync(join(dir, 'index.js'), `${imports.join('\n')}\n${PROBE}\nconst loaded = {\n${loaded.join('\n')}\n};${REPORT}\n`);
    assert.equal(await node('index.js', dir), ALL_FUNCTIONS);
  });

  it('an app made with trellis is the App that trellis/lambda serves, in both module systems (one copy of each class)', async () => {
    const fixture = JSON.stringify(join(REPO, 'test', 'fixtures', 'lambda', 'http-api.json'));
    const body = (load: string) => `${load}
const event = JSON.parse(require('node:fs').readFileSync(${fixture}, 'utf8'));
event.rawPath = '/hi'; event.requestContext.http.path = '/hi'; event.requestContext.http.method = 'GET'; event.rawQueryString = ''; delete event.body;
const app = createApp();
app.route(route('GET', '/hi', () => ({ hi: true })));
lambdaHandler(app)(event).then((r) => console.log(r.statusCode, r.body), (e) => console.log(e.message));
`;
    writeFileSync(
      join(project.dir, 'lambda.js'),
      body(`const { createApp, route } = require('trellis');\nconst { lambdaHandler } = require('trellis/lambda');`),
    );
    assert.equal(await node('lambda.js'), '200 {"hi":true}');
    const dir = join(project.dir, 'esm');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(
      join(dir, 'lambda.js'),
      body(
        `import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\nimport { createApp, route } from 'trellis';\nimport { lambdaHandler } from 'trellis/lambda';`,
      ),
    );
    assert.equal(await node('lambda.js', dir), '200 {"hi":true}');
  });

  it('routes, route errors (a malformed percent-encoding among them) and trusted-proxy addresses work from the installed package, which carries the licences of the packages built into it', async () => {
    writeFileSync(
      join(project.dir, 'proxy.js'),
      `const { createApp, route } = require('trellis');
const app = createApp({ trustProxy: 'loopback' });
app.route(route('GET', '/users/:id', (ctx) => ({ id: ctx.params.id, client: ctx.request.clientAddress })));
(async () => {
  const found = await app.inject({ url: '/users/42', headers: { forwarded: 'for="[2001:db8::1]:4711"' } });
  const missing = await app.inject({ url: '/users' });
  const malformed = await app.inject({ url: '/users/%E0%A4%A' });
  console.log(found.statusCode, found.body, missing.statusCode, malformed.statusCode, malformed.json().code);
  const unsafe = createApp();
  unsafe.route(route('GET', '/a/:id((a+)+)', () => null));
  await unsafe.inject({ url: '/a/1' }).catch((e) => console.log(e.message, e.code));
})();
`,
    );
    assert.deepEqual((await node('proxy.js')).split('\n'), [
      '200 {"id":"42","client":"2001:db8::1"} 404 400 TRELLIS_BAD_TARGET',
      'Cannot route GET /a/:id((a+)+): the pattern ((a+)+) is not safe: it repeats a repetition or repeats too often TRELLIS_INVALID_ROUTE',
    ]);
    const licences = readFileSync(join(project.dir, 'node_modules', 'trellis', 'dist', 'THIRD-PARTY-LICENSES.md'), 'utf8');
    for (const name of ['forwarded-parse']) {
      assert.match(licences, new RegExp(`^## ${name} \\d+\\.\\d+\\.\\d+ \\(MIT\\)$`, 'm'), `${name} is named with its version`);
    }
    assert.match(licences, /Permission is hereby granted, free of charge/);
  });

  it('trellis/ratelimit/redis loads without ioredis (node-redis users need not install it); its url option says which package it needs', async () => {
    const probe =
      `const { RedisRateLimitStore } = require('trellis/ratelimit/redis');\nconsole.log(typeof RedisRateLimitStore);\n` +
      `try { new RedisRateLimitStore({ url: 'redis://127.0.0.1:1' }); console.log('made'); } catch (e) { console.log(e.message.split('\\n')[0]); }\n`;
    writeFileSync(join(project.dir, 'redis.js'), probe);
    const [loaded, made] = (await node('redis.js')).split('\n');
    assert.equal(loaded, 'function');
    assert.match(made!, /the `url` option needs the ioredis package \(npm install ioredis\)/);
  });

  it('trellis/ratelimit/store-kit gives a store its checks without fast-check installed; its contract suite says what to install', async () => {
    writeFileSync(
      join(project.dir, 'store-kit.js'),
      `const kit = require('trellis/ratelimit/store-kit');
console.log(kit.checkCost('MyStore', undefined), kit.failOpenDecision(10, 60).remaining);
try { kit.checkCost('MyStore', 0); } catch (e) { console.log(e.message); }
try { kit.rateLimitStoreContract('MyStore', () => undefined); } catch (e) { console.log(e.message); }
`,
    );
    assert.deepEqual((await node('store-kit.js')).split('\n'), [
      '1 9',
      'MyStore.acquire: cost must be a whole number of permits, at least 1; got 0',
      'rateLimitStoreContract needs fast-check, an optional peer dependency of trellis: npm install --save-dev fast-check',
    ]);
  });

  // node16 reads the CommonJS declarations (.d.cts), so they are checked in full there; nodenext (and node20)
  // read the ES module ones, which the repository's own typecheck covers; commonjs is what older tsc --init wrote.
  for (const [module, skipLibCheck] of [
    ['nodenext', true],
    ['node16', false],
    ['commonjs', true],
  ] as const) {
    it(`TypeScript with "module": "${module}" compiles to CommonJS with tsc and runs`, async () => {
      const dir = join(project.dir, `ts-${module}`);
      mkdirSync(dir, { recursive: true });
      writeFileSync(
        join(dir, 'index.ts'),
        [
          `import { html, type WidgetHandler } from 'trellis/widgets';`,
          `import { createInterpreter } from 'trellis-harness/dashboard';`,
          `import { HarnessClient } from 'trellis-harness';`,
          `import { ManualClock } from 'trellis/testing';`,
          `import { lint } from 'trellis-harness/lint';`,
          `import { createApp } from 'trellis';`,
          `const handler: WidgetHandler<{ name: string }> = async (event) => html\`<p>Hello \${event.name}</p>\`;`,
          `const interpreter = createInterpreter({ functions: { functions: { hello: { handler } } } });`,
          `const findings: number = lint('<p onclick="x()">hi</p>').length;`,
          `void (async () => {`,
          `  const dash = await interpreter.load({ widgets: [{ type: 'custom', properties: { endpoint: 'hello', params: { name: '<Ada>' } } }] });`,
          `  const widget = await dash.readWidget(0);`,
          `  console.log(JSON.stringify({ html: widget.html, findings, client: typeof HarnessClient, clock: new ManualClock(5).now(), app: typeof createApp }));`,
          `  await interpreter.close();`,
          `})();`,
          '',
        ].join('\n'),
      );
      const types = join(REPO, 'node_modules', '@types');
      writeFileSync(
        join(dir, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: { module, target: 'es2022', strict: true, skipLibCheck, outDir: 'out', typeRoots: [types], types: ['node'] },
          files: ['index.ts'],
        }),
      );
      await run(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: dir }).catch((e: { stdout: string }) =>
        assert.fail(`tsc failed:\n${e.stdout}`),
      );
      const compiled = readFileSync(join(dir, 'out', 'index.js'), 'utf8');
      assert.match(compiled, /require\("trellis\/widgets"\)/, 'compiled to CommonJS');
      const printed = JSON.parse(await node(join('out', 'index.js'), dir));
      assert.deepEqual(printed, { html: '<p>Hello &lt;Ada&gt;</p>', findings: 1, client: 'function', clock: 5, app: 'function' });
    });
  }

  it('every package installed with them runs on the Node.js versions they support (22.12 and later)', () => {
    const wrong: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        if (name.startsWith('.')) continue;
        const path = join(dir, name);
        if (name.startsWith('@')) {
          walk(path);
          continue;
        }
        const manifest = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8')) as {
          name: string;
          version: string;
          engines?: { node?: string };
        };
        const range = manifest.engines?.node;
        if (range && !['22.12.0', '24.0.0', '26.0.0'].every((version) => semver.satisfies(version, range)))
          wrong.push(`${manifest.name}@${manifest.version} wants node ${range}`);
        if (existsSync(join(path, 'node_modules'))) walk(join(path, 'node_modules'));
      }
    };
    walk(join(project.dir, 'node_modules'));
    assert.deepEqual(wrong, []);
  });

  it("README.md's taste runs as shown: 200 with 4 permits left, then it listens", async () => {
    const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
    const taste = /```ts title="reports\.ts"\n([\s\S]*?)```/.exec(readme)?.[1];
    assert.ok(taste, 'README.md shows reports.ts');
    const dir = join(project.dir, 'taste');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{ "type": "module" }\n');
    writeFileSync(join(dir, 'reports.ts'), taste);
    const child = spawn(process.execPath, [join(project.dir, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'reports.ts'], {
      cwd: dir,
      env: { ...process.env, PORT: '0', NODE_OPTIONS: undefined },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      const lines = await linesOf(child, (read) => read.length === 2);
      assert.equal(lines[0], '200 4');
      const url = /^listening on (http:\/\/\S+)$/.exec(lines[1]!)?.[1];
      assert.ok(url, lines[1]);
      const res = await fetch(`${url}/reports`, { headers: { 'x-api-key': 'k1' } });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('ratelimit-remaining'), '3');
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('prints its version', async () => {
    const { stdout } = await run(process.execPath, [join('node_modules', '.bin', 'trellis'), '--version'], { cwd: project.dir });
    const manifest = JSON.parse(readFileSync(join(project.dir, 'node_modules', 'trellis-harness', 'package.json'), 'utf8'));
    assert.equal(stdout.trim(), manifest.version);
  });

  it('the installed trellis harness runs a CommonJS widget that requires trellis/widgets', async () => {
    const dir = join(project.dir, 'widgets');
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, 'greeting.js'),
      `const { html } = require('trellis/widgets');\nexports.handler = async (event) => html\`<p class="greeting">Hello, \${event.name}</p>\`;\n`,
    );
    writeFileSync(
      join(project.dir, 'functions.json'),
      JSON.stringify({ functions: { greeting: { handler: 'widgets/greeting.handler' } } }),
    );
    writeFileSync(
      join(project.dir, 'dashboard.json'),
      JSON.stringify({ widgets: [{ type: 'custom', properties: { endpoint: 'greeting', params: { name: '<Ada>' } } }] }),
    );
    const child = spawn(
      process.execPath,
      [join('node_modules', '.bin', 'trellis'), 'harness', '--functions', 'functions.json', '--dashboard', 'dashboard.json', '--port', '0'],
      {
        cwd: project.dir,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    try {
      const lines = await linesOf(child, (read) => read.length === 2);
      const url = /^Trellis harness listening on (http:\/\/\S+)$/.exec(lines[0]!)?.[1];
      const id = /^dashboard (\S+) dashboard /.exec(lines[1]!)?.[1];
      assert.ok(url && id, lines.join('\n'));
      const widget = (await (await fetch(`${url}/api/dashboards/${id}/widgets/0`)).json()) as { html: string; error: unknown };
      assert.equal(widget.error, null);
      assert.equal(widget.html, '<p class="greeting">Hello, &lt;Ada&gt;</p>');
    } finally {
      child.kill('SIGTERM');
      assert.equal(await exited, 0);
    }
  });
});

describe('the framework alone, installed for production', () => {
  let alone: InstalledProject;
  before(async () => {
    alone = await installPackedPackage({ packages: ['trellis'], npmArgs: ['--omit=dev'] });
  });
  after(() => alone?.remove());

  it("adds at most 3 MB to node_modules and brings none of the harness's tools", async () => {
    const { stdout } = await run('du', ['-sk', 'node_modules'], { cwd: alone.dir });
    const kib = Number(stdout.split('\t')[0]);
    assert.ok(kib <= 3 * 1024, `node_modules holds ${kib} KiB`);
    const installed = readdirSync(join(alone.dir, 'node_modules')).flatMap((name) =>
      name.startsWith('@') ? readdirSync(join(alone.dir, 'node_modules', name)).map((sub) => `${name}/${sub}`) : [name],
    );
    for (const banned of ['tsx', 'esbuild', 'parse5', 'markdown-it', 'yaml', 'trellis-harness'])
      assert.ok(!installed.includes(banned), `${banned} is not installed`);
    assert.deepEqual(
      installed.filter((name) => name.startsWith('@aws-sdk/')),
      [],
    );
  });

  it("runs no install script, its own or a dependency's", () => {
    const lock = JSON.parse(readFileSync(join(alone.dir, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { hasInstallScript?: boolean }>;
    };
    assert.deepEqual(
      Object.entries(lock.packages)
        .filter(([, p]) => p.hasInstallScript)
        .map(([name]) => name),
      [],
    );
  });
});

describe('the harness installed as packages/harness/README.md says, in an empty project', { timeout: 600_000 }, () => {
  let root: string;
  let dir: string;
  let checkout: string;
  before(async () => {
    root = mkdtempSync(join(tmpdir(), 'trellis-harness-readme-'));
    const packs = join(root, 'packs');
    dir = join(root, 'project');
    for (const d of [packs, dir]) mkdirSync(d);
    // A checkout outside the repository, as a user's is: inside it, the samples would find the repository's AWS
    // SDK rather than the one the project's harness provides and its stubs use.
    checkout = join(root, 'samples-checkout');
    cpSync(join(REPO, 'test', 'fixtures', 'aws-samples-checkout'), checkout, { recursive: true });
    await packTarballs(packs);
    writeFileSync(join(dir, 'package.json'), `${JSON.stringify({ name: 'widget-tests', version: '1.0.0', private: true }, null, 2)}\n`);
    const readme = readFileSync(join(REPO, 'packages', 'harness', 'README.md'), 'utf8');
    const line = readme.split('\n').find((l) => l.startsWith('npm install') && l.includes('trellis-harness-'));
    assert.ok(line, "the README shows the harness's install line");
    // The line as shown; npm's own settings only keep it quiet and on the cache.
    const install = spawnSync('bash', ['-c', `set -euo pipefail\n${line}`], {
      cwd: dir,
      encoding: 'utf8',
      env: { ...process.env, TRELLIS_PACKS: packs, npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    assert.equal(install.status, 0, `${line}\n${install.stdout}${install.stderr}`);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  const samples = (...args: string[]) =>
    spawnSync(process.execPath, [join('node_modules', '.bin', 'trellis'), 'aws-samples', checkout, ...args], {
      cwd: dir,
      encoding: 'utf8',
      timeout: 240_000,
      env: { ...process.env, NODE_OPTIONS: undefined },
    });

  it('installs the harness and the framework it depends on, without the npm registry knowing either', () => {
    for (const pkg of ['trellis', 'trellis-harness'])
      assert.ok(existsSync(join(dir, 'node_modules', pkg, 'package.json')), `${pkg} is installed`);
  });

  it('trellis aws-samples renders the EC2 and the metric samples with the stubs the harness ships', () => {
    for (const [sample, setup] of [
      ['ec2Table', 'stub-ec2.cjs, stub-cloudwatch.cjs'],
      ['cloudWatchMetricDataTable', 'stub-cloudwatch.cjs'],
    ] as const) {
      const run = samples('--only', sample);
      assert.equal(run.status, 0, run.stderr);
      assert.ok(
        run.stdout.split('\n').includes(`| ${sample} | Node.js | setup: ${setup} | renders (1/1 widgets) |`),
        `${sample} renders its table:\n${run.stdout}\n${run.stderr}`,
      );
    }
  });

  it('without aws-sdk-client-mock (an install that left the optional dependencies out), says in one line what to install', () => {
    rmSync(join(dir, 'node_modules', 'aws-sdk-client-mock'), { recursive: true, force: true });
    const run = samples('--only', 'ec2Table');
    assert.equal(run.status, 1);
    assert.equal(run.stdout, '');
    assert.equal(
      run.stderr,
      'trellis aws-samples: ec2Table needs aws-sdk-client-mock, an optional dependency of trellis-harness that is not installed: ' +
        'npm install --save-dev aws-sdk-client-mock@4.1.0\n',
    );
  });
});
