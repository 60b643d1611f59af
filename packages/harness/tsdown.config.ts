import { defineConfig, type UserConfig } from 'tsdown';
import { packageOptions } from '../../scripts/build/options.js';

// The harness keeps its source layout in dist/ (one output file per source file): modules find the files they
// read at run time (the web page's assets, the programs function child processes run, the lint worker) beside
// themselves, as they do in src/.
// `root` keeps that layout however few entries a build has (the CommonJS one builds the library's alone).
const common = { ...packageOptions(['parse5']), unbundle: true, root: 'src' } satisfies UserConfig;

/** The subpaths the package exports, for `import` and for `require`: their files in src/public/ (what users get). */
const library = ['src/public/index.ts', 'src/public/dashboard.ts', 'src/public/lint.ts'];

export default defineConfig([
  {
    ...common,
    entry: [...library, 'src/cli/main.ts', 'src/harness/lint-worker.ts'],
    format: 'esm',
    copy: [
      { from: 'src/harness/web/assets', to: 'dist/harness/web' },
      { from: 'src/dashboard/functions/runtime', to: 'dist/dashboard/functions' },
    ],
  },
  { ...common, entry: library, format: 'cjs' },
]);
