import { Context } from '@temporalio/activity';
import type { Step, StepState } from '../../schemas/pipeline';
import type { Workspace } from '../../platform/port';
import { rollbackLogsForJob } from '../../store/clone/rollback-logs';
import type { WorkspaceRef } from '../../workflows/clone/definitions';
import { recordBeforeChange } from '../clone/rollback/activities';
import { stepLogJobId, undoPlanOf } from './logic/undo';
import { getJob } from '../../store/jobs/jobs';
import { patchStep } from '../../store/pipeline/repo';
import { JOB_STEPS, isJobStep, runInlineStep, services, stepFailed, type StepDeps } from './steps';

export type { StepDeps as PipelineActivityDeps } from './steps';

/** How often a step waiting for its child job reads the job's row (and heartbeats). */
const CHILD_POLL_MS = 500;

type ObjectKind = 'catalog' | 'schema' | 'table' | 'view' | 'function' | 'volume';

/** How the clone rollback workflow's worker finds the workspace again (the default one: a local root or the host). */
function refOf(ws: Workspace): WorkspaceRef {
  if (ws.kind === 'local') return { kind: 'local', root: ws.id };
  return { kind: 'databricks', host: ws.id, warehouseId: (ws as unknown as { warehouseId: string }).warehouseId };
}

export function createPipelineActivities(deps: StepDeps) {
  const db = deps.store.db;
  return {
    /** Records a step's state (timestamps from the activity's clock: workflows keep none). */
    async setPipelineStep(input: {
      runId: string;
      index: number;
      patch: Partial<StepState>;
      stamp?: 'started' | 'completed';
    }): Promise<void> {
      const at = new Date().toISOString();
      const stamp =
        input.stamp === 'started'
          ? { started_at: at, completed_at: null }
          : input.stamp === 'completed'
            ? { completed_at: at }
            : {};
      await patchStep(db, input.runId, input.index, { ...input.patch, ...stamp });
    },

    /** Runs a step that is not a job, a wait or an approval (validate, gate, contract_validate, optimize, …). */
    async runPipelineStep(input: { runId: string; step: Step }): Promise<Record<string, unknown>> {
      return runInlineStep(deps, input.runId, input.step);
    },

    /** Submits a job step's child job through the kernel as its route does; records and answers its id. */
    async startPipelineChild(input: { runId: string; index: number; step: Step }): Promise<string> {
      if (!isJobStep(input.step.type)) throw stepFailed(`${input.step.type} is not a job step`);
      const { job_id } = await services(deps).startJob(JOB_STEPS[input.step.type], input.step.config);
      await patchStep(db, input.runId, input.index, { child_job_id: job_id });
      return job_id;
    },

    /**
     * Waits for a child job's end (heartbeating, so a cancelled run stops waiting at once); a job that did not
     * complete fails the step with its error. Answers the job's record fields as the step's output.
     */
    async awaitPipelineChild(input: { jobId: string }): Promise<Record<string, unknown>> {
      const ctx = Context.current();
      for (;;) {
        const row = await getJob(db, input.jobId);
        if (!row) throw stepFailed(`child job ${input.jobId} is gone`);
        if (row.completedAt) {
          const out = {
            job_id: row.jobId,
            job_type: row.jobType,
            status: row.status,
            error: row.error ?? null,
            summary: row.summary ?? null,
          };
          if (row.status !== 'completed')
            throw stepFailed(`${row.jobType} job ${row.jobId} ${row.status}: ${row.error ?? ''}`, out);
          return out;
        }
        ctx.heartbeat();
        await ctx.sleep(CHILD_POLL_MS);
      }
    },

    /** A scheduled run: queued through the kernel as POST …/run does; answers its job id. */
    async queueScheduledPipelineRun(input: { pipelineId: string }): Promise<string> {
      return (await services(deps).startJob('run_pipeline', { pipeline_id: input.pipelineId })).job_id;
    },

    /** The rollback logs a child clone job recorded (its before-images), newest first: what a rollback undoes. */
    async pipelineRollbackLogs(input: { jobId: string }): Promise<string[]> {
      const logs = await rollbackLogsForJob(db, input.jobId);
      return logs.sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).map((l) => l.id);
    },

    /**
     * Before a step that changes tables runs: whether each table (and a sync's destination schema) exists and its
     * version, kept as the step's rollback log (the first record of an object wins, so a retried attempt keeps the
     * pre-run state). Answers the log's id, or null for a step kind that changes no table.
     */
    async recordPipelineStepBefore(input: { runId: string; step: Step }): Promise<string | null> {
      const plan = undoPlanOf(input.step);
      if (plan.kind !== 'record' && plan.kind !== 'record_sync') return null;
      const ws = await deps.workspaces.default();
      let objects: { type: ObjectKind; fqn: string }[] = plan.kind === 'record' ? plan.objects : [];
      if (plan.kind === 'record_sync') {
        const { source: src, destination: dst } = plan;
        // Everything of the source schema the sync may bring into the destination schema.
        const [tables, views, functions, volumes] = await Promise.all([
          ws.listTables(src.catalog, src.schema),
          ws.listViews(src.catalog, src.schema),
          ws.listFunctions(src.catalog, src.schema),
          ws.listVolumes(src.catalog, src.schema),
        ]);
        const at = (type: ObjectKind, name: string) => ({ type, fqn: `${dst.catalog}.${dst.schema}.${name}` });
        objects = [
          { type: 'catalog', fqn: dst.catalog },
          { type: 'schema', fqn: `${dst.catalog}.${dst.schema}` },
          ...tables.map((t) => at('table', t.name)),
          ...views.map((v) => at('view', v.name)),
          ...functions.map((f) => at('function', f.name)),
          ...volumes.map((v) => at('volume', v.name)),
        ];
      }
      const catalog = objects[0].fqn.split('.')[0];
      return recordBeforeChange(
        { db, resolveWorkspace: async () => ws },
        {
          jobId: stepLogJobId(input.runId, input.step.name),
          sourceCatalog: catalog,
          target: { label: 'pipeline-step', workspace: refOf(ws), destinationCatalog: catalog },
          objects,
        },
      );
    },

    /** Cancels a child job (the run was cancelled); an ended job is left as it is. */
    async cancelPipelineChild(input: { jobId: string }): Promise<void> {
      const row = await getJob(db, input.jobId);
      if (!row || row.completedAt) return;
      await services(deps).cancelJob(input.jobId);
    },
  };
}

export type PipelineActivities = ReturnType<typeof createPipelineActivities>;
