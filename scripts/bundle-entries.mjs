// Bundles the entry files that a cold start loads — the core (`trellis`), `trellis/lambda` and the two rooms
// it imports, `trellis/ratelimit` and `trellis/widgets` — each into one file in place in dist/, so a fresh
// process (an AWS Lambda cold start above all) reads four files instead of some forty.
// npm packages stay imports, and every other subpath's entry file (package.json `exports`) stays an import
// of that file, so each class exists once however the package is imported.
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { URL, fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const ENTRIES = ['index.js', 'lambda/index.js', 'ratelimit/index.js', 'widgets/index.js'];

/** The file behind every subpath the package exports. */
const exported = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).exports;
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

for (const entry of ENTRIES) {
  const entryPath = join(dist, entry);
  await build({
    entryPoints: [entryPath],
    outfile: entryPath,
    allowOverwrite: true,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    logLevel: 'warning',
    plugins: [{
      name: 'other-rooms-stay-imports',
      setup(b) {
        b.onResolve({ filter: /^\.\.?\// }, (args) => {
          const target = resolve(args.resolveDir, args.path);
          if (target === entryPath || !rooms.has(target)) return undefined;
          let path = relative(dirname(entryPath), target).replaceAll('\\', '/');
          if (!path.startsWith('.')) path = `./${path}`;
          return { path, external: true };
        });
      },
    }],
  });
}
