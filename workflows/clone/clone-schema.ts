import {
  ActivityFailure,
  ApplicationFailure,
  continueAsNew,
  getExternalWorkflowHandle,
  isCancellation,
  workflowInfo,
} from '@temporalio/workflow';
import { limitsAt } from '../../activities/safety/throttle/limits';
import { runThrottled } from '../../activities/safety/throttle/pool';
import { workflowClock } from '../rollback/throttle-clock';
import { cloneActivities } from './activity-proxies';
import type { TableResult } from './definitions';
import type { SchemaJobInput, SchemaResult, TablePlanEntry, Totals } from './engine-types';
import { batchTables, DEFAULT_HISTORY_LIMITS, schemaProgressSignal, type HistoryLimits } from './signals';
import { addObjects, addTable, addWarnings, emptyTotals, settleAll } from './totals';

export interface SchemaWorkflowInput extends SchemaJobInput {
  limits?: HistoryLimits;
  /** Tables in the schema's plan (planned + skipped), carried across continue-as-new for progress. */
  planned?: number;
}

/**
 * One schema of one target: create the schema, its functions (row filters and masks use them), then its
 * tables — one activity per table or per small batch of small tables, at most parallel_tables activities
 * at a time — then views in dependency order, then
 * volumes, then the post-schema steps. After `tablesPerRun` tables it continues as new with the rest.
 */
export async function cloneSchemaWorkflow(input: SchemaWorkflowInput): Promise<SchemaResult> {
  const { ctx, schema } = input;
  const limits = input.limits ?? DEFAULT_HISTORY_LIMITS;
  const acts = cloneActivities(input.retry);
  const cross = ctx.crossWorkspace;
  const o = ctx.options;
  const parentId = input.resume?.parentWorkflowId ?? workflowInfo().parent?.workflowId ?? null;
  const totals: Totals = input.resume?.totals ?? emptyTotals();
  let tables: TablePlanEntry[];
  let planned = input.planned ?? 0;

  if (!input.resume) {
    const plan = await acts.prepareSchema({ ctx, schema });
    totals.tables_skipped += plan.skipped;
    addWarnings(totals, plan.warnings);
    if (!cross || o.clone_functions) addObjects(totals, 'functions', await acts.cloneFunctions({ ctx, schema }));
    tables = plan.tables;
    planned = plan.tables.length + plan.skipped;
  } else {
    tables = input.resume.tables;
  }

  const report = async () => {
    if (!parentId) return;
    await getExternalWorkflowHandle(parentId).signal(schemaProgressSignal, {
      childId: workflowInfo().workflowId,
      planned,
      completed: totals.tables_cloned,
      failed: totals.tables_failed,
      skipped: totals.tables_skipped,
      bytes: totals.bytes_copied,
    });
  };
  if (!input.resume) await report();

  const thisRun = tables.slice(0, limits.tablesPerRun);
  const batches = batchTables(thisRun, limits);
  let sinceReport = 0;
  // parallel_tables is read from the throttle preset in force each time a batch starts; the job-wide
  // tables_per_minute cap is enforced by the table activities (activities/safety/hooks).
  const settled = await runThrottled(
    batches,
    (now) => ({ ...limitsAt(o, new Date(now)), tables_per_minute: 0 }),
    async (batch) => {
      for (const r of await cloneOrRecordFailure(acts, input, batch)) addTable(totals, r);
      sinceReport += batch.length;
      if (sinceReport >= limits.progressEvery) {
        sinceReport = 0;
        await report();
      }
    },
    workflowClock,
  );
  await settleAll(settled.map((r) => (r.status === 'rejected' ? Promise.reject(r.reason) : Promise.resolve())));

  if (tables.length > thisRun.length) {
    await continueAsNew<typeof cloneSchemaWorkflow>({
      ...input,
      limits,
      planned,
      resume: { tables: tables.slice(thisRun.length), totals, parentWorkflowId: parentId ?? '' },
    });
  }

  if (!cross || o.clone_views) addObjects(totals, 'views', await acts.cloneViews({ ctx, schema }));
  if (!cross || o.clone_volumes) addObjects(totals, 'volumes', await acts.cloneVolumes({ ctx, schema }));
  addWarnings(totals, await acts.finishSchema({ ctx, schema, totals }));
  return { schema, target: ctx.target.label, totals };
}

/** A batch whose activity failed for good becomes failed results (recorded with the cause); cancellation propagates. */
async function cloneOrRecordFailure(
  acts: ReturnType<typeof cloneActivities>,
  input: SchemaJobInput,
  batch: TablePlanEntry[],
): Promise<TableResult[]> {
  try {
    return await acts.cloneTables({ ctx: input.ctx, schema: input.schema, tables: batch });
  } catch (err) {
    if (isCancellation(err) || !(err instanceof ActivityFailure)) throw err;
    const cause = err.cause instanceof ApplicationFailure ? err.cause : null;
    const detail = (cause?.details?.[0] ?? {}) as { attempt?: number };
    const attempts = detail.attempt ?? (cause?.nonRetryable ? 1 : input.retry.maximumAttempts);
    return acts.recordBatchFailure({
      ctx: input.ctx,
      schema: input.schema,
      tables: batch.map((t) => t.name),
      error: cause?.message ?? err.message,
      errorType: cause?.type ?? null,
      attempts,
    });
  }
}
