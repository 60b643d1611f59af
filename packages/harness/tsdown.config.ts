import { defineConfig, type UserConfig } from 'tsdown';
import { esmOnlyTypeImports } from '../../scripts/build/plugins.mjs';

// The harness keeps its source layout in dist/ (one output file per source file): modules find the files they
// read at run time (the web page's assets, the programs function child processes run, the lint worker) beside
// themselves, as they do in src/.
const common = {
  unbundle: true,
  fixedExtension: false,
  platform: 'node',
  target: 'node20.19',
  tsconfig: 'tsconfig.json',
  dts: true,
  sourcemap: true,
  // The maps point into src/, which the package ships, instead of carrying a second copy of every source.
  outputOptions: { sourcemapExcludeSources: true },
  // Also given to the build that writes the CommonJS declarations, which leaves out the config's `plugins`.
  // The plugin is added here, not in `plugins`, so that the build writing the CommonJS declarations (which
  // leaves `plugins` out) has it too. Returning nothing keeps tsdown's options, changed in place.
  inputOptions(options) {
    options.plugins = [options.plugins, esmOnlyTypeImports(['parse5'])];
    options.checks = { ...options.checks, pluginTimings: false };
  },
  logLevel: 'warn',
  // The CommonJS output is deliberate: Jest and TypeScript projects compiled to CommonJS cannot load ES modules.
  checks: { legacyCjs: false },
  shims: true,
} satisfies UserConfig;

/** The subpaths the package exports, for `import` and for `require`. */
const library = ['src/harness/index.ts', 'src/dashboard/index.ts', 'src/lint/index.ts'];

export default defineConfig([
  {
    ...common,
    entry: [...library, 'src/cli/main.ts', 'src/harness/lint-worker.ts'],
    format: 'esm',
    clean: false,
    copy: [
      { from: 'src/harness/web/assets', to: 'dist/harness/web' },
      { from: 'src/dashboard/functions/runtime', to: 'dist/dashboard/functions' },
    ],
  },
  { ...common, entry: library, format: 'cjs', clean: false },
]);
