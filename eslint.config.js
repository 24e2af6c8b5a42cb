import fs from 'node:fs';

import tsParser from '@typescript-eslint/parser';
import importPlugin from 'eslint-plugin-import';

const web = './apps/web/src';
/** The web app's features: each a folder under features/, with a public index.ts for the others. */
const features = fs
  .readdirSync(new URL(`${web}/features`, import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/**
 * ESLint keeps the one rule oxlint lacks (.oxlintrc.json has the others, decision 038): in the web
 * app, features keep to their own folders. They use components/, lib/, config/,
 * @carmarket/shared and other features' public index.ts only (decision 007); the app/ layer
 * composes pages and may import any feature's parts. Only the web app's sources are read, with
 * TypeScript's parser and no type information.
 */
export default [
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { parser: tsParser },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    plugins: { import: importPlugin },
    settings: {
      // Relative imports only (no path aliases), so Node's resolution with TypeScript's
      // extensions finds every file; @carmarket/shared is a package and not followed.
      'import/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import/resolver': { node: { extensions: ['.ts', '.tsx', '.js', '.mjs'] } },
      'import/ignore': ['node_modules'],
    },
    rules: {
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
];
