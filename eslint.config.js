import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['.bench/**', '**/dist/**', '**/node_modules/**', 'coverage/**', '.tmp/**', 'examples/**/*.js', 'packages/*/examples/**/*.js', 'packages/create-trellis/templates/**', 'test/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // Rules that read the types, on every TypeScript file.
  ...tseslint.configs.recommendedTypeCheckedOnly.map((config) => ({ ...config, files: ['**/*.ts'] })),
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // node:test's test(), it() and describe() return promises the runner awaits itself.
      '@typescript-eslint/no-floating-promises': ['error', { allowForKnownSafeCalls: [{ from: 'package', name: ['test', 'it', 'describe', 'suite'], package: 'node:test' }] }],
      // Lambda's nodejs24.x takes async handlers only, and interfaces ask for promises: an async function
      // without an await is often the contract, not a slip.
      '@typescript-eslint/require-await': 'off',
      // Error messages show a refused value with String(); an object there reads [object Object], which is
      // enough to say it is not the number or text asked for.
      '@typescript-eslint/no-base-to-string': 'off',
      // A promise rejects with what a caught error or an abort signal holds, whatever its type.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      // SafeHtml and the chart path writers turn into their text in templates, by design.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allow: [{ from: 'lib', name: ['Error', 'URL', 'URLSearchParams'] }, { from: 'file', name: ['SafeHtml', 'PathWriter'] }] },
      ],
    },
  },
  {
    // The bundler takes the global functions below for functions without effects and drops a call whose result
    // is unused, so a call made only for what it throws (`try { decodeURIComponent(path) } catch …`) checks
    // nothing in the published build: use the result.
    files: ['packages/*/src/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'ExpressionStatement > CallExpression[callee.name=/^(decodeURIComponent|decodeURI|encodeURIComponent|encodeURI|escape|unescape|parseInt|parseFloat|isNaN|isFinite|Number|String|Boolean|Symbol|BigInt|Object|Array)$/]',
          message: 'The bundler drops this call when its result is unused; use the result (see decodes() in app/request-info.ts).',
        },
      ],
    },
  },
  {
    // The examples are projects of their own, type-checked by their own tsconfig.json as well as the
    // repository's stricter one: an assertion one of them needs may look needless to the other.
    files: ['examples/**/*.ts'],
    rules: { '@typescript-eslint/no-unnecessary-type-assertion': 'off' },
  },
  {
    // Tests and benchmarks read JSON answers as `any` on purpose; what they assert is checked at run time.
    files: ['test/**/*.ts', 'bench/**/*.ts', '**/*.test.ts', '**/*.test-suite.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Handlers that throw strings and other non-errors are what some tests are about.
      '@typescript-eslint/only-throw-error': 'off',
    },
  },
  {
    // Subpaths a Lambda bundle may pack without using them: no module-level import of a `node:` built-in or
    // of the AWS SDK, which a bundler would hoist into every cold start (CONTRIBUTING.md, "Cold starts"). The
    // store kit's contract suite loads node:test only when a test file calls it.
    files: [
      'packages/trellis/src/ratelimit/redis/**/*.ts',
      'packages/trellis/src/ratelimit/dynamodb/**/*.ts',
      'packages/trellis/src/ratelimit/store-contract.ts',
    ],
    ignores: ['**/*.test.ts', '**/*.test-suite.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'Use process.getBuiltinModule() where the code runs (CONTRIBUTING.md, "Cold starts").', allowTypeImports: true },
            { group: ['@aws-sdk/*'], message: 'Load the SDK with import() on first use (ratelimit/dynamodb/sdk-commands.ts).', allowTypeImports: true },
          ],
        },
      ],
    },
  },
  {
    // The programs function child processes run: plain CommonJS on Node.js, required as Lambda's runtime does;
    // and the example setup modules a function loads before its handler.
    files: ['packages/*/src/**/*.cjs', 'examples/**/*.cjs', 'packages/*/examples/**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // create-trellis is plain JavaScript, run by Node.js as it is, and so are the examples' ES module scripts.
    files: ['packages/create-trellis/**/*.js', 'packages/create-trellis/**/*.mjs', 'examples/**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['scripts/**/*.mjs', 'packages/*/src/**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', require: 'readonly', module: 'writable' } },
  },
);
