import { proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { JobActivities } from '../../activities/jobs';
import type { ScheduleActivities, ScheduledRunResult } from '../../activities/schedules';
import type { ScheduledCloneInput } from './definitions';

const { beginScheduledRun, finishScheduledRun, retryScheduledClone } = proxyActivities<ScheduleActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '2 seconds', maximumInterval: '1 minute', maximumAttempts: 5 },
});
// The clone job runs in its own queue; this run waits for its end (heartbeating), so the Schedule's overlap
// policy SKIP holds while a scheduled clone is still going. It waits until the queue has recorded that end on the
// job row, so a run that reads `completed` finds its job `completed` too.
const { waitForJob } = proxyActivities<JobActivities>({
  startToCloseTimeout: '30 days',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds' },
});

/** Temporal sets this search attribute on every workflow a Schedule starts. */
const SCHEDULED_START = 'TemporalScheduledStartTime';

/**
 * One fired run of a clone Schedule (the Schedule's action): decides (max_runs, drift_check), submits a normal
 * clone job through the job kernel (visible in /api/jobs, queued behind other clones), waits for its end and
 * records it on the schedule.
 */
export async function scheduledCloneWorkflow(input: ScheduledCloneInput): Promise<ScheduledRunResult> {
  const info = workflowInfo();
  const attr = info.searchAttributes?.[SCHEDULED_START]?.[0];
  const scheduledAt = attr instanceof Date ? attr.toISOString() : typeof attr === 'string' ? attr : undefined;
  const decision = await beginScheduledRun({ scheduleId: input.scheduleId, runId: info.workflowId, scheduledAt });
  if (decision.action !== 'clone')
    return { runId: decision.runId, outcome: decision.action, message: decision.message };
  let jobId = decision.jobId;
  let end = await waitForJob(jobId, { recorded: true });
  // A persistent job's max_retries: the clone is submitted again after a failure (not after a cancel).
  for (let attempt = 1; end.status === 'failed' && attempt <= (decision.maxRetries ?? 0); attempt++) {
    const retried = await retryScheduledClone({
      scheduleId: input.scheduleId,
      runId: decision.runId,
      attempt,
      error: end.error,
    });
    if ('refused' in retried) {
      end = { ...end, error: `${end.error ?? 'failed'}; retry ${attempt} refused: ${retried.refused}` };
      break;
    }
    jobId = retried.jobId;
    end = await waitForJob(jobId, { recorded: true });
  }
  return finishScheduledRun({
    scheduleId: input.scheduleId,
    runId: decision.runId,
    jobId,
    status: end.status,
    error: end.error ?? null,
  });
}
