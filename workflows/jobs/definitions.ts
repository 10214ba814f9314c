import { defineQuery, defineUpdate } from '@temporalio/workflow';
import { DEFAULT_TASK_QUEUE } from '../task-queues';
import type { CloneJobInput, CloneJobStatus, CloneSummary } from '../clone/definitions';

/**
 * The clone queue: one long-lived workflow that admits clone jobs, runs at most `maxConcurrent` of them as
 * child workflows and keeps at most `maxQueueSize` waiting. Its state lives in Temporal, so the limits hold
 * across API and worker restarts. Names and payloads are written here once and imported by the API.
 */
export const CLONE_QUEUE_WORKFLOW_ID = 'clone-queue';

/** One queue per task queue, so stacks sharing a Temporal cluster under different task queues stay apart. */
export function cloneQueueWorkflowId(taskQueue: string): string {
  return taskQueue === DEFAULT_TASK_QUEUE ? CLONE_QUEUE_WORKFLOW_ID : `${CLONE_QUEUE_WORKFLOW_ID}-${taskQueue}`;
}
/** Workflow type of a clone job; the queue starts it by name with the job id as workflow id. */
export const CLONE_WORKFLOW_TYPE = 'cloneCatalogWorkflow';
/** ApplicationFailure type of an enqueue rejected because the waiting list is full (the API answers 429). */
export const QUEUE_FULL = 'QueueFull';
/** ApplicationFailure type of an enqueue for a job id the queue already holds. */
export const JOB_ALREADY_QUEUED = 'JobAlreadyQueued';

export type CloneCatalogWorkflow = (input: CloneJobInput) => Promise<CloneSummary>;

export interface QueueLimits {
  maxConcurrent: number;
  maxQueueSize: number;
  /** A job that waited or ran longer than this, counted from its creation, is cancelled (status aborted). */
  requestTimeoutMinutes: number;
}

export interface WaitingJob {
  jobId: string;
  input: CloneJobInput;
}

export interface RunningJob {
  jobId: string;
  createdAt: string;
  startedAt: string;
  /** Set when the queue cancelled the job because request_timeout_minutes passed. */
  timedOut: boolean;
}

export interface CloneQueueState {
  limits: QueueLimits;
  waiting: WaitingJob[];
  running: RunningJob[];
}

/** How a job ended, as recorded in the jobs row, the audit trail and the notifications. */
export interface JobEnd {
  jobId: string;
  status: Exclude<CloneJobStatus, 'queued' | 'running'>;
  summary?: CloneSummary | null;
  error?: string | null;
}

export interface EnqueueResult {
  jobId: string;
  /** 0 when the job starts at once, otherwise its place in the waiting list (1 = next). */
  position: number;
}

export type CancelOutcome = 'waiting' | 'running' | 'unknown';

export interface QueueSnapshot {
  limits: QueueLimits;
  waiting: { jobId: string; createdAt: string; position: number }[];
  running: { jobId: string; createdAt: string; startedAt: string }[];
}

export const enqueueCloneUpdate = defineUpdate<EnqueueResult, [WaitingJob, QueueLimits]>('enqueueClone');
export const cancelCloneJobUpdate = defineUpdate<CancelOutcome, [string]>('cancelCloneJob');
export const cloneQueueQuery = defineQuery<QueueSnapshot>('cloneQueue');
