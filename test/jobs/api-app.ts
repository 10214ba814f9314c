import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { AppDeps } from '../../api/deps';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';

/** AppDeps on the test Temporal server whose clone queue runs on `taskQueue` (served by the test worker). */
export function jobAppDeps(env: TestWorkflowEnvironment, store: Store, taskQueue: string, apiKey?: string): AppDeps {
  const deps = testAppDeps({
    store,
    temporal: { client: env.client, connection: env.connection },
    env: { LAKEWARD_TASK_QUEUE: taskQueue, ...(apiKey ? { LAKEWARD_API_KEY: apiKey } : {}) },
  });
  return deps;
}
