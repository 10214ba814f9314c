import { defineSignal } from '@temporalio/workflow';

/** The workflow of a `pipeline` job (the job id is the run id). */
export const PIPELINE_WORKFLOW_TYPE = 'pipelineWorkflow';

/** …/runs/{id}/steps/{name}/approve|reject: the decision on an approval step. */
export interface ApprovalDecision {
  step: string;
  approved: boolean;
  by: string;
}
export const approvalSignal = defineSignal<[ApprovalDecision]>('pipelineApproval');

export interface PipelineResult {
  status: 'completed' | 'failed';
  error: string | null;
  steps: { name: string; status: string }[];
  /** Steps undone after a failed step with on_failure rollback (newest first). */
  rolled_back?: string[];
}

/** The Schedule of a scheduled pipeline and the workflow its action starts (it queues a run through the kernel). */
export const pipelineScheduleId = (pipelineId: string) => `pipeline-schedule-${pipelineId}`;
export const PIPELINE_SCHEDULED_WORKFLOW_TYPE = 'pipelineScheduledRunWorkflow';
