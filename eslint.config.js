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
