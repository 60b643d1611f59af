// The tsdown options both packages build with: ES modules and CommonJS for Node.js 22.12, declarations for
// each, source maps into the shipped sources. Each package's tsdown.config.ts adds its entries and layout.
// The configs load with `tsdown --config-loader unrun` (the packages' build scripts): on Node.js 24, which can
// import a TypeScript config itself, that loader still resolves `./options.js` to this file as TypeScript does.
import type { UserConfig } from 'tsdown';
import { esmOnlyTypeImports } from './plugins.mjs';

/**
 * The shared options. `esmOnly` names the packages that are only ES modules and whose types the package's
 * declarations import (see esmOnlyTypeImports).
 */
export function packageOptions(esmOnly: readonly string[] = []): UserConfig {
  return {
    fixedExtension: false,
    platform: 'node',
    target: 'node22.12',
    tsconfig: 'tsconfig.json',
    dts: true,
    sourcemap: true,
    shims: true,
    clean: false,
    // The maps point into src/, which the package ships, instead of carrying a second copy of every source.
    outputOptions: { sourcemapExcludeSources: true },
    // The plugin is added here, not in `plugins`, so that the build writing the CommonJS declarations (which
    // leaves `plugins` out) has it too. Returning nothing keeps tsdown's options, changed in place.
    inputOptions(options) {
      if (esmOnly.length > 0) options.plugins = [options.plugins, esmOnlyTypeImports([...esmOnly])];
      options.checks = { ...options.checks, pluginTimings: false };
    },
    logLevel: 'warn',
    // The CommonJS output is deliberate: Jest and TypeScript projects compiled to CommonJS cannot load ES modules.
    checks: { legacyCjs: false },
  };
}
