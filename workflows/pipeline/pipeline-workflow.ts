import {
  ActivityCancellationType,
  CancellationScope,
  condition,
  isCancellation,
  patched,
  proxyActivities,
  setHandler,
  sleep,
} from '@temporalio/workflow';
import { rootCauseMessage } from '../../activities/jobs/logic/root-cause';
import type { PipelineActivities } from '../../activities/pipeline';
import type { PipelineJobInput, Step, StepStatus } from '../../schemas/pipeline';
import { undoPlanOf } from '../../activities/pipeline/logic/undo';
import { approvalSignal, type ApprovalDecision, type PipelineResult } from './definitions';
import { RECORD_UNDO_PATCH, rollBack } from './rollback';

const JOB_STEPS = new Set(['clone', 'sync', 'dq_run']);

const { setPipelineStep, cancelPipelineChild, recordPipelineStepBefore } = proxyActivities<PipelineActivities>({
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
  const logs: (string | null)[] = input.steps.map(() => null);

  const runStep = async (i: number, step: Step): Promise<Record<string, unknown>> => {
    // A step that changes tables: their state before it (kept across its attempts) is what a rollback restores.
    // Runs begun before this record existed replay without it (their histories have no such activity).
    if (['record', 'record_sync'].includes(undoPlanOf(step).kind) && patched(RECORD_UNDO_PATCH))
      logs[i] ??= await recordPipelineStepBefore({ runId, step });
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
    const undo = await rollBack({ runId, steps: input.steps, status, childIds, logs, outputs }, set);
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
