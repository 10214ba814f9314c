/** Jest runs TypeScript through SWC (fast, no type-check; `npm test` type-checks with tsc first). */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: {
    '^.+\\.(t|j)sx?$': ['@swc/jest', { jsc: { target: 'es2022' } }],
    // PGlite's CommonJS build loads Node built-ins with dynamic import(), which jest's VM cannot run without
    // --experimental-vm-modules; compiling it to require() lets store tests use PGlite in any jest mode.
    '@electric-sql/pglite/dist/.+\\.cjs$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
    // pptxgenjs loads node:fs with import() the same way (the documents generator's PPTX).
    'pptxgenjs/dist/.+\\.cjs\\.js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(@electric-sql/pglite|pptxgenjs)/)'],
  setupFiles: ['<rootDir>/test/setup/quiet-runtime.ts'],
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  testTimeout: 60_000,
  maxWorkers: 2,
  // A worker that has loaded many files' modules (PDF, Office, chart and model clients among them) is replaced once
  // it holds more than this after a file, instead of growing until V8's heap limit crashes it mid-suite.
  workerIdleMemoryLimit: '1.5GB',
  // Each file gets its own task queue and temp dirs; slow integration files are fine in parallel on 2 cores.
  verbose: false,
};
