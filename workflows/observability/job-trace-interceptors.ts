import { context, propagation } from '@opentelemetry/api';
import { defaultPayloadConverter, type Payload } from '@temporalio/common';
import type { UpdateInput, WorkflowInterceptors } from '@temporalio/workflow';
import { enqueueJobUpdate, type WaitingJob } from '../jobs/definitions';
import { TRACE_HEADER } from './job-header';

/**
 * Bundled BEFORE the OpenTelemetry interceptors, so it wraps them. A job queue is a long-lived workflow: work it
 * does for a job (starting the job's workflow, its kernel activities) would otherwise sit in the queue's own trace.
 * The queue keeps the trace context each job's enqueue update came with (the API request's) and does that work
 * inside it, so the whole job is one trace from the request on. Only the active trace context changes.
 */
export const interceptors = (): WorkflowInterceptors => {
  const traceOf = new Map<string, Payload>();
  const within = <T>(jobId: unknown, fn: () => T): T => {
    const carried = typeof jobId === 'string' ? traceOf.get(jobId) : undefined;
    if (!carried) return fn();
    const carrier = defaultPayloadConverter.fromPayload<Record<string, string>>(carried);
    return context.with(propagation.extract(context.active(), carrier), fn);
  };
  /** A kernel activity of the queue names its job by its first argument (`jobId`, or `{ jobId }`). */
  const jobIdOf = (args: unknown[]) =>
    typeof args[0] === 'string' ? args[0] : (args[0] as { jobId?: unknown } | null | undefined)?.jobId;

  return {
    inbound: [
      {
        handleUpdate(input: UpdateInput, next) {
          const carried = input.headers[TRACE_HEADER];
          const jobId = (input.args[0] as WaitingJob | undefined)?.jobId;
          if (input.name === enqueueJobUpdate.name && carried && typeof jobId === 'string') traceOf.set(jobId, carried);
          return next(input);
        },
      },
    ],
    outbound: [
      {
        startChildWorkflowExecution: (input, next) => within(input.options.workflowId, () => next(input)),
        scheduleActivity: (input, next) => within(jobIdOf(input.args), () => next(input)),
        scheduleLocalActivity: (input, next) => within(jobIdOf(input.args), () => next(input)),
      },
    ],
  };
};
