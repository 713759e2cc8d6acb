// One linter for every workspace (npm run lint). Formatting is Prettier's (npm run format).
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import astro from 'eslint-plugin-astro';
import reactHooks from 'eslint-plugin-react-hooks';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const WORKSPACES = ['admin-api', 'admin-ui', 'site', 'infra', 'contract'];

export default tseslint.config(
  { ignores: ['**/node_modules/', '**/dist/', '**/dist-*/', '**/.astro/', 'var/', '**/fixtures/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...astro.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { 'simple-import-sort': simpleImportSort, 'react-hooks': reactHooks },
    rules: {
      'simple-import-sort/imports': 'error',
      'simple-import-sort/exports': 'error',
      // Another workspace is imported by its package name (@portfolio/contract …), never by a path into its folder.
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./)+(${WORKSPACES.join('|')})/`,
              message: 'Import another workspace by its package name (e.g. @portfolio/contract/kinds), not by a path.',
            },
          ],
        },
      ],
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'max-lines-per-function': ['warn', { max: 80, skipBlankLines: true, skipComments: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_|IsContract$', caughtErrors: 'none' },
      ],
    },
  },
  // A page's `paths` export lists the addresses it renders (see site/render).
  { files: ['site/src/pages/**/*.astro'], rules: { 'astro/no-exports-from-components': 'off' } },
  // Inline scripts of .astro files ship as written (the head script's hash is in the CSP).
  { files: ['**/*.astro/*.js', '**/*.astro/*.ts'], rules: { 'no-var': 'off', 'prefer-const': 'off', 'no-empty': 'off' } },
  prettier,
);
