import type { Client } from '@temporalio/client';
import type { AppDeps } from '../../api/deps';
import { jobQueueWorkflowId } from '../../workflows/jobs/definitions';
import { openPlatformWorkspace } from '../../workers/open-workspace';
import { testAppDeps } from '../api/deps';
import { seedMiniCatalog } from '../clone/fixtures/mini-catalog';
import { createHarness, type Harness } from '../helpers/harness';

/** The real clone path behind the API: the shared harness, a local lakehouse with the mini catalog `prod`. */
export interface RealStack {
  h: Harness;
  /** The lakehouse folder holding `prod`. */
  root: string;
  /** AppDeps whose clone queue runs on the harness's task queue over that lakehouse. */
  appDeps(client?: Client): AppDeps;
  teardown(): Promise<void>;
}

export async function realStack(name: string, opts: { extraTables?: number } = {}): Promise<RealStack> {
  const h = await createHarness(name);
  const root = h.newRoot();
  const ws = h.open(root);
  await seedMiniCatalog(ws, 'prod', opts);
  await ws.close?.();
  return {
    h,
    root,
    appDeps: (client = h.env.client) =>
      testAppDeps({
        store: h.store,
        temporal: { client, connection: h.env.connection, address: h.env.connection.options.address },
        env: { LAKEWARD_TASK_QUEUE: h.taskQueue, LAKEWARD_WORKSPACE_ROOT: root },
        open: openPlatformWorkspace,
      }),
    async teardown() {
      await h.env.client.workflow
        .getHandle(jobQueueWorkflowId('clone', h.taskQueue))
        .terminate('test over')
        .catch(() => undefined);
      await h.teardown();
    },
  };
}
