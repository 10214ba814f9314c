import { defineSignal } from '@temporalio/workflow';
import type { Action, ActionResult, ExecutionStatus } from '../../schemas/automation';
import { DEFAULT_TASK_QUEUE } from '../task-queues';

export {
  DISPATCHER_WORKFLOW_TYPE,
  PLAYBOOK_CRON_WORKFLOW_TYPE,
  PLAYBOOK_SCHEDULED_WORKFLOW_TYPE,
  PLAYBOOK_WORKFLOW_TYPE,
  executionIdOf,
  playbookCronWorkflowId,
  playbookScheduleId,
  scheduledExecutionId,
} from '../../activities/automation/logic/names';

/** The one dispatcher per task queue (two stacks sharing a cluster have one each). */
export function dispatcherWorkflowId(taskQueue: string): string {
  return taskQueue === DEFAULT_TASK_QUEUE ? 'automation-dispatcher' : `automation-dispatcher-${taskQueue}`;
}

/** Sent when events were committed: the dispatcher looks at once instead of at its next poll. */
export const eventsCommittedSignal = defineSignal('eventsCommitted');

export interface DispatcherInput {
  dispatcherId: string;
  taskQueue: string;
  /** Polls before continue-as-new (history stays small). */
  pollsPerRun?: number;
}

export interface PlaybookExecutionInput {
  executionId: string;
  playbookId: string;
  /** The event's type, `manual` (execute) or `schedule`. */
  trigger: string;
  eventId: number | null;
  /** The event envelope the condition and the parameters read. */
  event: Record<string, unknown>;
  dryRun: boolean;
  /** manual executions skip the trigger's condition and the hourly limit. */
  bypass: boolean;
}

export interface BegunExecution {
  status: ExecutionStatus;
  actions: Action[];
  /** Rendered parameters per action (secrets still sealed). */
  params: Record<string, unknown>[];
  webhookMaxAttempts: number;
}

export type { ActionResult };
