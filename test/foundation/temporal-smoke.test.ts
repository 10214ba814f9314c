import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { connectTestEnv, uniqueTaskQueue } from '../helpers/temporal';
import { createHelloActivities } from '../../activities/hello';
import { helloWorkflow } from '../../workflows/hello';

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await connectTestEnv();
});
afterAll(async () => {
  await env?.teardown();
});

test('a workflow runs an activity through the dev server and a real worker', async () => {
  const taskQueue = uniqueTaskQueue('hello');
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('../../workflows/hello'),
    activities: createHelloActivities({ prefix: 'Hello' }),
  });
  const result = await worker.runUntil(
    env.client.workflow.execute(helloWorkflow, { taskQueue, workflowId: taskQueue, args: ['Lakeward'] }),
  );
  expect(result).toBe('Hello, Lakeward!');
});
