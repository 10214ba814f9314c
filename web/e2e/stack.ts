/**
 * Where the suite's stack listens: four consecutive private ports from LAKEWARD_E2E_PORT_BASE, or LAKEWARD_E2E_URL.
 * The global setup sets the base to the first free block at or above 18680 (a stray server on a port would
 * otherwise be used by the new stack), and the test workers read it from the environment it leaves.
 */
export const DEFAULT_PORT_BASE = 18680;

export const portsOf = (base: number) => ({
  apiPort: base,
  temporalPort: base + 1,
  temporalUiPort: base + 2,
  webPort: base + 3,
  webUrl: process.env.LAKEWARD_E2E_URL ?? `http://127.0.0.1:${base + 3}`,
});

export const E2E = {
  ...portsOf(Number(process.env.LAKEWARD_E2E_PORT_BASE ?? DEFAULT_PORT_BASE)),
  /** The stack runs with this API key; tests that are not about the key put it in sessionStorage first. */
  apiKey: process.env.LAKEWARD_E2E_API_KEY ?? 'e2e-console-key',
  /** A second key of the stack, named e2e-viewer, with the viewer role (e2e/roles.spec.ts). */
  viewerKey: process.env.LAKEWARD_E2E_VIEWER_KEY ?? 'e2e-viewer-key',
};
