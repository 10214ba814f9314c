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

/** An import path that reaches a top-level folder of ours (relative, any depth). */
const ours = (folders) => `^(\\./)?(\\.\\./)+(${folders})(/|$)`;
const rule = (regex, message, allowTypeImports = false) => ({ regex, message, allowTypeImports });

const NO_WORKERS = rule(ours('workers'), 'Only entry points import workers/ (import-table).');
const NO_API = rule(ours('api'), 'Only workers/ and tests import api/ (import-table).');
const NO_CLI = rule(ours('cli'), 'Nothing imports cli/ (import-table).');
const ACTIVITIES_BUT_LOGIC = '(^|/)activities/(?![^/]+/logic(/|$))';
const IO_BUILTINS = [
  'fs',
  'fs/promises',
  'net',
  'child_process',
  'http',
  'https',
  'http2',
  'dgram',
  'tls',
  'worker_threads',
];

/** Folder → restricted imports, as the import table in README / ARCHITECTURE says. */
const LAYERS = {
  'schemas/**/*.ts': [
    rule(ours('activities|api|cli|config|platform|store|workers|workflows'), 'schemas/ imports nothing of ours.'),
  ],
  'store/**/*.ts': [
    rule(
      ours('activities|api|cli|config|platform|workers|workflows'),
      'store/ may import schemas/ only (import-table).',
    ),
  ],
  'platform/**/*.ts': [
    rule(
      ours('activities|api|cli|config|store|workers|workflows'),
      'platform/ may import schemas/ only (import-table).',
    ),
  ],
  'workflows/**/*.ts': [
    rule(ACTIVITIES_BUT_LOGIC, 'Workflows import activity TYPES only (import type), or activities/*/logic/.', true),
    rule(
      ours('api|cli|config|platform|store'),
      'Workflows may import schemas/, activities/*/logic/ and activity types.',
    ),
    NO_WORKERS,
  ],
  'activities/**/*.ts': [
    NO_API,
    NO_CLI,
    NO_WORKERS,
    rule(ours('workflows'), 'Activities import payload TYPES from workflows/ only (import type).', true),
  ],
  'activities/*/logic/**/*.ts': [
    rule(ours('store|platform/local|platform/databricks'), 'logic/ has no I/O: no store/ or platform adapters.', true),
    rule('^@temporalio/activity$', 'logic/ has no I/O: no @temporalio/activity.'),
    rule(`^(node:)?(${IO_BUILTINS.join('|')})$`, 'logic/ has no I/O: no file, network or process modules.'),
  ],
  'api/**/*.ts': [
    rule(ACTIVITIES_BUT_LOGIC, 'The API may import activities/*/logic/ only (import-table).', true),
    rule(
      '(^|/)workflows/(?!(.*/)?([a-z-]*definitions|signals|search-attributes|task-queues)$)',
      'The API imports only definitions-style workflow modules (names, signals, queries, payload types).',
      true,
    ),
    NO_CLI,
    NO_WORKERS,
  ],
  'cli/**/*.ts': [
    rule(ours('activities|store|api'), 'The CLI talks to the HTTP API or the embedded stack (import-table).'),
    rule(ours('workflows'), 'The CLI imports workflow TYPES only.', true),
    NO_WORKERS, // `dev`/`quickstart` load the embedded stack with a dynamic import()
  ],
};

const WORKFLOW_BUILTINS = nodeBuiltins.flatMap((m) => [m, `node:${m}`]);

function layerRules() {
  const blocks = [];
  for (const [glob, patterns] of Object.entries(LAYERS)) {
    const inherited = glob === 'activities/*/logic/**/*.ts' ? LAYERS['activities/**/*.ts'] : [];
    const paths =
      glob === 'workflows/**/*.ts'
        ? WORKFLOW_BUILTINS.map((name) => ({ name, message: 'Workflows are deterministic: no Node built-ins.' }))
        : [];
    const nodePattern =
      glob === 'workflows/**/*.ts' ? [rule('^node:', 'Workflows are deterministic: no Node built-ins.')] : [];
    blocks.push({
      files: [glob],
      rules: {
        '@typescript-eslint/no-restricted-imports': [
          'error',
          { paths, patterns: [...inherited, ...patterns, ...nodePattern] },
        ],
      },
    });
  }
  return blocks;
}

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
      'web/', // the console has its own lint (web/eslint.config.js, run by npm run lint)
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
  // The import table (README "How it is built"): which layer may import which. One rule per folder; a file in
  // several folders (activities/*/logic/) gets the union of their restrictions, since a later block replaces it.
  ...layerRules(),
  {
    // Workflow code must be deterministic: no clock, no randomness.
    files: ['workflows/**/*.ts'],
    rules: {
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
