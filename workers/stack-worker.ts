import type { Client } from '@temporalio/client';
import type { NativeConnection, Worker } from '@temporalio/worker';
import type { Logger } from 'pino';
import { ensureOverdueSchedule } from '../activities/mdm/steward';
import { sweepQuiescedGrantsAtStart } from '../activities/clone/quiesce/sweep';
import { automationServices } from '../api/automation/worker-services';
import { ensureDispatcher, wakeDispatcherOnCommit } from '../api/automation/dispatcher';
import { mdmServices } from '../api/mdm/schedule';
import type { RequestWorkspaceResolver } from '../api/deps';
import { scheduledCloneSubmitter } from '../api/schedules/submitter';
import type { Config } from '../config/load';
import type { Tracing } from '../platform/observability/tracing';
import type { Store } from '../store/db';
import { startConfiguredMetricsServer, temporalExporterAddress } from './metrics-server';
import { createWorker, prebuiltBundle } from './worker';

export interface StackWorkerParts {
  config: Config;
  store: Store;
  connection: NativeConnection;
  client: Client;
  address: string;
  workspaces: RequestWorkspaceResolver;
  tracing: Tracing;
  logger: Logger;
  /** Where each started part registers how to stop it (run in reverse). */
  cleanups: (() => Promise<void>)[];
}

/**
 * The worker half of a stack: the worker with every workflow and activity and their services, the start-up
 * sweeps, the playbook dispatcher and the overdue-cases Schedule, and the worker's metrics endpoint. Its own
 * file, imported only by a process that runs a worker, so an API-only process does not load the activities
 * and the packages they use.
 */
export async function startStackWorker(
  p: StackWorkerParts,
): Promise<{ workerDone: Promise<void>; metricsUrl?: string }> {
  const { config, store, connection, client, address, workspaces, logger, cleanups } = p;
  // Playbook actions and a model's scheduled jobs have no request: they use the configured workspaces.
  const services = {
    config,
    store,
    temporal: { client, connection, address },
    logger,
    workspaces: { ...workspaces, resolve: () => workspaces.default() },
  };
  const worker: Worker = await createWorker({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.task_queue,
    deps: {
      config,
      store,
      client,
      workspaces,
      submitClone: scheduledCloneSubmitter({ config, store, client, workspaces, logger, address }),
      automation: automationServices(services),
      // A model's Schedule: ingest and match jobs as their routes submit them.
      mdm: mdmServices(services),
    },
    bundle: prebuiltBundle(config.temporal.prebundled_workflows),
    tracing: p.tracing,
  });
  const workerDone = worker.run();
  await sweepQuiescedGrantsAtStart({ config, store, client, workspaces }, logger);
  // Playbooks: the event dispatcher runs while any worker does; committed events wake it.
  const stopWaking = wakeDispatcherOnCommit(client, config.temporal.task_queue);
  cleanups.push(async () => stopWaking());
  await ensureDispatcher(client, config.temporal.task_queue);
  // Stewardship: a daily Schedule notifies overdue MDM cases (created once, kept across restarts).
  await ensureOverdueSchedule(client, config.temporal.task_queue);
  cleanups.push(async () => {
    if (worker.getState() === 'RUNNING') worker.shutdown();
    await workerDone.catch(() => undefined);
  });
  let metricsUrl: string | undefined;
  if (config.worker.metrics_port) {
    // A busy port costs the worker its metrics endpoint, not its work: the error names the key to change.
    const metrics = await startConfiguredMetricsServer('worker.metrics_port', {
      host: config.worker.metrics_host,
      port: config.worker.metrics_port,
      sdkAddress: temporalExporterAddress(),
    }).catch((err: unknown) => logger.error({ err }, (err as Error).message));
    if (metrics) {
      metricsUrl = metrics.url;
      cleanups.push(() => metrics.close());
    }
  }
  return { workerDone, metricsUrl };
}
