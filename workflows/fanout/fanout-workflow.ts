import { CancellationScope, executeChild, isCancellation, proxyActivities } from '@temporalio/workflow';
import {
  childStatus,
  fanoutSummary,
  loadTypeFor,
  type ChildOutcome,
  type FanoutSummary,
} from '../../activities/fanout/logic/fanout-summary';
import type { JobActivities } from '../../activities/jobs';
import { rootCauseMessage } from '../../activities/jobs/logic/root-cause';
import type { FinalJobStatus } from '../../schemas/jobs';
import type { cloneCatalogWorkflow } from '../clone/clone-catalog';
import type { CloneJobInput } from '../clone/definitions';
import type { FanoutChild, FanoutJobInput } from './definitions';

const { appendJobEvents, reportJobProgress, markJobRunning, recordJobEnd } = proxyActivities<JobActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 5 },
});

/** Workflow time in ms (deterministic inside a workflow). */
const workflowNow = () => new Date().getTime();

/** One target's clone: the request's options (targets left out) with the target's data sync mode applied. */
function childInput(input: FanoutJobInput, child: FanoutChild): CloneJobInput {
  const { target_workspaces: _many, target_workspace: _one, ...options } = input.clone.options;
  return {
    ...input.clone,
    jobId: child.jobId,
    targets: [input.clone.targets[child.target]],
    options: { ...options, load_type: loadTypeFor(child.syncMode, options.load_type) },
  };
}

/**
 * A fan-out clone (job type `clone_fanout`): one child clone workflow per target — a clone job of its own, with
 * its own row, log and progress (workflow id = child job id) — at most `maxParallel` at once. A failing target
 * fails alone; the others run on. Each child's end is recorded as it ends; the run summary has mode fanout,
 * per_target, succeeded/failed targets and target_status. Cancelling the fan-out cancels the running children
 * and records the ones not started as cancelled.
 */
export async function cloneFanoutWorkflow(input: FanoutJobInput): Promise<FanoutSummary> {
  const startedAt = workflowNow();
  const n = input.children.length;
  const outcomes: (ChildOutcome | undefined)[] = new Array(n);
  const parallel = Math.max(1, Math.min(input.maxParallel, n));
  await appendJobEvents(input.jobId, [
    {
      event: 'status',
      message: `fan-out to ${n} target${n === 1 ? '' : 's'}, at most ${parallel} at once`,
      data: { status: 'running', target_count: n, max_parallel: parallel },
    },
  ]);
  await reportJobProgress(input.jobId, { completed: 0, total: n, targets: `0/${n}` });

  let next = 0;
  let done = 0;
  const lane = async () => {
    while (next < n) {
      const i = next++;
      const child = input.children[i];
      const target = input.clone.targets[child.target];
      const outcome: ChildOutcome = {
        label: target.label,
        jobId: child.jobId,
        destinationCatalog: target.destinationCatalog,
        summary: null,
        error: null,
      };
      try {
        await markJobRunning(child.jobId);
        await appendJobEvents(input.jobId, [
          {
            event: 'status',
            message: `target ${target.label}: clone job ${child.jobId} started`,
            data: { target: target.label, job_id: child.jobId },
          },
        ]);
        outcome.summary = await executeChild<typeof cloneCatalogWorkflow>('cloneCatalogWorkflow', {
          workflowId: child.jobId,
          args: [childInput(input, child)],
        });
      } catch (err) {
        if (isCancellation(err)) outcome.cancelled = true;
        else outcome.error = rootCauseMessage(err);
      }
      outcomes[i] = outcome;
      await CancellationScope.nonCancellable(async () => {
        await recordChildEnd(outcome);
        done++;
        const status = childStatus(outcome);
        const error = outcome.summary?.error ?? outcome.error;
        await appendJobEvents(input.jobId, [
          {
            event: status === 'completed' ? 'status' : status === 'cancelled' ? 'warning' : 'error',
            level: status === 'completed' ? 'info' : status === 'cancelled' ? 'warn' : 'error',
            message: `target ${target.label}: ${status}${error ? ` (${error})` : ''}`,
            data: { target: target.label, job_id: child.jobId, status },
          },
        ]);
        await reportJobProgress(input.jobId, { completed: done, total: n, targets: `${done}/${n}` });
      });
      if (CancellationScope.current().consideredCancelled) return;
    }
  };
  await Promise.allSettled(Array.from({ length: parallel }, lane));

  const cancelled = CancellationScope.current().consideredCancelled || outcomes.some((o) => o?.cancelled);
  // Children never started (the fan-out was cancelled first) end cancelled too, so no row stays queued.
  await CancellationScope.nonCancellable(async () => {
    for (let i = 0; i < n; i++) {
      if (outcomes[i]) continue;
      const child = input.children[i];
      const target = input.clone.targets[child.target];
      outcomes[i] = {
        label: target.label,
        jobId: child.jobId,
        destinationCatalog: target.destinationCatalog,
        summary: null,
        error: 'cancelled with its fan-out before it started',
        cancelled: true,
      };
      await recordChildEnd(outcomes[i]!);
    }
  });
  const summary = fanoutSummary(
    input.jobId,
    outcomes as ChildOutcome[],
    Math.round((workflowNow() - startedAt) / 100) / 10,
  );
  if (cancelled && CancellationScope.current().consideredCancelled) {
    // The queue records the fan-out itself as cancelled (or aborted on request_timeout_minutes).
    await CancellationScope.nonCancellable(() =>
      appendJobEvents(input.jobId, [
        {
          event: 'status',
          level: 'warn',
          message: `fan-out cancelled: ${summary.succeeded_targets} of ${n} targets completed`,
          data: { status: 'cancelled' },
        },
      ]),
    );
  }
  return summary;
}

async function recordChildEnd(o: ChildOutcome): Promise<void> {
  await recordJobEnd(
    {
      jobId: o.jobId,
      status: childStatus(o) as FinalJobStatus,
      summary: o.summary,
      error: o.summary?.error ?? o.error,
    },
    'clone',
  );
}
