import { randomBytes } from 'node:crypto';
import { createDatabricksWorkspace, type DatabricksWorkspace } from '../../platform/databricks';
import { scenarios, type Namespace } from './port-scenarios';

/**
 * The port scenarios against a live Databricks workspace. Runs only when DATABRICKS_HOST,
 * DATABRICKS_TOKEN and DATABRICKS_WAREHOUSE_ID are set; otherwise every scenario is reported as skipped.
 * Objects go into a fresh schema (in DATABRICKS_CONFORMANCE_CATALOG, default `main`) dropped afterwards.
 */
const env = process.env;
const live = Boolean(env.DATABRICKS_HOST && env.DATABRICKS_TOKEN && env.DATABRICKS_WAREHOUSE_ID);

(live ? describe : describe.skip)(
  'live workspace (needs DATABRICKS_HOST, DATABRICKS_TOKEN, DATABRICKS_WAREHOUSE_ID)',
  () => {
    jest.setTimeout(300_000);
    let ws: DatabricksWorkspace;
    const ns: Namespace = {
      catalog: env.DATABRICKS_CONFORMANCE_CATALOG || 'main',
      schema: `lakeward_conf_${randomBytes(4).toString('hex')}`,
    };

    beforeAll(async () => {
      ws = await createDatabricksWorkspace({
        host: env.DATABRICKS_HOST,
        warehouseId: env.DATABRICKS_WAREHOUSE_ID,
        auth: { type: 'pat', token: env.DATABRICKS_TOKEN as string },
      });
      await ws.createSchema({
        catalog: ns.catalog,
        name: ns.schema,
        comment: 'Lakeward conformance run; safe to drop',
      });
    });
    afterAll(async () => {
      await ws?.dropSchema(ns.catalog, ns.schema, { cascade: true, ifExists: true });
      await ws?.close();
    });

    it.each(scenarios.map((s) => [s.name, s] as const))('%s', async (_name, s) => {
      await s.run(ws, ns);
    });
  },
);
