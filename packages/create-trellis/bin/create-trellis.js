#!/usr/bin/env node
// create-trellis: makes a new Trellis project from a template. `npm create trellis <folder> -- --template <name>`
// runs it from the registry; `npm exec --yes --package ./create-trellis-<version>.tgz -- create-trellis …` from a tarball.
import { copyFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { basename, join, relative, resolve } from 'node:path';
import { URL, fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const TEMPLATES = {
  'lambda-api': 'an HTTP API on AWS Lambda behind API Gateway: routes, API keys from SSM Parameter Store, a rate limit, a SAM template',
  'widget-lambda': 'a CloudWatch custom widget written as a Trellis app, with its dashboard, harness tests and a SAM template',
  'widget-project': 'custom widgets with click-through tests in node:test through the harness, and a SAM template',
};
const TEMPLATE_ROOT = fileURLToPath(new URL('../templates/', import.meta.url));
const OWN = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
/** The packages of this release that a template may depend on. */
const RELEASED = ['trellis', 'trellis-harness'];
/** The project's folder for the release tarballs it installs, named relatively in its package.json. */
const VENDOR = 'vendor';

const USAGE = `usage: create-trellis <folder> --template <name> [--packages <folder>] [--name <package name>]

Makes a new project in <folder> (new, or empty) from a template:
${Object.entries(TEMPLATES).map(([name, what]) => `  ${name.padEnd(15)}${what}`).join('\n')}

  --template <name>     which template (required)
  --packages <folder>   install trellis and trellis-harness from the release tarballs in <folder>
                        (trellis-${OWN.version}.tgz, trellis-harness-${OWN.version}.tgz; \`npm run pack\` in a
                        clone of Trellis makes them) instead of from the npm registry: they are copied
                        into the project's ${VENDOR}/ folder, so it installs wherever it is copied
  --name <name>         the package name (default: the folder's name)
  -v, --version         print create-trellis's version
  -h, --help

Then: cd <folder> && npm install && npm test
`;

function fail(message) {
  process.stderr.write(`create-trellis: ${message}\n\n${USAGE}`);
  process.exit(2);
}

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: {
      template: { type: 'string', short: 't' },
      packages: { type: 'string' },
      name: { type: 'string' },
      version: { type: 'boolean', short: 'v' },
      help: { type: 'boolean', short: 'h' },
    },
  });
} catch (error) {
  fail(error.message);
}
const { values, positionals } = parsed;
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}
if (values.version) {
  process.stdout.write(`${OWN.version}\n`);
  process.exit(0);
}
if (positionals.length !== 1) fail(positionals.length === 0 ? 'name the folder to create' : `one folder only, got ${positionals.length}`);
if (values.template === undefined) fail('choose a template with --template');
if (!Object.hasOwn(TEMPLATES, values.template)) fail(`no template "${values.template}"; the templates are ${Object.keys(TEMPLATES).join(', ')}`);

const target = resolve(positionals[0]);
if (existsSync(target) && readdirSync(target).length > 0) fail(`${target} is not empty; choose a new folder`);
const name = values.name ?? basename(target).toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[._-]+/, '');
if (!/^(?:@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/.test(name) || name.length > 214) {
  fail(`"${name}" is not a valid npm package name; give one with --name`);
}

/**
 * Where each released package comes from: this release's version range, or with --packages its tarball, copied
 * into the project's vendor/ folder and named by a path inside the project (so a copy or a clone of the project
 * installs too).
 */
const sources = {};
/** The tarballs given by --packages, by package: copied into the project when its package.json uses them. */
const tarballs = {};
for (const pkg of RELEASED) {
  if (values.packages === undefined) {
    sources[pkg] = `^${OWN.version}`;
    continue;
  }
  const file = `${pkg}-${OWN.version}.tgz`;
  tarballs[pkg] = resolve(values.packages, file);
  if (!existsSync(tarballs[pkg])) fail(`no ${file} in ${resolve(values.packages)} (npm run pack in a clone of Trellis ${OWN.version} makes it)`);
  sources[pkg] = `file:./${VENDOR}/${file}`;
}

mkdirSync(target, { recursive: true });
cpSync(join(TEMPLATE_ROOT, values.template), target, { recursive: true });
if (existsSync(join(target, 'gitignore'))) renameSync(join(target, 'gitignore'), join(target, '.gitignore'));

const manifestPath = join(target, 'package.json');
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
manifest.name = name;
const vendored = [];
for (const field of ['dependencies', 'devDependencies']) {
  for (const pkg of RELEASED) {
    if (manifest[field]?.[pkg] === undefined) continue;
    manifest[field][pkg] = sources[pkg];
    if (tarballs[pkg] !== undefined) vendored.push(pkg);
  }
}
if (vendored.length > 0) mkdirSync(join(target, VENDOR));
for (const pkg of vendored) copyFileSync(tarballs[pkg], join(target, VENDOR, basename(tarballs[pkg])));
writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);

// The template's README is titled with the example's name: title it with the project's.
const readmePath = join(target, 'README.md');
if (existsSync(readmePath)) writeFileSync(readmePath, readFileSync(readmePath, 'utf8').replace(/^# .*$/m, `# ${name}`));

const shown = relative(process.cwd(), target) || '.';
process.stdout.write(`Made ${name} (${values.template}) in ${target}

  cd ${shown}
  npm install
  npm test

${
  vendored.length > 0
    ? `The release tarballs it installs are in ${VENDOR}/ (${vendored.map((pkg) => basename(tarballs[pkg])).join(', ')}): keep them with the project.\n`
    : ''
}README.md in the project says what is in it and how to deploy it.
`);
