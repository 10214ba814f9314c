import { defaultPayloadConverter, type Headers } from '@temporalio/common';

/**
 * The job a workflow or activity works for, carried in a Temporal header from the queue that starts the job to
 * every child workflow, continue-as-new and activity below it. The header names the job; it never carries input.
 */
export const JOB_HEADER = 'lakeward-job';

/** Header of the W3C trace context the OpenTelemetry interceptors read and write. */
export const TRACE_HEADER = '_tracer-data';

export interface JobLabels {
  jobId: string;
  jobType?: string;
}

export function jobHeader(job: JobLabels): Headers {
  return { [JOB_HEADER]: defaultPayloadConverter.toPayload(job) };
}

/** The job named by the headers, or undefined (work outside any job, or a header from elsewhere). */
export function jobFromHeaders(headers: Headers | undefined): JobLabels | undefined {
  const payload = headers?.[JOB_HEADER];
  if (!payload) return undefined;
  try {
    const job = defaultPayloadConverter.fromPayload<Partial<JobLabels>>(payload);
    return typeof job?.jobId === 'string' ? { jobId: job.jobId, jobType: job.jobType } : undefined;
  } catch {
    return undefined;
  }
}
