import { rootCauseMessage } from '../../activities/jobs/logic/root-cause';
import {
  ChildWorkflowFailure,
  condition,
  isCancellation,
  ParentClosePolicy,
  patched,
  startChild,
  TemporalFailure,
  workflowInfo,
} from '@temporalio/workflow';
import { limitsAt } from '../../activities/clone/logic/throttle-limits';
import { DEFAULT_THROTTLE_TIMEZONE } from '../../activities/clone/logic/throttle-schedule';
import type { retrySettings } from './activity-proxies';
import { cloneSchemaWorkflow } from './clone-schema';
import type { CloneJobInput } from './definitions';
import type { PlanCursor, SchemaResult, TablePlanEntry, Totals } from './engine-types';
import type { TargetContext } from './engine-types';
import { runSchema } from './schema-run';
import { budgetExceeded, type JobState } from './job-state';
import type { HistoryLimits, SchemaProgress } from './signals';
import { mergeTotals, settleAll } from '../../activities/clone/logic/totals';

/** The job workflow's pool of schema workflows: at most max_workers at a time, budgets checked between them. */

/** The sandbox's Date is the deterministic workflow clock (time of the current workflow task). */
export const workflowNow = () => new Date().getTime();

export function contextFor(input: CloneJobInput, i: number): TargetContext {
  const t = input.targets[i];
  const s = input.source;
  const same =
    s.kind === t.workspace.kind &&
    (s.kind === 'local' ? s.root === (t.workspace as typeof s).root : s.host === (t.workspace as typeof s).host);
  return {
    jobId: input.jobId,
    options: input.options,
    source: s,
    target: t,
    crossWorkspace: !same,
    throttleTimezone: input.throttleTimezone ?? DEFAULT_THROTTLE_TIMEZONE,
  };
}

/** The root cause with its step (activities/jobs/logic/root-cause), never "Activity task failed". */
export const rootMessage = rootCauseMessage;

/**
 * A job with one schema runs it inside the job workflow (no child workflow to start and wait for: a few round
 * trips through the server less per job); its tables beyond the first `tablesPerRun` still go to a schema
 * workflow, so history stays bounded. Jobs recorded before this existed replay with their child workflow.
 */
export const INLINE_SINGLE_SCHEMA = 'clone-inline-single-schema';

/** Runs the schemas (children, or the one schema inline); returns true when this run should continue as new. */
export async function runSchemas(
  input: CloneJobInput,
  state: JobState,
  limits: HistoryLimits,
  retry: ReturnType<typeof retrySettings>,
  running: Map<string, SchemaProgress>,
): Promise<boolean> {
  let started = 0;
  let active = 0;
  let stop = false;
  const pending: Promise<void>[] = [];
  const single =
    state.targets.length === 1 && state.targets[0].nextSchema === 0 && state.targets[0].schemas?.length === 1;
  for (let ti = 0; ti < state.targets.length; ti++) {
    const t = state.targets[ti];
    while (t.schemas && t.nextSchema < t.schemas.length && !stop) {
      // The throttle preset in force now decides how many schemas run at once.
      await condition(
        () => active < limitsAt(input.options, new Date(workflowNow()), input.throttleTimezone).max_workers,
      );
      if (state.abortReason || stop) break;
      const info = workflowInfo();
      const full = limits.eventsPerRun !== undefined && info.historyLength >= limits.eventsPerRun;
      if (started >= limits.schemasPerRun || info.continueAsNewSuggested || full) {
        stop = true;
        break;
      }
      const schema = t.schemas[t.nextSchema++];
      const childId = `${input.jobId}--${ti}--${schema}`;
      started += 1;
      active += 1;
      running.set(childId, { childId, planned: 0, completed: 0, failed: 0, skipped: 0, bytes: 0 });
      const inline = single && patched(INLINE_SINGLE_SCHEMA);
      pending.push(
        runOneSchema(input, ti, schema, childId, retry, limits, state, inline ? running : null).finally(() => {
          active -= 1;
          running.delete(childId);
          state.schemasDone += 1;
          state.abortReason ??= budgetExceeded(input, state, workflowNow());
        }),
      );
    }
  }
  await settleAll(pending);
  const more = state.targets.some((t) => t.schemas && t.nextSchema < t.schemas.length);
  for (const t of state.targets) if (!(t.schemas && t.nextSchema < t.schemas.length)) t.finishedAtMs ??= workflowNow();
  return more && !state.abortReason;
}

async function runOneSchema(
  input: CloneJobInput,
  ti: number,
  schema: string,
  childId: string,
  retry: ReturnType<typeof retrySettings>,
  limits: HistoryLimits,
  state: JobState,
  inline: Map<string, SchemaProgress> | null,
): Promise<void> {
  const target = state.targets[ti];
  const ctx = contextFor(input, ti);
  const child = async (args: Parameters<typeof cloneSchemaWorkflow>[0]): Promise<SchemaResult> => {
    const handle = await startChild(cloneSchemaWorkflow, {
      workflowId: childId,
      args: [args],
      parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
    });
    return handle.result();
  };
  try {
    const result = inline
      ? await runSchema({ ctx, schema, retry }, limits, {
          report: (counts) => void inline.set(childId, { childId, ...counts }),
          handOff: (tables: TablePlanEntry[], totals: Totals, planned: number, next?: PlanCursor) =>
            child({
              ctx,
              schema,
              retry,
              limits,
              planned,
              resume: { tables, totals, parentWorkflowId: input.jobId, ...(next ? { next } : {}) },
            }),
        })
      : await child({ ctx, schema, retry, limits });
    mergeTotals(target.totals, result.totals);
  } catch (err) {
    // A schema that failed (its workflow, or inline one of its steps) fails alone; cancellation ends the job.
    const failed = inline ? err instanceof TemporalFailure : err instanceof ChildWorkflowFailure;
    if (isCancellation(err) || !failed) throw err;
    const message = rootMessage(err);
    target.totals.objects_failed += 1;
    state.schemaErrors.push(`${target.label}: schema ${schema} failed: ${message}`);
    target.error ??= `schema ${schema} failed: ${message}`;
  }
}
