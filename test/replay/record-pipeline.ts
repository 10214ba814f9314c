/**
 * Records the pipeline histories that test/replay/pipeline-replay.test.ts replays against the current workflow
 * code.
 *
 *   npx tsx test/replay/record-pipeline.ts                       → test/replay/histories/pipeline/<name>.json
 *   npx tsx test/replay/record-pipeline.ts --previous <index.ts> <label>
 *                                   → test/replay/histories/pipeline/archive/<label>-<name>.json
 *
 * It starts its own Temporal dev server, the automation stack (PGlite store, local lakehouse with the mini catalog
 * `prod`, a worker with the real wiring) and runs, through the API, one pipeline with a step of every kind that
 * rollback handles — a clone (enable_rollback), a sync, a writing custom_sql, an optimize, a notify — then a failing
 * step with on_failure rollback. The run's workflow history is written as the CLI exports it.
 *
 * `--previous` runs the worker on another workflows index (a file exporting the earlier workflow code, e.g.
 * `export * from '../../workflows'; export { pipelineWorkflow } from './<earlier copy>'`): the history of a run
 * begun before a change, which the current code must keep replaying (with `patched()`). Re-record the current
 * histories only after an intended, versioned change, archiving the previous files first (see record.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, DefaultLogger, Runtime } from '@temporalio/worker';
import * as prettier from 'prettier';
import { executableSpec } from '../../workers/temporal-binary';
import { SEARCH_ATTRIBUTES } from '../../workflows/jobs/search-attributes';
import { automationStack } from '../automation/stack';
import { eventually } from '../helpers/harness';

const OUT = path.join(__dirname, 'histories', 'pipeline');
const quiet = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };

/** A pipeline with every undoable step kind and a failing last step with on_failure rollback. */
export const RECORDED_PIPELINE = {
  name: 'undo-kinds',
  steps: [
    {
      type: 'clone',
      name: 'copy',
      config: { source_catalog: 'prod', destination_catalog: 'prod_cl', clone_type: 'DEEP', enable_rollback: true },
    },
    {
      type: 'sync',
      name: 'sync',
      config: { source_catalog: 'prod', destination_catalog: 'prod_sy', schema_name: 'sales' },
    },
    {
      type: 'custom_sql',
      name: 'add',
      config: {
        sql: 'INSERT INTO prod.sales.orders SELECT id + 1000, region, amount FROM prod.sales.orders',
        allow_write: true,
      },
    },
    { type: 'optimize', name: 'compact', config: { table_fqn: 'prod.sales.orders' } },
    { type: 'notify', name: 'tell', config: { message: 'written' } },
    { type: 'custom_sql', name: 'bad', config: { sql: 'SELECT * FROM prod.sales.nope' }, on_failure: 'rollback' },
  ],
};

async function main(): Promise<void> {
  const [flag, index, label] = process.argv.slice(2);
  const previous = flag === '--previous';
  if (previous && (!index || !label)) throw new Error('usage: --previous <workflows index> <label>');
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const server = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: executableSpec('temporal'),
      searchAttributes: SEARCH_ATTRIBUTES,
      extraArgs: ['--dynamic-config-value', 'limit.maxIDLength=1000'],
    },
  });
  process.env.TEMPORAL_TEST_ADDRESS = server.connection.options.address;
  delete process.env.DATABASE_URL; // PGlite
  const bundle = previous ? await bundleWorkflowCode({ workflowsPath: path.resolve(index), logger: quiet }) : undefined;
  const s = await automationStack('record-pipeline', undefined, { workflowBundle: bundle });
  try {
    const p = await s.api().post('/api/pipeline/pipelines').send(RECORDED_PIPELINE).expect(201);
    const runId = (await s.api().post(`/api/pipeline/pipelines/${p.body.pipeline_id}/run`).expect(202)).body
      .run_id as string;
    const run = await eventually(
      async () => {
        const body = (await s.api().get(`/api/pipeline/runs/${runId}`).expect(200)).body;
        return ['completed', 'failed', 'cancelled'].includes(body.status) ? body : null;
      },
      { what: `pipeline run ${runId} ended`, timeoutMs: 180_000 },
    );
    console.log(JSON.stringify(run.steps.map((x: { name: string; status: string }) => [x.name, x.status])));
    const handle = s.h.env.client.workflow.getHandle(runId);
    const [description, history] = await Promise.all([handle.describe(), handle.fetchHistory()]);
    const recorded = {
      workflowId: runId,
      workflowType: description.type,
      history: temporal.api.history.v1.History.fromObject(history).toJSON(),
    };
    const dir = previous ? path.join(OUT, 'archive') : OUT;
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${previous ? `${label}-` : ''}pipeline-undo-kinds.json`);
    const options = { ...(await prettier.resolveConfig(file)), filepath: file };
    writeFileSync(file, await prettier.format(JSON.stringify(recorded), options));
    console.log(`recorded ${path.relative(process.cwd(), file)}`);
  } finally {
    await s.stop();
    await server.teardown();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
