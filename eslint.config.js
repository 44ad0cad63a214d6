// Lint for the whole repository, run by `npm test`: typescript-eslint's recommended rules,
// and no regex whose cost grows faster than its input (issue 31: people's text reaches them).
import js from '@eslint/js';
import regexp from 'eslint-plugin-regexp';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', '**/dist/**', '.scratch/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: globals.node },
    plugins: { regexp },
    rules: {
      // A quadratic regex on an 8,000-character message holds the event loop for seconds (issue 31).
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
      // A leading underscore marks a value taken only to leave it out (`const { raw: _raw, ...rest } = x`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  // The chat page runs in the browser.
  { files: ['services/gateway/web/**/*.js'], languageOptions: { globals: globals.browser } },
  // Tests match the repository's own files and strings they wrote, never what people send: no input there can make a
  // regex slow for anyone else, and their patterns stay as readable as the assertion they make.
  // The packages' own tests (shared/*/test, services/*/test, packages/*/test) are tests like these.
  {
    files: ['test/**', '{shared,services,packages}/*/test/**'],
    rules: { 'regexp/no-super-linear-backtracking': 'off', 'regexp/no-super-linear-move': 'off' },
  },
);
