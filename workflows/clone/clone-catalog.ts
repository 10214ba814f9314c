import { CancellationScope, continueAsNew, isCancellation, setHandler } from '@temporalio/workflow';
import type { JobEvent } from '../../activities/clone/target-activities';
import { safetyAfterClone } from './after-clone';
import { withQuiesce } from './quiesce-scope';
import { cloneActivities, retrySettings } from './activity-proxies';
import { cloneProgressQuery, type CloneJobInput, type CloneProgress, type CloneSummary } from './definitions';
import { buildSummary, initialState, progressOf, type JobState } from './job-state';
import { contextFor, rootMessage, runSchemas, workflowNow } from './schema-pool';
import { limitsOf, schemaProgressSignal, type HistoryLimits, type SchemaProgress } from './signals';
import { addWarnings } from '../../activities/clone/logic/totals';

/** Carried by continue-as-new; `limits` given on a first run override the input's (tests use small ones). */
export interface CloneRunState {
  state?: JobState;
  limits?: HistoryLimits;
}

/**
 * A clone job (workflow id = job id). Creates each target's catalog, then runs one child workflow per
 * (target, schema), at most max_workers at a time, checking max_duration_min / max_tables between schemas.
 * Continues as new after `schemasPerRun` schemas so history stays bounded for very large catalogs.
 */
export async function cloneCatalogWorkflow(input: CloneJobInput, resume?: CloneRunState): Promise<CloneSummary> {
  const limits = limitsOf(resume?.limits, input.limits);
  const state = resume?.state ?? initialState(input, workflowNow());
  // A job with a request-rate limit (max_rps, or a throttle preset or schedule) runs every step cancellably.
  const throttled = (input.options.max_rps ?? 0) > 0 || input.options.throttle !== undefined;
  const retry = retrySettings(input.options.enable_retry, input.maxRetries, input.retryInitialIntervalMs, throttled);
  const acts = cloneActivities(retry);
  const running = new Map<string, SchemaProgress>();
  let status: CloneProgress['status'] = 'running';
  const continuing = resume?.state !== undefined;
  let phase = continuing ? 'schemas' : 'starting';
  setHandler(cloneProgressQuery, () => progressOf(state, running, status, phase));
  setHandler(schemaProgressSignal, (p) => {
    if (running.has(p.childId)) running.set(p.childId, p);
  });

  try {
    // quiesce_source: source write grants are revoked around the whole job (workflows/clone/quiesce-scope).
    return await withQuiesce(
      input,
      async () => {
        const runningEvent: JobEvent = {
          jobId: input.jobId,
          event: 'status',
          message: 'job running',
          data: { status: 'running' },
        };
        if (input.options.dry_run) {
          if (!continuing) await acts.emitJobEvent(runningEvent);
          return await dryRun(input, state, acts);
        }
        // The first target's preparation writes the "running" event: one activity less before any work.
        if (!continuing) await prepareTargets(input, state, acts, runningEvent);
        phase = 'schemas';
        const continued = await runSchemas(input, state, limits, retry, running);
        if (continued) await continueAsNew<typeof cloneCatalogWorkflow>(input, { state, limits });
        phase = 'finishing';
        const summary = buildSummary(input, state, workflowNow());
        // Validation, DQ verdict, auto rollback or PII masking (workflows/clone/after-clone).
        Object.assign(
          summary,
          await safetyAfterClone(
            input.targets.map((_, i) => contextFor(input, i)),
            summary,
          ),
        );
        Object.assign(summary, await acts.finishJob(summary));
        status = summary.status;
        return summary;
      },
      { resumed: continuing },
    );
  } catch (err) {
    status = isCancellation(err) ? 'cancelled' : 'failed';
    await CancellationScope.nonCancellable(() =>
      acts.emitJobEvent({
        jobId: input.jobId,
        event: status === 'cancelled' ? 'status' : 'error',
        level: status === 'cancelled' ? 'warn' : 'error',
        message: status === 'cancelled' ? 'job cancelled' : `job failed: ${(err as Error).message}`,
        data: { status, error: (err as Error).message },
      }),
    );
    throw err;
  }
}

async function dryRun(
  input: CloneJobInput,
  state: JobState,
  acts: ReturnType<typeof cloneActivities>,
): Promise<CloneSummary> {
  const plan: string[] = [];
  const warnings: string[] = [];
  for (let i = 0; i < input.targets.length; i++) {
    const r = await acts.planDryRun(contextFor(input, i));
    if (input.targets.length > 1) plan.push(`-- target ${input.targets[i].label}`);
    plan.push(...r.plan);
    warnings.push(...r.warnings);
  }
  const summary = { ...buildSummary(input, state, workflowNow()), mode: 'dry_run' as const, plan, warnings };
  await acts.finishJob(summary);
  return summary;
}

/** A target that cannot be prepared fails the job when it is the only one; in a fan-out it fails alone. */
async function prepareTargets(
  input: CloneJobInput,
  state: JobState,
  acts: ReturnType<typeof cloneActivities>,
  running: JobEvent,
): Promise<void> {
  for (let i = 0; i < input.targets.length; i++) {
    try {
      const plan = await acts.prepareTarget(contextFor(input, i), i === 0 ? running : undefined);
      state.targets[i].schemas = plan.schemas;
      addWarnings(state.targets[i].totals, plan.warnings);
    } catch (err) {
      if (input.targets.length === 1 || isCancellation(err)) throw err;
      state.targets[i].error = rootMessage(err);
      state.targets[i].schemas = [];
      state.targets[i].finishedAtMs = workflowNow();
    }
  }
}
