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
  {
    // Subpaths a Lambda bundle may pack without using them: no module-level import of a `node:` built-in or
    // of the AWS SDK, which a bundler would hoist into every cold start (CONTRIBUTING.md, "Cold starts").
    files: ['packages/trellis/src/ratelimit/redis/**/*.ts', 'packages/trellis/src/ratelimit/dynamodb/**/*.ts'],
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
    // create-trellis is plain JavaScript, run by Node.js as it is.
    files: ['packages/create-trellis/**/*.js', 'packages/create-trellis/**/*.mjs'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['scripts/**/*.mjs', 'packages/*/src/**/*.mjs', '**/*.cjs'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', require: 'readonly', module: 'writable' } },
  },
);
