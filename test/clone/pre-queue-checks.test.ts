import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import request from 'supertest';
import { createApp } from '../../api/app';
import type { AppDeps } from '../../api/deps';
import { buildCloneJob } from '../../api/clone/build-input';
import { openWorkspace } from '../../platform';
import { cloneRequestSchema } from '../../schemas/clone';
import type { Store } from '../../store/db';
import { listJobs } from '../../store/jobs/jobs';
import { listTargets } from '../../store/targets/repo';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';
import { connectTestEnv, uniqueTaskQueue } from '../helpers/temporal';

/** A clone the workspaces cannot carry out is refused before a job row, a saved target or a queue entry exists. */

let env: TestWorkflowEnvironment;
let store: Store;
let dataDir: string;
let deps: AppDeps;
beforeAll(async () => {
  [env, store] = await Promise.all([connectTestEnv(), createTestStore()]);
  dataDir = mkdtempSync(path.join(tmpdir(), 'lakeward-prequeue-'));
  deps = testAppDeps({
    store,
    temporal: { client: env.client, connection: env.connection, address: env.connection.options.address },
    env: { LAKEWARD_TASK_QUEUE: uniqueTaskQueue('prequeue') },
    flags: { dataDir },
    open: (spec) => openWorkspace(spec as never),
  });
  await (await deps.workspaces.default()).createCatalog({ name: 'sales' });
});
afterAll(async () => {
  await Promise.all([store?.close(), env?.teardown()]);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const jobs = async () => listJobs(store.db, { jobType: 'clone', limit: 1000 });

async function refused(body: Record<string, unknown>, status: number, code: string) {
  const before = (await jobs()).length;
  const res = await request(createApp(deps)).post('/api/clone').send(body);
  expect(res.status).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect((await jobs()).length).toBe(before);
  return res.body.error.details as { path: string; message: string }[];
}

test('a clone of a catalog the source workspace does not have: 404 naming body.source_catalog, no job', async () => {
  const details = await refused({ source_catalog: 'no_such', destination_catalog: 'x' }, 404, 'NOT_FOUND');
  expect(details).toEqual([{ path: 'body.source_catalog', message: expect.stringContaining('no_such') }]);
});

test.each(['sales dev', '-sales', 'ventes_été', 'sales.dev'])(
  'a destination %j the local lakehouse cannot hold: 422 naming body.destination_catalog, no job',
  async (destination) => {
    const details = await refused(
      { source_catalog: 'sales', destination_catalog: destination },
      422,
      'VALIDATION_ERROR',
    );
    expect(details).toEqual([{ path: 'body.destination_catalog', message: expect.stringMatching(/letters, digits/) }]);
  },
);

test('inline target credentials are not saved when the request is refused', async () => {
  await refused(
    {
      source_catalog: 'no_such',
      destination_catalog: 'x',
      target_workspace: { host: 'https://example.cloud.databricks.com', warehouse_id: 'wh1', token: 'dapi-secret' },
    },
    404,
    'NOT_FOUND',
  );
  expect(await listTargets(store.db)).toEqual([]);
});

test('an unknown saved target is named as the field the request used', async () => {
  const details = await refused(
    { source_catalog: 'sales', destination_catalog: 'x', target_workspace: { name: 'nowhere' } },
    400,
    'VALIDATION_ERROR',
  );
  expect(details.map((d) => d.path)).toEqual(['body.target_workspace.name']);
});

test('a request the workspaces can carry out passes the checks', async () => {
  const input = cloneRequestSchema.parse({ source_catalog: 'SALES', destination_catalog: 'sales_dev' });
  const built = await buildCloneJob(deps, input, 'clone-prequeue-ok', new Date());
  expect(built.input.targets.map((t) => t.destinationCatalog)).toEqual(['sales_dev']);
});
