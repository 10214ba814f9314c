import {
  ActivityCancellationType,
  CancellationScope,
  ContinueAsNew,
  continueAsNew,
  isCancellation,
  proxyActivities,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import type { StreamActivities } from '../../activities/streams';
import { rootCauseMessage } from '../../activities/jobs/logic/root-cause';
import type { StreamInput } from './definitions';

// A cycle is heartbeated; WAIT_CANCELLATION_COMPLETED so a stop or restart returns only once the cycle's
// current write has committed or been abandoned (MERGEs are atomic either way).
const { runStreamCycle } = proxyActivities<StreamActivities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
});
const { markStreamRun, markStreamEnded } = proxyActivities<StreamActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 10 },
});

/** Cycles per run before continue-as-new: about 10 history events each, far below Temporal's limits. */
export const DEFAULT_CYCLES_PER_RUN = 500;

/**
 * A continuous sync stream (workflow id = stream id): every `triggerMs` one cycle applies each table's change data
 * feed since its applied version (activities/streams). Runs until cancelled (stop, restart); continues as new every
 * `cyclesPerRun` cycles or when Temporal suggests it. What it has applied lives in the store, so a new run — after
 * continue-as-new, a restart or a lost worker — resumes where the last one recorded.
 */
export async function syncStreamWorkflow(input: StreamInput): Promise<{ status: 'stopped' }> {
  const perRun = input.cyclesPerRun ?? DEFAULT_CYCLES_PER_RUN;
  try {
    await markStreamRun(input.streamId, workflowInfo().firstExecutionRunId);
    for (let cycle = 0; ; cycle++) {
      await runStreamCycle(input);
      const info = workflowInfo();
      if (cycle + 1 >= perRun || info.continueAsNewSuggested) {
        await continueAsNew<typeof syncStreamWorkflow>(input);
      }
      await sleep(input.triggerMs);
    }
  } catch (err) {
    if (err instanceof ContinueAsNew) throw err;
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(() => markStreamEnded(input.streamId, 'stopped', null));
      return { status: 'stopped' };
    }
    await CancellationScope.nonCancellable(() => markStreamEnded(input.streamId, 'failed', rootCauseMessage(err)));
    throw err;
  }
}
