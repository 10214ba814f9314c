import { CancelledFailure, Context, heartbeat, log } from '@temporalio/activity';
import { WorkflowFailedError, type Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { JobEnd, JobResult } from '../../workflows/jobs/definitions';
import type { Store } from '../../store/db';
import { getJob } from '../../store/jobs/jobs';
import { endFromFailure, endFromResult } from './logic/outcome';
import { isFinalStatus } from './messages';

const HEARTBEAT_MS = 5_000;
/** How long a waiter with `recorded` waits, after the job workflow closed, for its queue to record the end. */
const RECORD_WAIT_MS = 60_000;
const RECORD_POLL_MS = 200;

export interface WaitOptions {
  /**
   * Also wait until the job's row holds its end (status final, completed_at set). The queue workflow records
   * the end just after the job workflow closes; a waiter outside the queue (a scheduled run) that reads the
   * job row next would otherwise see it still `running`.
   */
  recorded?: boolean;
}

export function createWaitActivities(client: Client, store: Store) {
  async function untilRecorded(jobId: string): Promise<void> {
    const deadline = Date.now() + RECORD_WAIT_MS;
    for (;;) {
      const row = await getJob(store.db, jobId);
      if (row && isFinalStatus(row.status) && row.completedAt) return;
      if (Date.now() >= deadline) {
        log.warn('job end not recorded in time; going on with the workflow result', { jobId });
        return;
      }
      await Context.current().sleep(RECORD_POLL_MS);
    }
  }

  /** How the job workflow `jobId` closed; ends early (CancelledFailure) when this activity is cancelled. */
  async function workflowEnd(jobId: string): Promise<JobEnd> {
    try {
      // The abort signal ends the long poll when this activity is cancelled (worker shutdown, queue moved on).
      const result = client.withAbortSignal(Context.current().cancellationSignal, () =>
        client.workflow.getHandle<() => Promise<JobResult>>(jobId).result(),
      );
      const summary = await Promise.race([result, Context.current().cancelled]);
      result.catch(() => undefined);
      return endFromResult(jobId, summary as JobResult);
    } catch (err) {
      if (err instanceof CancelledFailure) throw err;
      if (err instanceof WorkflowFailedError) return endFromFailure(jobId, err.cause);
      if (err instanceof WorkflowNotFoundError)
        return { jobId, status: 'failed', error: 'the job workflow was not found' };
      throw err;
    }
  }

  return {
    /** Resolves when the job workflow `jobId` closes, with how it ended. Heartbeats while waiting. */
    async waitForJob(jobId: string, options: WaitOptions = {}): Promise<JobEnd> {
      const timer = setInterval(() => heartbeat(), HEARTBEAT_MS);
      try {
        const end = await workflowEnd(jobId);
        if (options.recorded) await untilRecorded(jobId);
        return end;
      } finally {
        clearInterval(timer);
      }
    },

    /** Terminates a job that did not stop after its cancel (the queue's last resort); gone already is fine. */
    async terminateJob(jobId: string, reason: string): Promise<void> {
      try {
        await client.workflow.getHandle(jobId).terminate(reason);
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
    },
  };
}
