import { trace, type Attributes } from '@opentelemetry/api';
import {
  workflowInfo,
  type ActivityInput,
  type ContinueAsNewInput,
  type LocalActivityInput,
  type Next,
  type StartChildWorkflowExecutionInput,
  type UpdateInput,
  type WorkflowExecuteInput,
  type WorkflowInterceptors,
  type WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';
import type { Headers, SearchAttributePair, TypedSearchAttributes } from '@temporalio/common';
import { JOB_QUEUE_WORKFLOW_TYPE, enqueueJobUpdate, type WaitingJob } from '../jobs/definitions';
import { JOB_TYPE } from '../jobs/search-attributes';
import { jobFromHeaders, jobHeader, type JobLabels } from './job-header';

/**
 * Workflow interceptors (bundled after the OpenTelemetry ones, so they run inside their spans): they name the
 * job every span and log line of a workflow belongs to, and hand the job on in a header to child workflows,
 * continue-as-new and activities. The job queue is where a job is born: it names the job of the workflow it
 * starts and of the kernel activities it runs for it (job-trace-interceptors.ts puts that work in the job's
 * trace). Only headers and span attributes change: the workflow's commands stay the same (replay-safe).
 */
export const interceptors = (): WorkflowInterceptors => {
  let job: JobLabels | undefined;
  /** In a job queue: the type of its jobs. */
  let queueJobType: string | undefined;

  const attributes = (labels: JobLabels): Attributes => ({
    'lakeward.job_id': labels.jobId,
    'lakeward.workflow_id': workflowInfo().workflowId,
    ...(labels.jobType ? { 'lakeward.job_type': labels.jobType } : {}),
  });
  const label = (labels: JobLabels | undefined) => {
    if (labels) trace.getActiveSpan()?.setAttributes(attributes(labels));
  };
  /** Headers for work done for `labels`: the job header added. */
  const withJob = (headers: Headers, labels: JobLabels | undefined): Headers =>
    labels ? { ...headers, ...jobHeader(labels) } : headers;
  /** A kernel activity of the queue names its job by its first argument (`jobId`, or `{ jobId }`). */
  const jobOfQueueActivity = (args: unknown[]): JobLabels | undefined => {
    if (queueJobType === undefined) return undefined;
    const first = args[0];
    const jobId = typeof first === 'string' ? first : (first as { jobId?: unknown } | null)?.jobId;
    return typeof jobId === 'string' ? { jobId, jobType: queueJobType } : undefined;
  };
  /** The job an enqueue update of a job queue brings. */
  const enqueued = (input: UpdateInput): JobLabels | undefined => {
    if (queueJobType === undefined || input.name !== enqueueJobUpdate.name) return undefined;
    const jobId = (input.args[0] as WaitingJob | undefined)?.jobId;
    return typeof jobId === 'string' ? { jobId, jobType: queueJobType } : undefined;
  };
  const schedule = <I extends ActivityInput | LocalActivityInput>(input: I, next: (i: I) => Promise<unknown>) => {
    const labels = job ?? jobOfQueueActivity(input.args);
    label(labels);
    return next({ ...input, headers: withJob(input.headers, labels) });
  };

  const outbound: WorkflowOutboundCallsInterceptor = {
    scheduleActivity: (input, next) => schedule(input, next),
    scheduleLocalActivity: (input, next) => schedule(input, next),
    startChildWorkflowExecution(input: StartChildWorkflowExecutionInput, next) {
      const jobType = queueJobType !== undefined ? jobTypeOf(input.options.typedSearchAttributes) : undefined;
      const labels = job ?? (jobType ? { jobId: input.options.workflowId, jobType } : undefined);
      label(labels);
      return next({ ...input, headers: withJob(input.headers, labels) });
    },
    signalWorkflow(input, next) {
      label(job);
      return next(input);
    },
    continueAsNew(input: ContinueAsNewInput, next: Next<WorkflowOutboundCallsInterceptor, 'continueAsNew'>) {
      return next({ ...input, headers: job ? { ...input.headers, ...jobHeader(job) } : input.headers });
    },
    getLogAttributes(input, next) {
      if (!job) return next(input);
      const fields = { job_id: job.jobId, workflow_id: workflowInfo().workflowId };
      return next({ ...fields, ...(job.jobType ? { job_type: job.jobType } : {}), ...input });
    },
  };

  return {
    inbound: [
      {
        execute(input: WorkflowExecuteInput, next) {
          job = jobFromHeaders(input.headers);
          if (workflowInfo().workflowType === JOB_QUEUE_WORKFLOW_TYPE) {
            queueJobType = (input.args[0] as { jobType?: string } | undefined)?.jobType;
          }
          label(job);
          return next(input);
        },
        handleSignal(input, next) {
          label(job);
          return next(input);
        },
        validateUpdate(input: UpdateInput, next) {
          label(job ?? enqueued(input));
          next(input);
        },
        handleUpdate(input: UpdateInput, next) {
          label(job ?? enqueued(input));
          return next(input);
        },
      },
    ],
    outbound: [outbound],
  };
};

function jobTypeOf(attrs: SearchAttributePair[] | TypedSearchAttributes | undefined): string | undefined {
  if (!attrs) return undefined;
  if (Array.isArray(attrs)) {
    const pair = attrs.find((p) => p.key.name === JOB_TYPE.name);
    return typeof pair?.value === 'string' ? pair.value : undefined;
  }
  const value = attrs.get(JOB_TYPE);
  return typeof value === 'string' ? value : undefined;
}
