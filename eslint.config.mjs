// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

const nodeBuiltins = [
  'assert',
  'buffer',
  'child_process',
  'cluster',
  'crypto',
  'dgram',
  'dns',
  'events',
  'fs',
  'fs/promises',
  'http',
  'http2',
  'https',
  'net',
  'os',
  'path',
  'perf_hooks',
  'process',
  'readline',
  'stream',
  'timers',
  'tls',
  'url',
  'util',
  'v8',
  'vm',
  'worker_threads',
  'zlib',
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'dist/',
      '.lakeward/',
      '.tools/',
      '.venv/',
      'store/migrations/',
      'coverage/',
      '**/*.js',
      '**/*.mjs',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      globals: globals.node,
      parserOptions: {
        projectService: { allowDefaultProject: ['drizzle.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    // Workflow code must be deterministic: no Node built-ins, no clock, no randomness.
    files: ['workflows/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: nodeBuiltins.flatMap((m) => [m, `node:${m}`]), patterns: ['node:*'] },
      ],
      'no-restricted-properties': [
        'error',
        {
          object: 'Date',
          property: 'now',
          message: 'Use workflow time (Date.now is replaced deterministically, but be explicit).',
        },
        { object: 'Math', property: 'random', message: 'Use uuid4() or deterministic logic in workflows.' },
      ],
    },
  },
  {
    // The CLI and scripts print to the terminal by design.
    files: ['cli/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts', 'workers/dev-stack.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-non-null-assertion': 'off',
      // Tests inspect raw JSON (Delta log actions, API bodies) where `any` is the honest type.
      '@typescript-eslint/no-explicit-any': 'off',
      'no-console': 'off',
    },
  },
);
