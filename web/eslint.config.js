// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** The console's lint: accessibility rules, hooks rules, no direct fetch( and no imports of the server folders. */
export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'e2e/artifacts/', 'src/api/schema.d.ts', 'test-results/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  jsxA11y.flatConfigs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'jsx-a11y/no-autofocus': ['error', { ignoreNonDOM: true }],
      // Scrollable text (run log, result, plan) must be reachable by keyboard (axe: scrollable-region-focusable).
      'jsx-a11y/no-noninteractive-tabindex': ['error', { tags: ['pre'], roles: ['region'] }],
      'no-restricted-globals': [
        'error',
        { name: 'fetch', message: 'Call the API through src/api/client.ts (openapi-fetch), never fetch( directly.' },
      ],
      'no-restricted-properties': [
        'error',
        { object: 'window', property: 'fetch', message: 'Call the API through src/api/client.ts.' },
        { object: 'globalThis', property: 'fetch', message: 'Call the API through src/api/client.ts.' },
      ],
    },
  },
  // No import leaves web/ (the server folders are reached over HTTP): at depth d under web/, d+1 "../" escape it.
  ...[1, 2, 3, 4].map((depth) => ({
    files: [`${Array(depth).fill('*').join('/')}.{ts,tsx}`],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(\\.\\./){${depth},}`,
              message: 'web/ imports nothing outside web/: talk to the server over HTTP.',
            },
          ],
        },
      ],
    },
  })),
  {
    // The one module that talks HTTP: the typed client (and /config.json, which is not an API operation).
    files: ['src/api/client.ts'],
    rules: { 'no-restricted-globals': 'off' },
  },
  {
    // The tests and build configuration run in Node (the e2e setup polls the stack's health with fetch).
    files: ['e2e/**/*.ts', 'vite.config.ts', 'playwright.config.ts'],
    languageOptions: { globals: globals.node },
    rules: {
      'no-restricted-globals': 'off',
      'react-hooks/rules-of-hooks': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
);
