import { AsyncLocalStorage } from 'node:async_hooks';
import { isSpanContextValid, trace, type Attributes } from '@opentelemetry/api';

/** The fields that tie a log line or span to a job: every line and span of one job carries the same ones. */
export interface JobLogFields {
  job_id: string;
  job_type?: string;
  /** The Temporal workflow the work runs in (the job's own, or one of its child workflows). */
  workflow_id?: string;
}

/** Span attribute names of the job fields (what a trace backend filters on). */
export const JOB_SPAN_ATTRIBUTES = {
  job_id: 'lakeward.job_id',
  job_type: 'lakeward.job_type',
  workflow_id: 'lakeward.workflow_id',
} as const;

/** Per request (API) or per activity execution (worker): the job it serves, once known. */
type LogContext = Partial<JobLogFields>;

const storage = new AsyncLocalStorage<LogContext>();

/** Runs `fn` with its own log context (a request, an activity); `fields` may be filled in later by annotateJob. */
export function runWithLogContext<T>(fields: Partial<JobLogFields>, fn: () => T): T {
  return storage.run({ ...fields }, fn);
}

/** Runs `fn` inside an existing context object (a request's, carried over an async gap such as body parsing). */
export function resumeLogContext<T>(ctx: object, fn: () => T): T {
  return storage.run(ctx as LogContext, fn);
}

/** The current context object (to resume it later), or undefined outside any. */
export function currentLogContext(): Readonly<Partial<JobLogFields>> | undefined {
  return storage.getStore();
}

/** The job of the current request or activity, if there is one. */
export function currentJob(): JobLogFields | undefined {
  const ctx = storage.getStore();
  return ctx?.job_id ? (ctx as JobLogFields) : undefined;
}

/**
 * Marks the current request as serving a job (a job submitted, read or cancelled): later log lines and spans of
 * the request carry its fields, and so does the request's active span.
 */
export function annotateJob(jobId: string, jobType?: string): void {
  const ctx = storage.getStore();
  const fields: JobLogFields = { job_id: jobId, workflow_id: jobId, ...(jobType ? { job_type: jobType } : {}) };
  if (ctx) Object.assign(ctx, fields);
  trace.getActiveSpan()?.setAttributes(jobSpanAttributes(fields));
}

export function jobSpanAttributes(fields: Partial<JobLogFields>): Attributes {
  const out: Attributes = {};
  for (const key of Object.keys(JOB_SPAN_ATTRIBUTES) as (keyof JobLogFields)[]) {
    if (fields[key]) out[JOB_SPAN_ATTRIBUTES[key]] = fields[key];
  }
  return out;
}

/**
 * pino `mixin`: the job fields of the current request or activity and, when tracing is on, the trace id, so a
 * line needs no call site to pass them.
 */
export function logContextMixin(): Record<string, string> {
  const out: Record<string, string> = { ...(storage.getStore() as Record<string, string> | undefined) };
  const span = trace.getActiveSpan()?.spanContext();
  if (span && isSpanContextValid(span)) out.trace_id = span.traceId;
  return out;
}
