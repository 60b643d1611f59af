import { defineConfig } from 'tsdown';
import { packageOptions } from '../../scripts/build/options.js';
import { builtinsOfBundledPackages, thirdPartyLicences } from '../../scripts/build/plugins.mjs';

// Every subpath the package exports is an entry, built from its file in src/public/ (what users get) into the
// folder the subpath names; code two entries share goes into a shared file, so each class exists once per module
// format however the package is imported, and a cold start reads a few files.
// The CommonJS packages the core needs on every request are bundled: Node.js loads a CommonJS package imported
// from an ES module through a second loader that reads, scans and wraps each of its files, which cost a cold
// start more than all of Trellis's own code.
const options = packageOptions();

export default defineConfig({
  ...options,
  entry: {
    index: 'src/public/index.ts',
    'ratelimit/index': 'src/public/ratelimit.ts',
    'ratelimit/redis/index': 'src/public/ratelimit-redis.ts',
    'ratelimit/dynamodb/index': 'src/public/ratelimit-dynamodb.ts',
    'ratelimit/store-kit/index': 'src/public/ratelimit-store-kit.ts',
    'lambda/index': 'src/public/lambda.ts',
    'widgets/index': 'src/public/widgets.ts',
    'openapi/index': 'src/public/openapi.ts',
    'testing/index': 'src/public/testing.ts',
  },
  format: ['esm', 'cjs'],
  outputOptions: {
    ...(options.outputOptions as object),
    // One shared file for the core, one for rate limiting and one for widgets, whichever entries use them (left to
    // itself, the bundler makes a file for each set of entries that shares a module). The store contract and the
    // manual clock stay out of rate limiting's file: only the store kit and trellis/testing load them. Sources
    // only (.ts, not the .d.ts the declarations are bundled from).
    codeSplitting: {
      groups: [
        {
          name: 'core',
          test: /rolldown[\\/]runtime|[\\/]src[\\/](index|(services|pipeline|annotations|filters|auth|app)[\\/].*)(?<!\.d)\.ts$/,
        },
        { name: 'ratelimit', test: /[\\/]src[\\/]ratelimit[\\/](?!store-contract|manual-clock)[^\\/]+(?<!\.d)\.ts$/ },
        { name: 'widgets', test: /[\\/]src[\\/]widgets[\\/].*(?<!\.d)\.ts$/ },
        { name: 'multipart', test: /[\\/]node_modules[\\/](busboy|streamsearch)[\\/]/ },
      ],
    },
  },
  deps: {
    alwaysBundle: ['cookie', 'forwarded-parse', 'busboy', 'streamsearch'],
    // Everything that may end up bundled: they and what they require. Anything else is an error. busboy (and
    // streamsearch, which it requires) is imported when the first multipart body arrives, so it is a file of its
    // own that a cold start does not read.
    onlyBundle: ['cookie', 'forwarded-parse', 'busboy', 'streamsearch'],
  },
  plugins: [builtinsOfBundledPackages(), thirdPartyLicences('Trellis')],
});
