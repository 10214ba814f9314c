import { defineConfig } from '@playwright/test';
import { E2E } from './e2e/stack';

/**
 * End-to-end tests of the console against one real embedded stack (Temporal dev server, worker, API, the
 * console served by `lakeward dev`) on private ports, demo catalog seeded (e2e/global-setup.ts). The browser is
 * Debian's chromium (LAKEWARD_CHROMIUM, default /usr/bin/chromium): Playwright never downloads one here.
 */
export default defineConfig({
  testDir: 'e2e',
  globalSetup: './e2e/global-setup.ts',
  workers: 1,
  timeout: 90_000,
  expect: { timeout: 20_000 },
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: E2E.webUrl,
    trace: 'off',
    launchOptions: {
      executablePath: process.env.LAKEWARD_CHROMIUM ?? '/usr/bin/chromium',
      args: ['--disable-background-networking'],
    },
  },
});
