import type { Context } from '@temporalio/activity';
import type { ClientInterceptors } from '@temporalio/client';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { ActivityInterceptors, InjectedSinks, WorkerOptions } from '@temporalio/worker';
import { runWithLogContext, type JobLogFields } from '../platform/observability/log-context';
import type { Tracing } from '../platform/observability/tracing';
import { jobFromHeaders } from '../workflows/observability/job-header';

/**
 * Workflow interceptor modules, bundled with the workflows (here and in `npm run build`), outermost first: the
 * job queue's trace context switch around OpenTelemetry's spans, then OpenTelemetry's, then Lakeward's job
 * interceptors inside its spans, so they can label them.
 */
export const WORKFLOW_INTERCEPTOR_MODULES = [
  require.resolve('../workflows/observability/job-trace-interceptors'),
  require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors'),
  require.resolve('../workflows/observability/job-interceptors'),
];

/** The Temporal client's interceptors: a span per start, update, signal or query, its context in the headers. */
export function clientInterceptors(): ClientInterceptors {
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor()] };
}

/**
 * An activity runs inside its job's log context (job_id, job_type, workflow_id from the job header): pino lines,
 * spans it starts (warehouse statements) and the activity span itself carry them, and so does every line of the
 * activity's context logger (`log` from @temporalio/activity).
 */
function jobActivityInterceptors(ctx: Context): ActivityInterceptors {
  let fields: JobLogFields | undefined;
  return {
    inbound: {
      execute(input, next) {
        const job = jobFromHeaders(input.headers);
        if (!job) return next(input);
        fields = { job_id: job.jobId, workflow_id: ctx.info.workflowExecution?.workflowId ?? job.jobId };
        if (job.jobType) fields.job_type = job.jobType;
        return runWithLogContext(fields, () => next(input));
      },
    },
    outbound: {
      getLogAttributes: (input, next) => next(fields ? { ...fields, ...input } : input),
    },
  };
}

/**
 * What a worker adds for traces and job-correlated logs: the workflow interceptor modules (used when it bundles
 * from source), the activity interceptors (job context outside, OpenTelemetry's span inside it) and the sink that
 * hands spans made in workflow sandboxes to the process's span processor (a no-op one while tracing is off).
 */
export function workerTelemetry(tracing: Tracing): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  const sinks: InjectedSinks<Record<string, never>> = {
    exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource),
  } as unknown as InjectedSinks<Record<string, never>>;
  return {
    interceptors: {
      workflowModules: WORKFLOW_INTERCEPTOR_MODULES,
      activity: [
        jobActivityInterceptors,
        (ctx) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
    },
    sinks,
  };
}
