// @ts-check
import path from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** The feature a file belongs to, as `apps/<app>/src/features/<feature>`, or null. */
function featureOf(file) {
  const match = /apps\/(server|web)\/src\/features\/([^/]+)/.exec(file.split(path.sep).join('/'));
  return match ? `${match[1]}:${match[2]}` : null;
}

/** Features never import each other's files; they share through services, lib, ui or packages/shared. */
const featureBoundaries = {
  meta: {
    type: 'problem',
    messages: { crossFeature: 'Feature {{from}} must not import from feature {{to}}.' },
  },
  create(context) {
    const own = featureOf(context.filename);
    if (!own) return {};
    const check = (node) => {
      const source = node.source?.value;
      if (typeof source !== 'string') return;
      let target = null;
      if (source.startsWith('.')) target = featureOf(path.resolve(path.dirname(context.filename), source));
      else if (source.startsWith('@/features/')) target = `${own.split(':')[0]}:${source.split('/')[2]}`;
      const allowedService = /\/service$/.test(source) && own.startsWith('server:');
      if (target && target !== own && !allowedService) {
        context.report({ node, messageId: 'crossFeature', data: { from: own, to: target } });
      }
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check };
  },
};

export default tseslint.config(
  {
    ignores: [
      '**/node_modules',
      '**/dist',
      'data',
      'coverage',
      'test-results',
      'playwright-report',
      'bench/results',
      // Generated from the OpenAPI document (npm run api:types); a test keeps it current.
      'apps/server/src/test/api-schema.gen.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          allowDefaultProject: [
            '*.js',
            '*.mjs',
            'scripts/*.mjs',
            'bench/*.mjs',
            '.ci/*.mjs',
            'apps/server/build.mjs',
            'vitest.config.ts',
            'playwright.config.ts',
          ],
        },
        tsconfigRootDir: import.meta.dirname,
      },
      globals: { ...globals.node },
    },
    plugins: { local: { rules: { 'feature-boundaries': featureBoundaries } } },
    rules: {
      'local/feature-boundaries': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      // Handlers often satisfy an async signature without awaiting; that is not a bug.
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/consistent-type-definitions': ['error', 'type'],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
);
