import { defineConfig } from 'tsdown';
import { packageOptions } from '../../scripts/build/options.js';
import { builtinsOfBundledPackages, thirdPartyLicences } from '../../scripts/build/plugins.mjs';

// Every subpath the package exports is an entry; code two entries share goes into a shared file, so each class
// exists once per module format however the package is imported, and a cold start reads a few files.
// The CommonJS packages the core needs on every request are bundled: Node.js loads a CommonJS package imported
// from an ES module through a second loader that reads, scans and wraps each of its files, which cost a cold
// start more than all of Trellis's own code.
export default defineConfig({
  ...packageOptions(),
  entry: {
    index: 'src/index.ts',
    'ratelimit/index': 'src/ratelimit/index.ts',
    'ratelimit/redis/index': 'src/ratelimit/redis/index.ts',
    'ratelimit/dynamodb/index': 'src/ratelimit/dynamodb/index.ts',
    'lambda/index': 'src/lambda/index.ts',
    'widgets/index': 'src/widgets/index.ts',
    'openapi/index': 'src/openapi/index.ts',
  },
  format: ['esm', 'cjs'],
  deps: {
    alwaysBundle: ['forwarded-parse'],
    // Everything that may end up bundled: it and what it requires (nothing). Anything else is an error.
    onlyBundle: ['forwarded-parse'],
  },
  plugins: [builtinsOfBundledPackages(), thirdPartyLicences('Trellis')],
});
