/** Where the suite's stack listens: private ports from LAKEWARD_E2E_PORT_BASE (default 18680), or LAKEWARD_E2E_URL. */
const base = Number(process.env.LAKEWARD_E2E_PORT_BASE ?? 18680);

export const E2E = {
  apiPort: base,
  temporalPort: base + 1,
  temporalUiPort: base + 2,
  webPort: base + 3,
  webUrl: process.env.LAKEWARD_E2E_URL ?? `http://127.0.0.1:${base + 3}`,
  /** The stack runs with this API key; tests that are not about the key put it in sessionStorage first. */
  apiKey: process.env.LAKEWARD_E2E_API_KEY ?? 'e2e-console-key',
};
