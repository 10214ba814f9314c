import {
  ActivityCancellationType,
  CancellationScope,
  condition,
  executeChild,
  isCancellation,
  proxyActivities,
  setHandler,
  sleep,
} from '@temporalio/workflow';
import { rootCauseMessage } from '../../activities/jobs/logic/root-cause';
import type { PipelineActivities } from '../../activities/pipeline';
import type { PipelineJobInput, Step, StepStatus } from '../../schemas/pipeline';
import { rollbackWorkflowId, type RollbackResult } from '../clone/rollback-definitions';
import { approvalSignal, type ApprovalDecision, type PipelineResult } from './definitions';

const JOB_STEPS = new Set(['clone', 'sync', 'dq_run']);

const { setPipelineStep, cancelPipelineChild, pipelineRollbackLogs } = proxyActivities<PipelineActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 10 },
});
// A step's own work: transient errors retry here; StepFailed is final for the attempt (on_failure decides).
const { runPipelineStep, startPipelineChild } = proxyActivities<PipelineActivities>({
  startToCloseTimeout: '6 hours',
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: ['StepFailed', 'InvalidInput'] },
});
// Waiting for a child job heartbeats, so a cancelled run stops waiting at once.
const { awaitPipelineChild } = proxyActivities<PipelineActivities>({
  startToCloseTimeout: '7 days',
  heartbeatTimeout: '30 seconds',
  retry: { maximumAttempts: 5, nonRetryableErrorTypes: ['StepFailed'] },
  cancellationType: ActivityCancellationType.TRY_CANCEL,
});

const attemptsOf = (s: Step) => (typeof s.on_failure === 'object' ? s.on_failure.retry + 1 : 1);

/**
 * A pipeline run (job type `pipeline`): the definition's snapshot, step by step. A step is retried per its
 * on_failure `{retry: N}`; a failed step stops the run (`stop`) or not (`continue`); the steps after a stop are
 * skipped. Cancel (through the kernel) cancels the child job in flight and skips what is left.
 */
export async function pipelineWorkflow(input: PipelineJobInput): Promise<PipelineResult> {
  const runId = input.jobId;
  const decisions = new Map<string, ApprovalDecision>();
  setHandler(approvalSignal, (d) => void decisions.set(d.step, d));
  const status: StepStatus[] = input.steps.map(() => 'pending');
  const set = (index: number, s: StepStatus, patch: Record<string, unknown> = {}, stamp?: 'started' | 'completed') => {
    status[index] = s;
    return setPipelineStep({ runId, index, patch: { status: s, ...patch }, stamp });
  };
  let current = -1;
  let child: string | null = null;
  let failure: string | null = null;
  let failedStep: Step | null = null;
  const childIds: (string | null)[] = input.steps.map(() => null);
  const outputs: (Record<string, unknown> | null)[] = input.steps.map(() => null);

  const runStep = async (i: number, step: Step): Promise<Record<string, unknown>> => {
    if (JOB_STEPS.has(step.type)) {
      child = await startPipelineChild({ runId, index: i, step });
      childIds[i] = child;
      const out = await awaitPipelineChild({ jobId: child });
      child = null;
      return out;
    }
    if (step.type === 'wait') {
      await sleep((step.config.seconds as number) * 1000);
      return { waited_seconds: step.config.seconds };
    }
    if (step.type === 'approval') {
      await set(i, 'waiting_approval');
      await condition(() => decisions.has(step.name));
      const d = decisions.get(step.name)!;
      if (!d.approved) throw new Error(`rejected by ${d.by}`);
      return { approved_by: d.by };
    }
    return runPipelineStep({ runId, step });
  };

  try {
    for (const [i, step] of input.steps.entries()) {
      if (failure) {
        await set(i, 'skipped', {}, 'completed');
        continue;
      }
      current = i;
      let error = '';
      let output: Record<string, unknown> | null = null;
      for (let attempt = 1; attempt <= attemptsOf(step) && output === null; attempt++) {
        await set(i, 'running', { attempts: attempt, error: null, child_job_id: null }, 'started');
        try {
          output = await runStep(i, step);
        } catch (err) {
          if (isCancellation(err)) throw err;
          error = rootCauseMessage(err);
          child = null;
        }
      }
      if (output) {
        outputs[i] = output;
        await set(i, 'succeeded', { output }, 'completed');
      } else {
        await set(i, 'failed', { error }, 'completed');
        if (step.on_failure !== 'continue') {
          failure = `step ${step.name} failed: ${error}`;
          failedStep = step;
        }
      }
    }
  } catch (err) {
    if (!isCancellation(err)) throw err;
    await CancellationScope.nonCancellable(async () => {
      if (child) await cancelPipelineChild({ jobId: child });
      for (const [i] of input.steps.entries()) {
        if (i === current && ['running', 'waiting_approval'].includes(status[i]))
          await set(i, 'cancelled', { error: 'the run was cancelled' }, 'completed');
        else if (status[i] === 'pending') await set(i, 'skipped', {}, 'completed');
      }
    });
    throw err;
  }
  let rolledBack: string[] | undefined;
  if (failure && failedStep?.on_failure === 'rollback') {
    const undo = await rollBack(runId, input.steps, status, childIds, outputs, set);
    rolledBack = undo.rolledBack;
    failure += `; ${undo.summary}`;
  }
  return {
    status: failure ? 'failed' : 'completed',
    error: failure,
    steps: input.steps.map((s, i) => ({ name: s.name, status: status[i] })),
    ...(rolledBack ? { rolled_back: rolledBack } : {}),
  };
}

