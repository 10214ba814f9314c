import { proxyActivities } from '@temporalio/workflow';
import type { PipelineActivities } from '../../activities/pipeline';

const { queueScheduledPipelineRun } = proxyActivities<PipelineActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 5, nonRetryableErrorTypes: ['InvalidInput'] },
});

/** A run of a scheduled pipeline (the Schedule's action): queues a `pipeline` job as POST …/run does. */
export async function pipelineScheduledRunWorkflow(input: { pipelineId: string }): Promise<string> {
  return queueScheduledPipelineRun(input);
}
