import { CancelledFailure, Context, heartbeat } from '@temporalio/activity';
import { WorkflowFailedError, type Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { JobEnd, JobResult } from '../../workflows/jobs/definitions';
import { endFromFailure, endFromResult } from './logic/outcome';

const HEARTBEAT_MS = 5_000;

export function createWaitActivities(client: Client) {
  return {
    /** Resolves when the job workflow `jobId` closes, with how it ended. Heartbeats while waiting. */
    async waitForJob(jobId: string): Promise<JobEnd> {
      const timer = setInterval(() => heartbeat(), HEARTBEAT_MS);
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
