import type { AppDeps } from '../../api/deps';
import type { ConfigFlags } from '../../config/load';
import { testAppDeps } from '../api/deps';
import type { Harness } from './harness';

/**
 * AppDeps over a harness: its store, its Temporal client, its data folder and task queue, and workspaces opened
 * from `root` (the harness's configured lakehouse unless given). The same wiring every API test over a real
 * worker needs; `flags` and `env` add to it.
 */
export function harnessAppDeps(
  h: Harness,
  opts: { root?: string; flags?: ConfigFlags; env?: NodeJS.ProcessEnv } = {},
): AppDeps {
  const root = opts.root ?? h.config.workspace.root;
  return testAppDeps({
    store: h.store,
    temporal: { client: h.env.client, connection: h.env.client.connection, address: 'test' },
    flags: { dataDir: h.config.data_dir, ...opts.flags },
    env: { LAKEWARD_TASK_QUEUE: h.taskQueue, ...opts.env },
    open: async () => h.open(root),
  });
}
