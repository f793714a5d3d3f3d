// ESLint flat config: @eslint/js + typescript-eslint (syntax-only, fast) + react-hooks for the PWA.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { defineConfig, globalIgnores } from 'eslint/config';

export default defineConfig([
  globalIgnores([
    '**/node_modules/',
    'dist/',
    'dist-*/',
    'coverage/',
    'test-results/',
    'playwright-report/',
    'data/',
    'bench/results/',
    '.vite/',
  ]),

  js.configs.recommended,
  tseslint.configs.recommended,

  {
    rules: {
      // Same convention as tsc's noUnusedParameters: a leading underscore marks "unused on purpose".
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          caughtErrorsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          ignoreRestSiblings: true,
        },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'off',
    },
  },

  // The PWA runs in the browser; React hooks rules apply to every module that may define hooks.
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
  {
    files: ['src/sw.ts', 'src/**/*.sw.ts'],
    languageOptions: { globals: { ...globals.serviceworker } },
  },

  // Node: the server, scripts, benchmarks, tests and root config files.
  {
    files: ['server/**/*.{ts,tsx,js,mjs,cjs}', 'scripts/**', 'bench/**', '*.{js,mjs,cjs,ts}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    // Playwright specs, benchmarks and checking scripts run in Node but pass callbacks to the page
    // (page.evaluate), which see the DOM.
    files: ['tests/**', 'scripts/**', 'bench/**'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    files: ['**/*.test.{ts,tsx}'],
    languageOptions: { globals: { ...globals.node } },
  },
]);
