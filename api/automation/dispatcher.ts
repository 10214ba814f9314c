import { ROOT_CONTEXT, context } from '@opentelemetry/api';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { runWithLogContext } from '../../platform/observability/log-context';
import { onEventsCommitted } from '../../store/automation/events';
import {
  DISPATCHER_WORKFLOW_TYPE,
  dispatcherWorkflowId,
  eventsCommittedSignal,
  type DispatcherInput,
} from '../../workflows/automation/definitions';

/** Starts the task queue's event dispatcher unless it runs (one per task queue). */
export async function ensureDispatcher(client: Client, taskQueue: string): Promise<void> {
  const id = dispatcherWorkflowId(taskQueue);
  const args: DispatcherInput[] = [{ dispatcherId: id, taskQueue }];
  try {
    await client.workflow.start(DISPATCHER_WORKFLOW_TYPE, {
      workflowId: id,
      taskQueue,
      args,
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/**
 * The worker's wake-up: after a transaction that recorded events commits, its dispatcher is signalled (best
 * effort: a lost signal costs at most one 5 s poll). Returns the function that stops it. The signal is sent outside
 * the committing job's trace and log context, so a job's trace holds its own spans and not the dispatcher's.
 */
export function wakeDispatcherOnCommit(client: Client, taskQueue: string): () => void {
  const handle = client.workflow.getHandle(dispatcherWorkflowId(taskQueue));
  return onEventsCommitted(() => {
    runWithLogContext({}, () => context.with(ROOT_CONTEXT, () => handle.signal(eventsCommittedSignal))).catch(
      () => undefined,
    );
  });
}