type SetStep = (i: number, s: StepStatus, patch?: Record<string, unknown>, stamp?: 'started' | 'completed') => unknown;

/**
 * on_failure rollback: the steps that succeeded before the failed one, newest first. A clone step is undone by
 * the clone rollback workflow over each rollback log of its job (tables restored to their pre-run versions,
 * objects it created dropped) and becomes rolled_back; a step with nothing to undo (a read, a notification) or
 * a rollback that failed keeps succeeded and says why in its error.
 */
async function rollBack(
  runId: string,
  steps: Step[],
  status: StepStatus[],
  childIds: (string | null)[],
  outputs: (Record<string, unknown> | null)[],
  set: SetStep,
): Promise<{ rolledBack: string[]; summary: string }> {
  const rolledBack: string[] = [];
  const kept: string[] = [];
  for (let i = steps.length - 1; i >= 0; i--) {
    if (status[i] !== 'succeeded') continue;
    const step = steps[i];
    const jobId = childIds[i];
    if (step.type !== 'clone' || !jobId) {
      kept.push(step.name);
      continue;
    }
    const results: RollbackResult[] = [];
    let error: string | null = null;
    try {
      for (const logId of await pipelineRollbackLogs({ jobId })) {
        results.push(
          await executeChild<(input: { rollbackId: string; reason?: string }) => Promise<RollbackResult>>(
            'rollbackWorkflow',
            {
              workflowId: `${rollbackWorkflowId(logId)}-${runId}`,
              args: [{ rollbackId: logId, reason: `pipeline run ${runId}: on_failure rollback` }],
            },
          ),
        );
      }
      if (results.length === 0) error = `clone job ${jobId} recorded no rollback log (enable_rollback false?)`;
      const bad = results.find((r) => r.status !== 'rolled_back');
      if (bad) error = `rollback ${bad.rollback_id} ${bad.status}: ${bad.failed} object(s) failed`;
    } catch (err) {
      error = `rollback failed: ${rootCauseMessage(err)}`;
    }
    const rollback = results.map((r) => ({
      rollback_id: r.rollback_id,
      status: r.status,
      restored: r.restored,
      dropped: r.dropped,
      failed: r.failed,
    }));
    if (error) {
      kept.push(step.name);
      await set(i, 'succeeded', { output: { ...outputs[i], rollback }, error });
    } else {
      rolledBack.push(step.name);
      await set(i, 'rolled_back', { output: { ...outputs[i], rollback } });
    }
  }
  const summary =
    `rolled back: ${rolledBack.length ? rolledBack.join(', ') : 'nothing'}` +
    (kept.length ? `; not undone: ${kept.join(', ')}` : '');
  return { rolledBack, summary };
}
