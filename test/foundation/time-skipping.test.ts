import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createHelloActivities } from '../../activities/hello';
import { executableSpec } from '../../workers/temporal-binary';
import { uniqueTaskQueue } from '../helpers/temporal';
import { sleepyHelloWorkflow } from './fixtures/sleepy-workflow';

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: executableSpec('temporal-test-server') },
  });
}, 120_000);
afterAll(async () => {
  await env?.teardown();
});

test('a workflow that sleeps one day completes at once on the time-skipping test server', async () => {
  const taskQueue = uniqueTaskQueue('sleepy');
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('./fixtures/sleepy-workflow'),
    activities: createHelloActivities({ prefix: 'Good morning' }),
  });
  const startedAt = Date.now();
  const before = await env.currentTimeMs();
  const result = await worker.runUntil(
    env.client.workflow.execute(sleepyHelloWorkflow, { taskQueue, workflowId: taskQueue, args: ['Lakeward'] }),
  );
  expect(result).toBe('Good morning, Lakeward!');
  expect((await env.currentTimeMs()) - before).toBeGreaterThanOrEqual(24 * 3600 * 1000);
  expect(Date.now() - startedAt).toBeLessThan(30_000);
});
