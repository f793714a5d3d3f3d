// ESLint flat config: @eslint/js + typescript-eslint (syntax-only, fast) + react-hooks for the PWA.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import i18next from 'eslint-plugin-i18next';
import globals from 'globals';
import { defineConfig, globalIgnores } from 'eslint/config';

// Each folder gets one config holding all its rules (a later config would replace an earlier one's
// no-restricted-imports for the same file, not add to it).
const NOT_BUILD = {
  regex: '(^|/)(scripts|bench)/',
  message: 'src/ and server/ import nothing from scripts/ or bench/: share it through common/.',
};
/** In `files`, an import whose source matches one of `patterns` fails with its message. */
const imports = (files, ...patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: [NOT_BUILD, ...patterns] }] },
});
/** The same, tests aside. */
const importsOutsideTests = (files, ...patterns) => ({
  ...imports(files, ...patterns),
  ignores: ['**/*.test.{ts,tsx}'],
});
/** The server imports nothing from the browser app's src/ but the mail texts (the contract is contract/). */
const SERVER_SRC = {
  // the mail texts are kept with the site's translations so translators find them in one place
  regex: '(^|/)src/(?!i18n/locales/[a-z]{2}/mail\\.json$)',
  message:
    'The server imports nothing from src/ but the mail texts: what it shares with the browser app is contract/.',
};
/** JSX text that is the same in every language: the brand, symbols, punctuation, numbers. */
const I18N_ALLOWED = ['Manna', '[0-9!-/:-@\\[-`{-~\\s·•×–—…←→]+'];

export const boundaries = [
  // a test of what the build makes (src/pwa/precache.test.ts) may read the build's helper
  importsOutsideTests(['src/**/*.{ts,tsx}']),
  importsOutsideTests(['src/machines/**/*.ts'], {
    regex: '^\\.\\./api/',
    message:
      'Machines call the outside only through actors supplied by the screen: import types from contract/, never an api module.',
  }),
  // The back office's areas (blog, hiring, inbox, insights, people, operations) reach each other
  // only through shared/; shared/ knows no area and not the shell around them (admin-app, layout).
  // See src/routes/admin/README.md.
  importsOutsideTests(['src/routes/admin/*/**/*.{ts,tsx}'], {
    regex: '^\\.\\./(?!shared/|\\.\\./)',
    message:
      "A back-office area imports only its own files and ../shared/: what two areas need goes to shared/, and the shell (admin-app, layout) is never an area's.",
  }),
  importsOutsideTests(['src/routes/admin/shared/**/*.{ts,tsx}'], {
    regex: '^\\.\\./(?!\\.\\./)',
    message: 'src/routes/admin/shared/ is what the areas share: it imports no area and not the shell.',
  }),
  importsOutsideTests(['src/offline/**/*.ts'], {
    regex: '^\\.\\./(components|routes|machines)/',
    message: 'offline/ knows no components, routes or machines: the caller passes what it needs.',
  }),
  importsOutsideTests(['src/api/**/*.ts'], {
    regex: '^\\.\\./(offline|machines|components|routes)/',
    message: 'api/ is the transport: it knows no offline storage, machines or screens.',
  }),
  // The one zod contract of the browser app and the server: it imports zod, the phone-number
  // library and its own modules, nothing of either side.
  importsOutsideTests(['contract/**/*.ts'], {
    regex: '^(?!zod(/|$)|libphonenumber-js(/|$)|\\./)',
    message:
      'contract/ is shared by src/ and server/: it imports only zod, libphonenumber-js and its own modules.',
  }),
  imports(['server/**/*.ts'], SERVER_SRC),
  // The server's layers (docs/decisions/021-service-layer.md): routes -> services -> repositories,
  // with lib/ as tools. Each rule repeats SERVER_SRC: a later config replaces an earlier one's list.
  importsOutsideTests(['server/services/**/*.ts'], SERVER_SRC, {
    regex: '^fastify($|[-/])|(^|/)(plugins|routes)/|(^|/)events/listeners',
    message:
      'Services know no HTTP: nothing from Fastify, plugins or routes; what they need comes in the ServiceContext. What follows a change is announced (change.announce), never called: its listeners are in events/listeners.ts (docs/decisions/034-domain-events.md).',
  }),
  // The domain events are plain types and one small bus: they depend on nothing of the server.
  importsOutsideTests(['server/events/domain-events.ts'], SERVER_SRC, {
    regex: '^fastify($|[-/])|(^|/)(plugins|routes|services|db|mail|lib)/',
    message:
      'events/domain-events.ts is the types of what happened and a bus: it imports nothing of the server.',
  }),
  importsOutsideTests(['server/routes/**/*.ts'], SERVER_SRC, {
    regex: '(^|/)db/',
    message: 'Routes speak HTTP and call a service (server/services); tables are reached only through one.',
  }),
  importsOutsideTests(['server/db/**/*.ts'], SERVER_SRC, {
    regex: '(^|/)(services|mail|plugins|routes)/',
    message:
      'Repositories own tables only: no services, mail, plugins or routes (no audit rows or mail from here).',
  }),
  importsOutsideTests(['server/lib/**/*.ts'], SERVER_SRC, {
    regex: '(^|/)(plugins|routes|services)/',
    message: 'lib/ holds tools: it imports no plugins, routes or services.',
  }),
];

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

  // Every table is read and written by its repository (server/db/*.repo.ts): routes, lib and
  // plugins call those and never name a table themselves.
  {
    files: ['server/routes/**/*.ts', 'server/lib/**/*.ts', 'server/plugins/**/*.ts'],
    ignores: ['**/*.test.ts', '**/*-testing.ts', '**/*.testing.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.property.name=/^(selectFrom|insertInto|updateTable|deleteFrom|replaceInto|mergeInto)$/]',
          message:
            "Only repositories (server/db/*.repo.ts) query tables: call or add a function of the table's repository.",
        },
      ],
    },
  },

  // Every text a screen shows comes from the translation files: no literal JSX text in routes and
  // components (brand names, symbols and the English-only legal notice aside).
  {
    files: ['src/routes/**/*.tsx', 'src/components/**/*.tsx'],
    ignores: ['**/*.test.tsx'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        { mode: 'jsx-text-only', 'jsx-components': { exclude: ['Trans'] }, words: { exclude: I18N_ALLOWED } },
      ],
    },
  },

  // The import boundaries (routes -> machines -> offline -> api -> contract; the server reads only the
  // contract), checked: server/eslint-boundaries.test.ts breaks each on purpose.
  ...boundaries,
]);
