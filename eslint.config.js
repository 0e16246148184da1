import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import regexp from 'eslint-plugin-regexp';
import tseslint from 'typescript-eslint';

// ---- apps/web: import boundaries (bulletproof-react's layout) ----------------------------------
// A feature imports only components/ui, lib, config, @task-manager/shared and its own folder;
// app/ wires features together; components/ui, lib and config know nothing of features or app/.
// Our imports are relative, so where one lands depends on how deep the importing file sits: a
// block per depth counts the `../` exactly (core no-restricted-imports, no resolver needed).
const WEB_FEATURE_MAX_DEPTH = 6;
const webSharedLayers = ['components/ui', 'lib', 'config'];
const webTestFiles = ['apps/web/src/**/*.test.{ts,tsx}'];

/** The import patterns a feature file `depth` folders below its feature's folder may not use. */
function webFeatureBoundaries(depth, { isTest }) {
  const toFeatures = `^(\\.\\./){${depth + 1}}`;
  const allowed = [...webSharedLayers, ...(isTest ? ['test'] : [])].join('|');
  return [
    {
      regex: `${toFeatures}(?!\\.\\./)`,
      message:
        'A feature does not import another feature: move what both need to lib/ or components/ui/, or wire them in app/.',
    },
    {
      regex: `${toFeatures}\\.\\./(?!(${allowed})/)`,
      message: `A feature imports only ${allowed.replaceAll('|', ', ')} and its own folder (app/ wires features together).`,
    },
  ];
}

function webFeatureBoundaryBlocks() {
  return Array.from({ length: WEB_FEATURE_MAX_DEPTH }, (_, depth) => {
    const files = [`apps/web/src/features/*/${'*/'.repeat(depth)}*.{ts,tsx}`];
    return [
      {
        files,
        ignores: webTestFiles,
        rules: {
          'no-restricted-imports': [
            'error',
            { patterns: webFeatureBoundaries(depth, { isTest: false }) },
          ],
        },
      },
      {
        files: files.map((glob) => glob.replace('*.{ts,tsx}', '*.test.{ts,tsx}')),
        rules: {
          'no-restricted-imports': [
            'error',
            { patterns: webFeatureBoundaries(depth, { isTest: true }) },
          ],
        },
      },
    ];
  }).flat();
}

// ---- apps/api: layers ----------------------------------------------------------------------------
/** A feature does not read another feature's repository (db/ is the shared database layer). */
const apiOtherFeatureRepository = {
  regex: '^\\.\\./(?!db/)[^/]+/repository\\.js$',
  message: "A feature does not read another feature's repository: call that feature's service.",
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', '**/coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // The rules of hooks, and the React Compiler-era checks, for the web app.
    files: ['apps/web/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat['recommended-latest'],
  },
  {
    // Every pattern must run in linear time: one request with a crafted string must never hold
    // the event loop (a backtracking e-mail pattern once froze the server for tens of seconds).
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts', 'tools/*/src/**/*.ts'],
    plugins: { regexp },
    rules: {
      'regexp/no-super-linear-backtracking': ['error', { report: 'potential' }],
      'regexp/no-super-linear-move': ['error', { report: 'potential', ignorePartial: false }],
    },
  },
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  // ---- apps/web (src and e2e): its own blocks, kept together ------------------------------------
  ...webFeatureBoundaryBlocks(),
  {
    // The shared layers and the test support serve every feature, so they import none (nor app/).
    files: ['apps/web/src/{components,lib,config,test}/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(features|app)(/|$)',
              message:
                'components/ui, lib, config and the test support know nothing of features or app/.',
            },
          ],
        },
      ],
    },
  },
  {
    // Type-aware rules: a promise nobody awaits or catches, or one handed where nothing awaits it
    // (an async onClick), fails silently; `any` switches the type checker off.
    files: ['apps/web/src/**/*.{ts,tsx}', 'apps/web/e2e/**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  // ---- apps/api and packages/shared: their own blocks ---------------------------------------------
  {
    // Type-aware rules, as for the web app. Migrations take Kysely<any> by design (they are frozen
    // in time and must not depend on today's table types), and AnyEndpoint lists endpoints of
    // every input type: those lines say so where they use it.
    files: ['apps/api/src/**/*.ts', 'apps/api/test/**/*.ts', 'packages/shared/src/**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // Migrations are frozen in time: they take Kysely<any>, never today's table types (Kysely's
    // migration guide), so a later change to tables.ts cannot change what an old migration does.
    files: ['apps/api/src/db/migrations/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // A feature uses another feature through its service (or a module meant to be shared, such
    // as images/links.ts), never through the other's repository.
    files: ['apps/api/src/*/*.ts'],
    // The command-line tools are no feature: they compose what they need (seed data in bulk).
    ignores: ['apps/api/src/cli/**'],
    rules: { 'no-restricted-imports': ['error', { patterns: [apiOtherFeatureRepository] }] },
  },
  {
    // An endpoint declaration reaches data only through its feature's service: it never imports a
    // repository (its own or another feature's). After the block above, which it would otherwise
    // replace (a later block's options win): so it lists that block's pattern too.
    files: ['apps/api/src/*/endpoints.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            apiOtherFeatureRepository,
            {
              regex: '(^|/)repository\\.js$',
              message: 'Endpoints call services; only a service reads its repository.',
            },
          ],
        },
      ],
    },
  },
);
