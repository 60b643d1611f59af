// Bundles the entry files that a cold start loads — the core (`trellis`), `trellis/lambda` and the two rooms
// it imports, `trellis/ratelimit` and `trellis/widgets` — each into one file in place in dist/, so a fresh
// process (an AWS Lambda cold start above all) reads four files instead of some forty.
// Every other subpath's entry file (package.json `exports`) stays an import of that file, so each class exists
// once however the package is imported. npm packages stay imports too, except the CommonJS ones the core
// needs on every request (BUNDLED below): Node.js loads a CommonJS package imported from an ES module through
// a second loader that reads, scans and wraps each of its files, which cost a cold start more than all of
// Trellis's own code. Bundled, they are a few functions in the core's file; their licences go into
// dist/THIRD-PARTY-LICENSES.md.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { URL, fileURLToPath } from 'node:url';
import { isBuiltin } from 'node:module';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('../', import.meta.url));
const dist = join(root, 'dist');
const ENTRIES = ['index.js', 'lambda/index.js', 'ratelimit/index.js', 'widgets/index.js'];
/** CommonJS packages the core imports, bundled with the packages they require. */
const BUNDLED = new Set(['find-my-way', 'forwarded-parse', 'proxy-addr']);

/** The file behind every subpath the package exports. */
const exported = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).exports;
const rooms = new Set(
  Object.values(exported)
    // `{ import: './dist/x.js' }` or, with conditions for types, `{ import: { types, default: './dist/x.js' } }`.
    .map((target) => (typeof target === 'object' ? target.import : undefined))
    .map((file) => (file !== null && typeof file === 'object' ? file.default : file))
    .filter((file) => typeof file === 'string' && file.startsWith('./dist/'))
    .map((file) => join(dist, file.slice('./dist/'.length))),
);
// Without the other rooms' entry files the bundles would hold copies of their classes (App, errors, tokens),
// and an app made with one copy would not be the App that another checks for.
if (rooms.size < 3) throw new Error(`bundle-entries: found only ${rooms.size} exported entry files in package.json; expected every subpath`);

// find-my-way checks its arguments with `assert(condition, message)`; loading node:assert for checks that pass
// costs a cold start some 10 ms. This `assert` loads it for the first check that fails, which then throws
// node:assert's own AssertionError with the same message; anything else asked of it is node:assert's.
const lazyAssert = `const real = () => process.getBuiltinModule('node:assert');
module.exports = new Proxy((...args) => { if (args.length === 0 || !args[0]) real()(...args); }, { get: (_, key) => real()[key] });`;
const LAZY = { 'node:assert': lazyAssert, assert: lazyAssert };

const packageName = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
const insideNodeModules = (file) => file.split(sep).includes('node_modules');
/** Package folders whose files went into a bundle, for the licence notice. */
const bundledPackages = new Set();

/** Bundles one entry file in place. */
const bundle = (entryPath) => build({
  entryPoints: [entryPath],
  outfile: entryPath,
  allowOverwrite: true,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  metafile: true,
  logLevel: 'warning',
  plugins: [{
    name: 'rooms-and-most-packages-stay-imports',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (insideNodeModules(args.importer)) return undefined;
        const target = resolve(args.resolveDir, args.path);
        if (target === entryPath || !rooms.has(target)) return undefined;
        let path = relative(dirname(entryPath), target).replaceAll('\\', '/');
        if (!path.startsWith('.')) path = `./${path}`;
        return { path, external: true };
      });
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        // A bundled CommonJS package's `require('node:assert')`: an ES module has no `require`, and one
        // declared in a banner would clash with the one a user's own bundler declares.
        if (isBuiltin(args.path) && args.kind === 'require-call') return { path: args.path, namespace: 'builtin' };
        if (isBuiltin(args.path)) return { path: args.path, external: true };
        // A bundled package's own imports are bundled with it.
        if (insideNodeModules(args.importer) || BUNDLED.has(packageName(args.path))) return undefined;
        return { path: args.path, external: true };
      });
      b.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({
        contents: LAZY[args.path] ?? `module.exports = process.getBuiltinModule(${JSON.stringify(args.path)});`,
        loader: 'js',
      }));
    },
  }],
});

for (const entry of ENTRIES) {
  const entryPath = join(dist, entry);
  const { metafile } = await bundle(entryPath);
  const packageFiles = Object.keys(metafile.inputs).filter((file) => file.split('/').includes('node_modules'));
  for (const file of packageFiles) {
    const parts = file.split('/');
    const at = parts.lastIndexOf('node_modules');
    bundledPackages.add(parts.slice(0, at + (parts[at + 1].startsWith('@') ? 3 : 2)).join('/'));
  }
}

/** The licence of each package bundled above, as its own files state it. */
const notices = [...bundledPackages].sort().map((folder) => {
  const dir = join(root, folder);
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  const licenceFile = readdirSync(dir).find((name) => /^(licen[cs]e|copying)(\.|$)/i.test(name));
  if (licenceFile === undefined) throw new Error(`bundle-entries: ${manifest.name} is bundled but has no licence file`);
  const text = readFileSync(join(dir, licenceFile), 'utf8').trim();
  return `## ${manifest.name} ${manifest.version} (${manifest.license})\n\n\`\`\`\n${text}\n\`\`\`\n`;
});
writeFileSync(
  join(dist, 'THIRD-PARTY-LICENSES.md'),
  `# Third-party licences\n\nThese packages are bundled into Trellis's files in dist/.\n\n${notices.join('\n')}`,
);
