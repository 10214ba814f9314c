import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { Worker } from '@temporalio/worker';
import { createWorkspaceResolver } from '../../api/middleware/workspaces';
import { loadConfig } from '../../config/load';
import type { Store } from '../../store/db';
import { writeWorkflowBundle } from '../../workers/bundle-workflows';
import { createWorker, prebuiltBundle } from '../../workers/worker';
import { helloWorkflow } from '../../workflows/hello';
import { createTestStore } from '../helpers/db';
import { connectTestEnv, uniqueTaskQueue } from '../helpers/temporal';

let env: TestWorkflowEnvironment;
let store: Store;
const tmp = mkdtempSync(path.join(os.tmpdir(), 'lakeward-bundle-'));
beforeAll(async () => {
  [env, store] = await Promise.all([connectTestEnv(), createTestStore()]);
});
afterAll(async () => {
  await Promise.all([env?.teardown(), store?.close()]);
  rmSync(tmp, { recursive: true, force: true });
});

async function runHello(worker: Worker, taskQueue: string): Promise<string> {
  return worker.runUntil(
    env.client.workflow.execute(helloWorkflow, { taskQueue, workflowId: taskQueue, args: ['bundle'] }),
  );
}

function deps() {
  const config = loadConfig({ env: {} });
  const workspaces = createWorkspaceResolver(config, () => Promise.reject(new Error('no workspace needed')));
  return { config, store, client: env.client, workspaces };
}

test('the worker built by createWorker runs workflows bundled from source with createActivities', async () => {
  const taskQueue = uniqueTaskQueue('worker-src');
  const worker = await createWorker({ connection: env.nativeConnection, taskQueue, deps: deps() });
  expect(await runHello(worker, taskQueue)).toBe('Hello, bundle!');
});

test('the worker runs the pre-built bundle that npm run build writes', async () => {
  const codePath = await writeWorkflowBundle(path.join(tmp, 'workflow-bundle.js'));
  const taskQueue = uniqueTaskQueue('worker-bundle');
  const worker = await createWorker({
    connection: env.nativeConnection,
    taskQueue,
    deps: deps(),
    bundle: { codePath },
  });
  expect(await runHello(worker, taskQueue)).toBe('Hello, bundle!');
}, 120_000);

test('asking for the pre-built bundle when it is missing says how to build it', () => {
  expect(() => prebuiltBundle(true, path.join(tmp, 'absent.js'))).toThrow(/absent\.js is missing: run `npm run build`/);
  expect(prebuiltBundle(false, path.join(tmp, 'absent.js'))).toBeUndefined();
});
