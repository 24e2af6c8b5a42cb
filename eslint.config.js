import fs from 'node:fs';

import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const web = './apps/web/src';
/** The web app's features: each a folder under features/, with a public index.ts for the others. */
const features = fs
  .readdirSync(new URL(`${web}/features`, import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/dist-ssr/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      'bench-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      eqeqeq: ['error', 'smart'],
      'no-console': 'off',
    },
  },
  {
    // Type-aware rules, for the TypeScript that a tsconfig compiles.
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts', 'apps/web/e2e/**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
    },
  },
  {
    // No import cycles anywhere, and in the web app, features keep to their own folders: they use
    // components/, lib/, config/, @carmarket/shared and other features' public index.ts only
    // (decision 007). The app/ layer composes pages and may import any feature's parts.
    files: ['apps/*/src/**/*.{ts,tsx}', 'packages/*/src/**/*.ts'],
    plugins: { import: importPlugin },
    settings: {
      // Relative imports only (no path aliases), so Node's resolution with TypeScript's
      // extensions finds every file; @carmarket/shared is a package and not followed.
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
      // Packages are not read: cycles are looked for in our own files.
      'import/ignore': ['node_modules'],
    },
    rules: {
      'import/no-cycle': ['error', { ignoreExternal: true }],
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            ...features.map((feature) => ({
              target: `${web}/features/${feature}`,
              from: `${web}/features`,
              except: [
                `./${feature}`,
                ...features
                  .filter((other) => other !== feature)
                  .map((other) => `./${other}/index.ts`),
              ],
              message: `Import another feature through its index.ts (its public API), not its files.`,
            })),
            {
              target: [`${web}/features`, `${web}/components`, `${web}/lib`, `${web}/config`],
              from: `${web}/app`,
              message: 'Only the app layer imports from app/.',
            },
            {
              target: [`${web}/components`, `${web}/lib`, `${web}/config`],
              from: `${web}/features`,
              message: 'Shared code does not depend on features.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'react-router',
              importNames: ['useSearchParams'],
              message:
                "Use lib/use-query-params.ts: React Router's own pulls ~0.3 KB into the bundle every page loads, over the home page's budget.",
            },
          ],
        },
      ],
    },
  },
);
