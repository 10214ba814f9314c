import { existsSync } from 'node:fs';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../activities';
import { tracingOff, type Tracing } from '../platform/observability/tracing';
import { withActivityMetrics } from '../platform/observability/activity-metrics';
import { workflowBundlePath } from './bundle-workflows';
import { workerTelemetry } from './telemetry';
import { WORKER_TUNING } from './worker-tuning';

export interface CreateWorkerOptions {
  connection: NativeConnection;
  namespace?: string;
  taskQueue: string;
  deps: ActivityDeps;
  /**
   * Pre-built workflow code (production: dist/workflow-bundle.js from `npm run build`). Without it the
   * worker bundles workflows/index.ts from source at start (development; a few seconds).
   */
  bundle?: { codePath: string };
  /** Where workflow and activity spans go (the process's tracing; off when absent). */
  tracing?: Tracing;
}

/** One worker on one task queue, with every workflow and the activities from `createActivities(deps)`. */
export async function createWorker(opts: CreateWorkerOptions): Promise<Worker> {
  const base = {
    connection: opts.connection,
    namespace: opts.namespace ?? 'default',
    taskQueue: opts.taskQueue,
    ...WORKER_TUNING,
    activities: createActivities(opts.deps),
    ...workerTelemetry(opts.tracing ?? tracingOff()),
  };
  if (opts.bundle) return Worker.create(withActivityMetrics({ ...base, workflowBundle: opts.bundle }));
  return Worker.create(withActivityMetrics({ ...base, workflowsPath: require.resolve('../workflows') }));
}

/** The pre-built bundle when asked for; a missing bundle is an error that says how to build it. */
export function prebuiltBundle(
  usePrebuilt: boolean,
  codePath = workflowBundlePath(),
): { codePath: string } | undefined {
  if (!usePrebuilt) return undefined;
  if (!existsSync(codePath)) {
    throw new Error(`temporal.prebundled_workflows is on but ${codePath} is missing: run \`npm run build\``);
  }
  return { codePath };
}
