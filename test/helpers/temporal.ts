import { TestWorkflowEnvironment } from '@temporalio/testing';

/** Connects to the dev server started by the global setup. Call `teardown()` in afterAll. */
export async function connectTestEnv(): Promise<TestWorkflowEnvironment> {
  const address = process.env.TEMPORAL_TEST_ADDRESS;
  if (!address)
    throw new Error('TEMPORAL_TEST_ADDRESS is not set: run tests through jest (global setup starts Temporal)');
  return TestWorkflowEnvironment.createFromExistingServer({ address });
}

/** A task queue name unique to one test. */
export function uniqueTaskQueue(prefix: string): string {
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
}
