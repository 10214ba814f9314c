import { CancelledFailure, Context, heartbeat } from '@temporalio/activity';
import { WorkflowFailedError, type Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { CloneSummary } from '../../workflows/clone/definitions';
import type { JobEnd } from '../../workflows/jobs/definitions';
import { endFromFailure, endFromSummary } from '../../workflows/jobs/outcome';

const HEARTBEAT_MS = 5_000;

export function createWaitActivities(client: Client) {
  return {
    /** Resolves when the clone workflow `jobId` closes, with how it ended. Heartbeats while waiting. */
    async waitForJob(jobId: string): Promise<JobEnd> {
      const timer = setInterval(() => heartbeat(), HEARTBEAT_MS);
      try {
        // The abort signal ends the long poll when this activity is cancelled (worker shutdown, queue moved on).
        const result = client.withAbortSignal(Context.current().cancellationSignal, () =>
          client.workflow.getHandle<() => Promise<CloneSummary>>(jobId).result(),
        );
        const summary = await Promise.race([result, Context.current().cancelled]);
        result.catch(() => undefined);
        return endFromSummary(jobId, summary as CloneSummary);
      } catch (err) {
        if (err instanceof CancelledFailure) throw err;
        if (err instanceof WorkflowFailedError) return endFromFailure(jobId, err.cause);
        if (err instanceof WorkflowNotFoundError)
          return { jobId, status: 'failed', error: 'the clone workflow was not found' };
        throw err;
      } finally {
        clearInterval(timer);
      }
    },
  };
}
