import { executeChild, patched, proxyActivities } from '@temporalio/workflow';
import { rootCauseMessage } from '../../activities/jobs/logic/root-cause';
import type { PipelineActivities } from '../../activities/pipeline';
import { undoPlanOf } from '../../activities/pipeline/logic/undo';
import type { Step, StepStatus } from '../../schemas/pipeline';
import { rollbackWorkflowId, type RollbackResult } from '../clone/rollback-definitions';

const { pipelineRollbackLogs } = proxyActivities<PipelineActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 10 },
});

/**
 * The patch that added undo records (a rollback log taken before a sync, an optimize or a writing custom_sql) and
 * the per-kind reasons written for steps that are not undone. A run begun before it replays the earlier code
 * path: no record activity before a step, and a rollback that undoes clone steps only, leaving others untouched.
 */
export const RECORD_UNDO_PATCH = 'pipeline-record-undo-state';

export type SetStep = (
  i: number,
  s: StepStatus,
  patch?: Record<string, unknown>,
  stamp?: 'started' | 'completed',
) => unknown;

/** What the run knows of its steps when one fails with on_failure rollback. */
export interface RunState {
  runId: string;
  steps: Step[];
  status: StepStatus[];
  /** A job step's child job id. */
  childIds: (string | null)[];
  /** The rollback log recorded before a step that changes tables ran. */
  logs: (string | null)[];
  outputs: (Record<string, unknown> | null)[];
}

async function logsOf(run: RunState, i: number): Promise<{ ids: string[]; missing?: string }> {
  const plan = undoPlanOf(run.steps[i]);
  if (plan.kind === 'none') return { ids: [], missing: plan.reason };
  if (plan.kind === 'clone_job') {
    const jobId = run.childIds[i];
    const ids = jobId ? await pipelineRollbackLogs({ jobId }) : [];
    return ids.length
      ? { ids }
      : { ids, missing: `clone job ${jobId} recorded no rollback log (enable_rollback false?)` };
  }
  const log = run.logs[i];
  return log ? { ids: [log] } : { ids: [], missing: 'no record of its tables before it ran' };
}

/**
 * on_failure rollback: the steps that succeeded before the failed one, newest first. Each rollback log of a step
 * (a clone job's own; the before-image of an optimize, a sync or a writing custom_sql) is replayed by the clone
 * rollback workflow as a child workflow: tables back to their versions before the run, objects the step created
 * dropped; the step becomes rolled_back. A step kind that cannot be undone, or whose rollback failed, stays
 * succeeded and says why in its error.
 */
export async function rollBack(run: RunState, set: SetStep): Promise<{ rolledBack: string[]; summary: string }> {
  const rolledBack: string[] = [];
  const kept: string[] = [];
  const perKind = patched(RECORD_UNDO_PATCH);
  for (let i = run.steps.length - 1; i >= 0; i--) {
    if (run.status[i] !== 'succeeded') continue;
    const step = run.steps[i];
    if (!perKind && (step.type !== 'clone' || !run.childIds[i])) {
      kept.push(step.name); // the earlier code: only a clone step with its job was undone, others left as they were
      continue;
    }
    const results: RollbackResult[] = [];
    let error: string | null = null;
    try {
      const { ids, missing } = await logsOf(run, i);
      if (missing) error = `not undone: ${missing}`;
      for (const logId of ids)
        results.push(
          await executeChild<(input: { rollbackId: string; reason?: string }) => Promise<RollbackResult>>(
            'rollbackWorkflow',
            {
              workflowId: `${rollbackWorkflowId(logId)}-${run.runId}`,
              args: [{ rollbackId: logId, reason: `pipeline run ${run.runId}: on_failure rollback` }],
            },
          ),
        );
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
      steps: r.steps,
    }));
    const output = results.length ? { ...run.outputs[i], rollback } : run.outputs[i];
    if (error) {
      kept.push(step.name);
      await set(i, 'succeeded', { output, error });
    } else {
      rolledBack.push(step.name);
      await set(i, 'rolled_back', { output });
    }
  }
  const summary =
    `rolled back: ${rolledBack.length ? rolledBack.join(', ') : 'nothing'}` +
    (kept.length ? `; not undone: ${kept.join(', ')}` : '');
  return { rolledBack, summary };
}
