import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { FinalJobStatus } from '../../schemas/jobs';
import { DEFAULT_TASK_QUEUE } from '../task-queues';

/**
 * The job kernel's names and payloads, written once. Every job type has one durable queue: a long-lived
 * workflow that admits jobs of that type, runs at most `maxConcurrent` of them as (abandoned) child workflows,
 * keeps at most `maxQueueSize` waiting, cancels, times out and records each job's end. Its state lives in
 * Temporal, so the limits hold across API and worker restarts.
 */

/** Workflow type of every job queue. */
export const JOB_QUEUE_WORKFLOW_TYPE = 'jobQueueWorkflow';

/** `queue-clone` for clone jobs on the default task queue; stacks on other task queues get their own queues. */
export function jobQueueWorkflowId(jobType: string, taskQueue: string): string {
  const id = `queue-${jobType}`;
  return taskQueue === DEFAULT_TASK_QUEUE ? id : `${id}-${taskQueue}`;
}

/** ApplicationFailure type of an enqueue rejected because the waiting list is full (the API answers 429). */
export const QUEUE_FULL = 'QueueFull';
/** ApplicationFailure type of an enqueue for a job id the queue already holds. */
export const JOB_ALREADY_QUEUED = 'JobAlreadyQueued';

export interface QueueLimits {
  maxConcurrent: number;
  maxQueueSize: number;
  /** A job that waited or ran longer than this, counted from its creation, is cancelled (status aborted). */
  requestTimeoutMinutes: number;
}

/** A job as the queue holds it: which workflow to start, with what input. */
export interface WaitingJob {
  jobId: string;
  /** Workflow type the queue starts with the job id as workflow id. */
  workflowType: string;
  /** The job workflow's only argument (never secrets: it is written to history). */
  input: unknown;
  /** ISO 8601; when the job was accepted (request_timeout_minutes counts from here). */
  createdAt: string;
  /** Keyword search attributes besides the job type (source and destination catalog, …). */
  searchAttributes?: { sourceCatalog?: string; destinationCatalog?: string };
}

export interface RunningJob {
  jobId: string;
  createdAt: string;
  startedAt: string;
  /** Set when the queue cancelled the job because request_timeout_minutes passed. */
  timedOut: boolean;
  /** When a cancel was asked for (workflow time, ms); the queue delivers it once the workflow exists. */
  cancelRequestedAtMs?: number;
  /** The cancel request reached the job's workflow. */
  cancelDelivered?: boolean;
}

export interface JobQueueState {
  jobType: string;
  limits: QueueLimits;
  waiting: WaitingJob[];
  running: RunningJob[];
}

/**
 * What every job workflow returns: its own result object with at least a final `status` (`completed` when
 * absent) and, when it did not complete, an `error` naming the cause.
 */
export interface JobResult {
  status?: string;
  error?: string | null;
  [field: string]: unknown;
}

/** How a job ended, as recorded in the jobs row, the audit trail and the notifications. */
export interface JobEnd {
  jobId: string;
  status: FinalJobStatus;
  summary?: JobResult | null;
  error?: string | null;
}

export interface EnqueueResult {
  jobId: string;
  /** 0 when the job starts at once, otherwise its place in the waiting list (1 = next). */
  position: number;
}

export type CancelOutcome = 'waiting' | 'running' | 'unknown';

export interface QueueSnapshot {
  jobType: string;
  limits: QueueLimits;
  waiting: { jobId: string; createdAt: string; position: number }[];
  running: { jobId: string; createdAt: string; startedAt: string; cancelRequested: boolean }[];
}

export const enqueueJobUpdate = defineUpdate<EnqueueResult, [WaitingJob, QueueLimits]>('enqueueJob');
export const cancelJobUpdate = defineUpdate<CancelOutcome, [string]>('cancelJob');
export const jobQueueQuery = defineQuery<QueueSnapshot>('jobQueue');
