import { WorkflowNotFoundError } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import {
  cloneProgressQuery,
  type CloneJobStatus,
  type CloneProgress,
  type CloneSummary,
} from '../../workflows/clone/definitions';
import { endFromSummary } from '../../workflows/jobs/outcome';

const QUERY_TIMEOUT_MS = 2_000;

const CLOSED: Record<string, CloneJobStatus> = {
  COMPLETED: 'completed',
  FAILED: 'failed',
  CANCELLED: 'cancelled',
  TERMINATED: 'failed',
  TIMED_OUT: 'aborted',
};

export interface LiveState {
  /** null when Temporal has no clone workflow for the job (still waiting in the queue, or long gone). */
  status: CloneJobStatus | null;
  progress: CloneProgress | null;
  /** The clone's summary when it has closed but the queue has not recorded its end yet. */
  summary?: CloneSummary | null;
  /** When the clone workflow closed, if it has. */
  closedAt?: Date | null;
}

/**
 * What Temporal says about a clone job now. A running workflow is asked for its progress (bounded wait, so a
 * missing worker never hangs the API); a closed one answers with its close status until the queue records it.
 */
export async function liveState(client: Client, jobId: string): Promise<LiveState> {
  const handle = client.workflow.getHandle<() => Promise<CloneSummary>>(jobId);
  let status: string;
  let closedAt: Date | null;
  try {
    const description = await handle.describe();
    status = description.status.name;
    closedAt = description.closeTime ?? null;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return { status: null, progress: null };
    throw err;
  }
  if (status === 'COMPLETED') {
    const summary = await handle.result().catch(() => null);
    return { status: summary ? endFromSummary(jobId, summary).status : 'completed', progress: null, summary, closedAt };
  }
  if (status !== 'RUNNING') return { status: CLOSED[status] ?? 'failed', progress: null, closedAt };
  const progress = await withTimeout(handle.query(cloneProgressQuery), QUERY_TIMEOUT_MS).catch(() => null);
  return { status: 'running', progress };
}

async function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
