/**
 * Records the workflow histories that test/replay/replay.test.ts replays against the current workflow code.
 *
 *   npm run test:record-histories        (= npx tsx test/replay/record.ts)
 *
 * It starts its own Temporal dev server (the `temporal` binary found by scripts/setup.sh), a PGlite store, a
 * temp local lakehouse seeded with a small two-schema catalog and a worker with the real wiring, then drives
 * the real API: POST /api/clone (a DEEP clone through the job queue workflow, with its cloneSchemaWorkflow
 * children), POST /api/rollback of that job, and a one-schema clone (that schema runs inside the job's own
 * workflow). Every workflow of those jobs has its history written to test/replay/histories/<name>.json (old
 * files there are removed first).
 *
 * Re-record after an intended, versioned change to a workflow (or when the job queue's workflow type changes)
 * and commit the new files: the replay test then holds the new code to the new histories. Before that, move the
 * previous files to test/replay/histories/archive/ (prefixed with the date): jobs started by the previous code
 * may still be running after a deploy, so the new code must keep replaying those too. Never re-record to
 * silence a replay failure from an unversioned change: that failure is the bug (use `patched()`).
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { temporal } from '@temporalio/proto';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import * as prettier from 'prettier';
import request from 'supertest';
import { createApp } from '../../api/app';
import { getJob } from '../../store/jobs/jobs';
import { executableSpec } from '../../workers/temporal-binary';
import { SEARCH_ATTRIBUTES } from '../../workflows/jobs/search-attributes';
import { testAppDeps } from '../api/deps';
import { seedMiniCatalog } from '../clone/fixtures/mini-catalog';
import { createHarness, eventually } from '../helpers/harness';

const OUT = path.join(__dirname, 'histories');

async function main(): Promise<void> {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const server = await TestWorkflowEnvironment.createLocal({
    server: {
      executable: executableSpec('temporal'),
      searchAttributes: SEARCH_ATTRIBUTES,
      extraArgs: ['--dynamic-config-value', 'limit.maxIDLength=1000'],
    },
  });
  process.env.TEMPORAL_TEST_ADDRESS = server.connection.options.address;
  delete process.env.DATABASE_URL; // the recorder needs no Postgres
  const h = await createHarness('record');
  try {
    const root = h.newRoot();
    await seedMiniCatalog(h.open(root), 'prod');
    const deps = testAppDeps({
      store: h.store,
      temporal: { client: h.env.client, connection: h.env.connection, address: server.connection.options.address },
      env: { LAKEWARD_TASK_QUEUE: h.taskQueue, LAKEWARD_WORKSPACE_ROOT: root, LAKEWARD_DATA_DIR: h.config.data_dir },
    });
    const app = createApp(deps);
    const histories = await h.withWorker(async () => {
      const cloneBody = {
        source_catalog: 'prod',
        destination_catalog: 'dev',
        clone_type: 'DEEP',
        enable_rollback: true,
      };
      const jobId = (await request(app).post('/api/clone').send(cloneBody).expect(200)).body.job_id as string;
      const summary = await h.env.client.workflow.getHandle(jobId).result();
      if ((summary as { status?: string }).status !== 'completed')
        throw new Error(`the clone did not complete: ${JSON.stringify(summary)}`);
      await eventually(async () => (await getJob(h.store.db, jobId))?.completedAt, { what: `job ${jobId}'s end` });

      const rb = await request(app).post('/api/rollback').send({ job_id: jobId, wait: true });
      if (rb.status !== 200) throw new Error(`rollback answered ${rb.status}: ${JSON.stringify(rb.body)}`);

      const out = await collect(h.env.client, jobId);
      const one = {
        source_catalog: 'prod',
        destination_catalog: 'dev_one',
        clone_type: 'DEEP',
        include_schemas: ['sales'],
      };
      const oneId = (await request(app).post('/api/clone').send(one).expect(200)).body.job_id as string;
      const oneSummary = await h.env.client.workflow.getHandle(oneId).result();
      if ((oneSummary as { status?: string }).status !== 'completed')
        throw new Error(`the one-schema clone did not complete: ${JSON.stringify(oneSummary)}`);
      await eventually(async () => (await getJob(h.store.db, oneId))?.completedAt, { what: `job ${oneId}'s end` });
      const handle = h.env.client.workflow.getHandle(oneId);
      const [description, history] = await Promise.all([handle.describe(), handle.fetchHistory()]);
      if (childIds(history).length) throw new Error(`the one-schema clone ${oneId} started a schema workflow`);
      out['clone-catalog-one-schema'] = { workflowId: oneId, workflowType: description.type, history: toJSON(history) };
      return out;
    });
    await deps.workspaces.close();
    mkdirSync(OUT, { recursive: true });
    for (const f of readdirSync(OUT)) if (f.endsWith('.json')) rmSync(path.join(OUT, f));
    for (const [name, recorded] of Object.entries(histories)) {
      const file = path.join(OUT, `${name}.json`);
      const options = { ...(await prettier.resolveConfig(file)), filepath: file }; // as `npm run lint` checks it
      writeFileSync(file, await prettier.format(JSON.stringify(recorded), options));
    }
    console.log(`recorded ${Object.keys(histories).length} histories in ${path.relative(process.cwd(), OUT)}`);
  } finally {
    await h.teardown();
    await server.teardown();
  }
}

type Client = Awaited<ReturnType<typeof createHarness>>['env']['client'];
type History = temporal.api.history.v1.IHistory;
interface Recorded {
  workflowId: string;
  workflowType: string;
  history: unknown;
}

/** The clone job's workflow, its children, the queue that started it and the rollback workflow(s) of the job. */
async function collect(client: Client, jobId: string): Promise<Record<string, Recorded>> {
  const out: Record<string, Recorded> = {};
  const add = async (name: string, workflowId: string) => {
    const handle = client.workflow.getHandle(workflowId);
    const [description, history] = await Promise.all([handle.describe(), handle.fetchHistory()]);
    out[name] = { workflowId, workflowType: description.type, history: toJSON(history) };
    return { description, history };
  };
  const clone = await add('clone-catalog', jobId);
  const children = childIds(clone.history);
  for (const [i, id] of children.entries()) await add(`clone-schema-${i + 1}`, id);

  const parent = clone.description.raw.workflowExecutionInfo?.parentExecution?.workflowId;
  if (!parent) throw new Error(`clone job ${jobId} was not started by a job queue workflow`);
  await add('job-queue', parent);

  let rollbacks = 0;
  for await (const wf of client.workflow.list({ query: `WorkflowType = 'rollbackWorkflow'` })) {
    await add(rollbacks++ ? `rollback-${rollbacks}` : 'rollback', wf.workflowId);
  }
  if (!rollbacks) throw new Error('no rollback workflow ran');
  return out;
}

function childIds(history: History): string[] {
  return (history.events ?? [])
    .map((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId)
    .filter((id): id is string => Boolean(id));
}

/** The history as the CLI and Web UI export it (what Worker.runReplayHistory accepts as JSON). */
const toJSON = (history: History): unknown => temporal.api.history.v1.History.fromObject(history).toJSON();

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
