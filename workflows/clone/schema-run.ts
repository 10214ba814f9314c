import { ActivityFailure, ApplicationFailure, isCancellation, patched } from '@temporalio/workflow';
import { limitsAt } from '../../activities/clone/logic/throttle-limits';
import { addObjects, addTable, addWarnings, emptyTotals, settleAll } from '../../activities/clone/logic/totals';
import type { SchemaEnd } from '../../activities/clone/schema-activities';
import { cloneActivities } from './activity-proxies';
import type { TableResult } from './definitions';
import type { PlanCursor, SchemaJobInput, SchemaResult, TablePlanEntry, Totals } from './engine-types';
import { batchTables, type HistoryLimits } from './signals';
import { runThrottled } from './throttle-pool';
import { workflowClock } from './throttle-clock';

/** A schema with one batch ends in that batch's activity (cloneTablesAndFinish); older runs replay without. */
export const FINISH_WITH_BATCH = 'clone-finish-with-batch';

/** One schema's counts as the job's progress shows them. */
export interface SchemaCounts {
  planned: number;
  completed: number;
  failed: number;
  skipped: number;
  bytes: number;
}

/** Where a schema run sends its progress and what it does with tables beyond `tablesPerRun`. */
export interface SchemaRunner {
  /** Progress so far (a schema workflow signals its job; a schema run inside the job sets it directly). */
  report(counts: SchemaCounts): void;
  /** Called before the schema's end steps (a schema workflow awaits its signals here). */
  settle?(): Promise<void>;
  /**
   * Hands the tables left after this run to a next run (continue-as-new, or a schema workflow started by the
   * job) and returns that run's result, which includes `totals` so far.
   */
  handOff(rest: TablePlanEntry[], totals: Totals, planned: number, next?: PlanCursor): Promise<SchemaResult>;
}

/**
 * The steps of one schema of one target: create the schema and its functions (row filters and masks use
 * them) in one activity, then its tables — one activity per table or per small batch of small tables, at
 * most parallel_tables activities at a time — then views in dependency order, volumes and the post-schema
 * steps in one activity. The plan comes a page of `tablesPerRun` tables at a time (a big schema's whole plan
 * would not fit in one payload); the tables after this run's go to `runner.handOff` (as the next page's start).
 */
export async function runSchema(
  input: SchemaJobInput & { planned?: number },
  limits: HistoryLimits,
  runner: SchemaRunner,
): Promise<SchemaResult> {
  const { ctx, schema } = input;
  const acts = cloneActivities(input.retry);
  const cross = ctx.crossWorkspace;
  const o = ctx.options;
  const totals: Totals = input.resume?.totals ?? emptyTotals();
  let tables: TablePlanEntry[];
  let next: PlanCursor | undefined;
  let planned = input.planned ?? 0;
  const page = { limit: limits.tablesPerRun };
  const report = () =>
    runner.report({
      planned,
      completed: totals.tables_cloned,
      failed: totals.tables_failed,
      skipped: totals.tables_skipped,
      bytes: totals.bytes_copied,
    });

  if (!input.resume) {
    const plan = await acts.prepareSchema({ ctx, schema, functions: !cross || o.clone_functions, page });
    totals.tables_skipped += plan.skipped;
    addWarnings(totals, plan.warnings);
    if (plan.functions) addObjects(totals, 'functions', plan.functions);
    tables = plan.tables;
    next = plan.next ?? undefined;
    // A plan recorded before pages existed holds the whole schema (and no `planned`).
    planned = plan.planned ?? plan.tables.length + plan.skipped;
    report();
  } else if (input.resume.next) {
    const plan = await acts.prepareSchema({ ctx, schema, page: { ...page, after: input.resume.next } });
    totals.tables_skipped += plan.skipped;
    tables = plan.tables;
    next = plan.next ?? undefined;
    if (plan.skipped) report();
  } else {
    tables = input.resume.tables;
  }

  // Progress every progressEvery tables, or fewer times for a big schema (reportsPerSchema).
  const every = Math.max(
    limits.progressEvery,
    limits.reportsPerSchema ? Math.ceil(planned / limits.reportsPerSchema) : 0,
  );
  const thisRun = tables.slice(0, limits.tablesPerRun);
  const batches = batchTables(thisRun, limits, limitsAt(o, new Date(), ctx.throttleTimezone).parallel_tables);
  const finish = { views: !cross || o.clone_views, volumes: !cross || o.clone_volumes };
  // A schema whose tables make one batch (most small ones) ends in that batch's activity: a round trip less.
  const last = tables.length === thisRun.length && !next;
  let end: SchemaEnd | undefined;
  if (batches.length === 1 && last && patched(FINISH_WITH_BATCH)) {
    const before = { ...totals, formats: { ...totals.formats }, warnings: [...totals.warnings] };
    try {
      const r = await acts.cloneTablesAndFinish({
        ctx,
        schema,
        tables: batches[0],
        finish: { ...finish, totals: before },
      });
      for (const t of r.tables) addTable(totals, t);
      end = r.end;
    } catch (err) {
      if (isCancellation(err) || !(err instanceof ActivityFailure)) throw err;
      for (const t of await recordFailure(acts, input, batches[0], err)) addTable(totals, t);
    }
    batches.length = 0;
  }
  let sinceReport = 0;
  // parallel_tables is read from the throttle preset in force each time a batch starts; the job-wide
  // tables_per_minute cap is enforced by the table activities (activities/clone/post-clone/hooks).
  const settled = await runThrottled(
    batches,
    (now) => ({ ...limitsAt(o, new Date(now), ctx.throttleTimezone), tables_per_minute: 0 }),
    async (batch) => {
      for (const r of await cloneOrRecordFailure(acts, input, batch)) addTable(totals, r);
      sinceReport += batch.length;
      if (sinceReport >= every) {
        sinceReport = 0;
        report();
      }
    },
    workflowClock,
  );
  await settleAll(settled.map((r) => (r.status === 'rejected' ? Promise.reject(r.reason) : Promise.resolve())));
  await runner.settle?.();

  if (tables.length > thisRun.length || next)
    return runner.handOff(tables.slice(thisRun.length), totals, planned, next);

  end ??= await acts.finishSchema({ ctx, schema, totals, ...finish });
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
    return recordFailure(acts, input, batch, err);
  }
}

/** The tables of a batch whose activity failed for good, recorded as failed with its cause (finished ones kept). */
function recordFailure(
  acts: ReturnType<typeof cloneActivities>,
  input: SchemaJobInput,
  batch: TablePlanEntry[],
  err: ActivityFailure,
): Promise<TableResult[]> {
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
