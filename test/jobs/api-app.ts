import type { Client } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import type { AppDeps } from '../../api/deps';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';

/**
 * AppDeps on the test Temporal server whose clone queue runs on `taskQueue` (served by the test worker).
 * Pass `client` to stand for another API process with its own connection.
 */
export function jobAppDeps(
  env: TestWorkflowEnvironment,
  store: Store,
  taskQueue: string,
  apiKey?: string,
  client: Client = env.client,
): AppDeps {
  return testAppDeps({
    store,
    temporal: { client, connection: client.connection, address: env.connection.options.address },
    env: { LAKEWARD_TASK_QUEUE: taskQueue, ...(apiKey ? { LAKEWARD_API_KEY: apiKey } : {}) },
  });
}
