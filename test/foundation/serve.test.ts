import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { helloWorkflow } from '../../workflows/hello';
import { connectTestEnv, uniqueTaskQueue } from '../helpers/temporal';
import { exited, spawnLakeward } from './stack-process';

let env: TestWorkflowEnvironment;
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lakeward-serve-'));
beforeAll(async () => {
  env = await connectTestEnv();
});
afterAll(async () => {
  await env?.teardown();
  rmSync(dataDir, { recursive: true, force: true });
});

test('lakeward serve --worker-only runs workflows from a Temporal cluster and stops on SIGTERM', async () => {
  const taskQueue = uniqueTaskQueue('serve');
  const worker = spawnLakeward(['serve', '--worker-only', '--data-dir', dataDir], {
    TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
    LAKEWARD_TASK_QUEUE: taskQueue,
    LAKEWARD_LOG_LEVEL: 'warn',
  });
  try {
    const result = await env.client.workflow.execute(helloWorkflow, {
      taskQueue,
      workflowId: taskQueue,
      args: ['cluster'],
      workflowExecutionTimeout: '90 seconds',
    });
    expect(result).toBe('Hello, cluster!');
    worker.kill('SIGTERM');
    expect(await exited(worker)).toBe(0);
    expect(worker.output()).toContain('Lakeward stopped.');
  } finally {
    if (worker.exitCode === null) worker.kill('SIGKILL');
  }
}, 120_000);

test('lakeward serve without a Temporal cluster refuses to start', async () => {
  const serve = spawnLakeward(['serve', '--data-dir', dataDir]);
  expect(await exited(serve)).toBe(1);
  expect(serve.output()).toContain('serve needs a Temporal cluster');
});
