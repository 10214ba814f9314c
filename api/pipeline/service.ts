import { randomUUID } from 'node:crypto';
import { isFinalJobStatus } from '../../schemas/jobs';
import type { PipelineBody, Step, StepState } from '../../schemas/pipeline';
import { automationCipher } from '../../store/automation/secrets';
import { getJob, type JobRow } from '../../store/jobs/jobs';
import {
  deletePipeline,
  deleteRun,
  getPipeline,
  getRun,
  insertPipeline,
  insertRun,
  pendingSteps,
  type PipelineRow,
  type PipelineRunRow,
} from '../../store/pipeline/repo';
import { ScheduleNotFoundError } from '@temporalio/client';
import {
  PIPELINE_SCHEDULED_WORKFLOW_TYPE,
  approvalSignal,
  pipelineScheduleId,
} from '../../workflows/pipeline/definitions';
import { scheduleSpecOf } from '../schedules/service';
import type { AppDeps } from '../deps';
import { newJobId } from '../jobs/job-id';
import { cancelJob, submitJob } from '../jobs/service';
import { currentCaller } from '../middleware/auth';
import { HttpError, conflict, notFound } from '../middleware/http-error';
import { pipelineJobType } from './job-type';
import { checkPipeline } from './validate';

/** A step as shown: a webhook's sealed secret becomes `secret_set: true`. */
const shownStep = (s: Step): Step => {
  const { secret_sealed: sealed, ...rest } = s.config;
  return sealed ? { ...s, config: { ...rest, secret_set: true } } : s;
};

export function pipelineView(r: PipelineRow) {
  return {
    pipeline_id: r.pipelineId,
    name: r.name,
    description: r.description,
    steps: r.steps.map(shownStep),
    ...(r.schedule ? { schedule: r.schedule } : {}),
    created_by: r.createdBy,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

export async function createPipeline(deps: AppDeps, body: PipelineBody): Promise<PipelineRow> {
  const checked = checkPipeline(body, automationCipher(deps.config));
  const pipelineId = randomUUID().replace(/-/g, '').slice(0, 12);
  const spec = body.schedule ? scheduleSpecOf(body.schedule, 'schedule.cron') : null;
  const row = await insertPipeline(deps.store.db, {
    pipelineId,
    name: checked.name,
    description: checked.description,
    steps: checked.steps,
    schedule: body.schedule ?? null,
    createdBy: currentCaller().name,
  });
  if (spec) {
    if (!deps.temporal)
      throw new HttpError(503, 'TEMPORAL_UNAVAILABLE', 'Temporal is not configured; a schedule needs it');
    await deps.temporal.client.schedule.create({
      scheduleId: pipelineScheduleId(pipelineId),
      spec,
      action: {
        type: 'startWorkflow',
        workflowType: PIPELINE_SCHEDULED_WORKFLOW_TYPE,
        taskQueue: deps.config.temporal.task_queue,
        args: [{ pipelineId }],
      },
      policies: { overlap: 'SKIP' },
      ...(body.schedule?.paused ? { state: { paused: true, note: 'created paused (schedule.paused)' } } : {}),
    });
  }
  return row;
}

/** Deletes a pipeline and its Schedule (its runs stay). */
export async function removePipeline(deps: AppDeps, id: string): Promise<void> {
  const row = await requirePipeline(deps, id);
  if (row.schedule && deps.temporal)
    await deps.temporal.client.schedule
      .getHandle(pipelineScheduleId(id))
      .delete()
      .catch((err: unknown) => {
        if (!(err instanceof ScheduleNotFoundError)) throw err;
      });
  await deletePipeline(deps.store.db, id);
}

export async function requirePipeline(deps: AppDeps, id: string): Promise<PipelineRow> {
  const row = await getPipeline(deps.store.db, id);
  if (!row) throw notFound(`no pipeline ${id}`);
  return row;
}

/** Queues a run: a `pipeline` job running a snapshot of the definition (run_id = job_id). */
export async function runPipeline(deps: AppDeps, id: string): Promise<{ job_id: string; run_id: string }> {
  const p = await requirePipeline(deps, id);
  const jobId = newJobId('pipeline');
  await insertRun(deps.store.db, {
    runId: jobId,
    pipelineId: p.pipelineId,
    pipelineName: p.name,
    definition: p.steps,
    steps: pendingSteps(p.steps),
  });
  try {
    await submitJob(deps, pipelineJobType, {
      jobId,
      input: { jobId, pipelineId: p.pipelineId, steps: p.steps },
      createdAt: new Date(),
      row: { request: { pipeline_id: p.pipelineId, pipeline_name: p.name } },
    });
  } catch (err) {
    await deleteRun(deps.store.db, jobId);
    throw err;
  }
  return { job_id: jobId, run_id: jobId };
}

type RunStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
/** The run's status is its job's (cancelling is still running; aborted is failed). */
function runStatus(job: JobRow | undefined): RunStatus {
  const s = job?.status ?? 'queued';
  if (s === 'cancelling') return 'running';
  if (s === 'aborted') return 'failed';
  return s as RunStatus;
}

export async function runView(deps: AppDeps, r: PipelineRunRow) {
  const job = await getJob(deps.store.db, r.runId);
  return {
    run_id: r.runId,
    job_id: r.runId,
    pipeline_id: r.pipelineId,
    pipeline_name: r.pipelineName,
    status: runStatus(job),
    steps: r.steps,
    error: job?.error ?? null,
    created_at: r.createdAt.toISOString(),
    completed_at: job?.completedAt?.toISOString() ?? null,
  };
}

export async function requireRun(deps: AppDeps, runId: string): Promise<PipelineRunRow> {
  const r = await getRun(deps.store.db, runId);
  if (!r) throw notFound(`no pipeline run ${runId}`);
  return r;
}

/** Cancels a run through the kernel (its child job is cancelled, the remaining steps skipped); 409 once ended. */
export async function cancelRun(deps: AppDeps, runId: string) {
  await requireRun(deps, runId);
  return cancelJob(deps, runId, 'pipeline');
}

/** Approves or rejects a step waiting for approval (409 when that step is not waiting). */
export async function decideStep(deps: AppDeps, runId: string, step: string, approved: boolean) {
  const r = await requireRun(deps, runId);
  const state = r.steps.find((s: StepState) => s.name === step);
  if (!state) throw notFound(`run ${runId} has no step ${step}`);
  const job = await getJob(deps.store.db, runId);
  if (state.status !== 'waiting_approval' || (job && isFinalJobStatus(job.status)))
    throw conflict(`step ${step} of run ${runId} is not waiting for approval (${state.status})`);
  if (!deps.temporal) throw new HttpError(503, 'TEMPORAL_UNAVAILABLE', 'Temporal is not configured');
  const by = currentCaller().name;
  await deps.temporal.client.workflow.getHandle(runId).signal(approvalSignal, { step, approved, by });
  return { run_id: runId, step, decision: approved ? ('approved' as const) : ('rejected' as const), by };
}
