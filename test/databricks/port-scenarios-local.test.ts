import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LocalWorkspace } from '../../platform/local/workspace';
import { scenarios, type Namespace } from './port-scenarios';

/**
 * The conformance scenarios against the embedded local lakehouse, the reference adapter. This keeps the
 * scenarios honest: they pass on a real implementation here, so a live Databricks failure is an adapter gap.
 */
describe('conformance scenarios on the local lakehouse', () => {
  const root = mkdtempSync(join(tmpdir(), 'lakeward-conf-local-'));
  const ws = new LocalWorkspace({ root, user: 'alice' });
  const ns: Namespace = { catalog: 'main', schema: 'conf' };
  beforeAll(async () => {
    await ws.createCatalog({ name: ns.catalog });
    await ws.createSchema({ catalog: ns.catalog, name: ns.schema });
  });
  afterAll(async () => {
    await ws.close();
    rmSync(root, { recursive: true, force: true });
  });

  it.each(scenarios.map((s) => [s.name, s] as const))('%s', async (_name, s) => {
    await s.run(ws, ns);
  });
});
