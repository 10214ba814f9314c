import {
  ActivityFailure,
  ApplicationFailure,
  continueAsNew,
  getExternalWorkflowHandle,
  isCancellation,
  workflowInfo,
} from '@temporalio/workflow';
import { limitsAt } from '../../activities/clone/logic/throttle-limits';
import { runThrottled } from './throttle-pool';
import { workflowClock } from './throttle-clock';
import { cloneActivities } from './activity-proxies';
import type { TableResult } from './definitions';
import type { SchemaJobInput, SchemaResult, TablePlanEntry, Totals } from './engine-types';
import { batchTables, DEFAULT_HISTORY_LIMITS, schemaProgressSignal, type HistoryLimits } from './signals';
import { addObjects, addTable, addWarnings, emptyTotals, settleAll } from '../../activities/clone/logic/totals';

export interface SchemaWorkflowInput extends SchemaJobInput {
  limits?: HistoryLimits;
  /** Tables in the schema's plan (planned + skipped), carried across continue-as-new for progress. */
  planned?: number;
}

/**
 * One schema of one target: create the schema and its functions (row filters and masks use them) in one
 * activity, then its tables — one activity per table or per small batch of small tables, at most
 * parallel_tables activities at a time — then views in dependency order, volumes and the post-schema steps
 * in one activity. After `tablesPerRun` tables it continues as new with the rest.
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
    const plan = await acts.prepareSchema({ ctx, schema, functions: !cross || o.clone_functions });
    totals.tables_skipped += plan.skipped;
    addWarnings(totals, plan.warnings);
    if (plan.functions) addObjects(totals, 'functions', plan.functions);
    tables = plan.tables;
    planned = plan.tables.length + plan.skipped;
  } else {
    tables = input.resume.tables;
  }

  // Progress signals are sent without waiting for their delivery (a round trip through the server each):
  // tables keep going meanwhile, and every signal is awaited before this run ends, so a failed one still
  // fails the schema.
  const reports: Promise<void>[] = [];
  const report = () => {
    if (!parentId) return;
    const sent = getExternalWorkflowHandle(parentId).signal(schemaProgressSignal, {
      childId: workflowInfo().workflowId,
      planned,
      completed: totals.tables_cloned,
      failed: totals.tables_failed,
      skipped: totals.tables_skipped,
      bytes: totals.bytes_copied,
    });
    sent.catch(() => undefined);
    reports.push(sent);
  };
  if (!input.resume) report();

  const thisRun = tables.slice(0, limits.tablesPerRun);
  const batches = batchTables(thisRun, limits, limitsAt(o, new Date(), ctx.throttleTimezone).parallel_tables);
  let sinceReport = 0;
  // parallel_tables is read from the throttle preset in force each time a batch starts; the job-wide
  // tables_per_minute cap is enforced by the table activities (activities/clone/post-clone/hooks).
  const settled = await runThrottled(
    batches,
    (now) => ({ ...limitsAt(o, new Date(now), ctx.throttleTimezone), tables_per_minute: 0 }),
    async (batch) => {
      for (const r of await cloneOrRecordFailure(acts, input, batch)) addTable(totals, r);
      sinceReport += batch.length;
      if (sinceReport >= limits.progressEvery) {
        sinceReport = 0;
        report();
      }
    },
    workflowClock,
  );
  await settleAll(settled.map((r) => (r.status === 'rejected' ? Promise.reject(r.reason) : Promise.resolve())));
  await Promise.all(reports);

  if (tables.length > thisRun.length) {
    await continueAsNew<typeof cloneSchemaWorkflow>({
      ...input,
      limits,
      planned,
      resume: { tables: tables.slice(thisRun.length), totals, parentWorkflowId: parentId ?? '' },
    });
  }

  const end = await acts.finishSchema({
    ctx,
    schema,
    totals,
    views: !cross || o.clone_views,
    volumes: !cross || o.clone_volumes,
  });
  if (end.views) addObjects(totals, 'views', end.views);
  if (end.volumes) addObjects(totals, 'volumes', end.volumes);
  addWarnings(totals, end.warnings);
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
