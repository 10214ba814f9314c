import { activityInfo } from '@temporalio/activity';
import { getJobTable, putJobTable, recordTableState } from '../../store/repos/clone-state';
import type { TableResult } from '../../workflows/clone/definitions';
import type { TablePlanEntry, TargetContext } from '../../workflows/clone/engine-types';
import { runHooks, sourceRef, targetRef, workspacesFor, type CloneActivityDeps } from './deps';
import { emitEvents, warningEvents, type CloneEvent } from './events';
import { classified } from './failures';
import { checkCancelled, withHeartbeat } from './heartbeat';
import { copySecurable, copyTableExtras, Warnings } from './metadata-copy';
import { FunctionCopier } from './routines';
import { copySecurity } from './security-copy';
import { executeCopy } from './table-copy';
import { planTableCopy, UNIFORM_PROPERTIES } from './table-plan';
import { workspaceKey } from './workspace-cache';

export interface TableTask {
  ctx: TargetContext;
  schema: string;
  table: TablePlanEntry;
}

/**
 * One table: copy the data, then its metadata, then its row filter and masks. Idempotent per job: a table
 * this job already finished (the activity completed but its result was lost, e.g. the worker died) is
 * answered from the store, and everything else is CREATE OR REPLACE plus compare-then-write metadata.
 */
async function cloneOneTable(deps: CloneActivityDeps, { ctx, schema, table }: TableTask): Promise<TableResult> {
  const started = Date.now();
  const attempt = activityInfo().attempt;
  const key = { jobId: ctx.jobId, target: ctx.target.label, schemaName: schema, tableName: table.name };
  const done = await getJobTable(deps.db, key);
  if (done?.status === 'cloned' && done.result) return done.result as unknown as TableResult;

  const where = { schema, table: table.name, target: ctx.target.label };
  const startEvents: CloneEvent[] = [];
  if (attempt > 1) startEvents.push({ event: 'retry', message: `retrying ${schema}.${table.name} (attempt ${attempt})`, data: { ...where, attempt } });
  startEvents.push({ event: 'table_started', message: `cloning ${schema}.${table.name}`, data: { ...where, attempt } });
  await emitEvents(deps.db, ctx.jobId, startEvents);

  const { src, dst } = await workspacesFor(deps, ctx);
  const o = ctx.options;
  const from = sourceRef(ctx, schema, table.name);
  const to = targetRef(ctx, schema, table.name);
  const desc = await src.describeTable(from);
  const plan = planTableCopy({
    source: from, target: to, format: desc.format, options: o, crossWorkspace: ctx.crossWorkspace,
    currentVersion: desc.version, sourceLabel: ctx.source.kind === 'local' ? ctx.source.root : ctx.source.host, targetLabel: ctx.target.label,
  });
  await runHooks(deps, 'beforeTableTouched', { ctx, target: dst, ref: to });
  checkCancelled();
  const outcome = await executeCopy(plan, src, dst, desc);
  checkCancelled();

  const w = new Warnings();
  w.list.push(...plan.warnings);
  if (plan.uniform) await w.try(`${schema}.${table.name} UniForm properties`, () => dst.setProperties(to, UNIFORM_PROPERTIES));
  await copySecurable(src, dst, { type: 'TABLE', ...from }, { type: 'TABLE', ...to }, o, w, `table ${schema}.${table.name}`);
  await copyTableExtras(src, dst, from, to, o, o.clone_tbl_properties, w);
  const functions = new FunctionCopier(src, dst, o.source_catalog, ctx.target.destinationCatalog, o.copy_comments);
  await copySecurity(src, dst, from, to, o.copy_security, functions);

  const result: TableResult = {
    schema, table: table.name, status: 'cloned', format: (desc.format ?? 'DELTA').toUpperCase(),
    bytesCopied: outcome.bytesCopied, filesCopied: outcome.filesCopied, sourceVersion: desc.version,
    durationMs: Date.now() - started, target: ctx.target.label, attempts: attempt, warnings: w.list,
  };
  for (const extra of await runHooks(deps, 'afterTableCloned', { ctx, source: src, target: dst, result })) {
    if (Array.isArray(extra)) result.warnings!.push(...(extra as string[]));
  }
  await putJobTable(deps.db, {
    ...key, status: 'cloned', format: result.format, bytesCopied: result.bytesCopied, filesCopied: result.filesCopied,
    sourceVersion: desc.version, attempts: attempt, error: null, result: result as unknown as Record<string, unknown>,
  });
  await recordTableState(deps.db, {
    destWorkspace: workspaceKey(ctx.target.workspace), destCatalog: to.catalog, schemaName: schema, tableName: table.name,
    sourceWorkspace: workspaceKey(ctx.source), sourceCatalog: from.catalog, sourceVersion: desc.version, jobId: ctx.jobId,
  });
  await emitEvents(deps.db, ctx.jobId, [
    ...warningEvents(result.warnings!, where),
    {
      event: 'table_finished',
      message: `${schema}.${table.name}: cloned (${result.bytesCopied} bytes, ${result.filesCopied} files)`,
      data: { ...where, status: 'cloned', format: result.format, bytes: result.bytesCopied, files: result.filesCopied, attempt },
    },
  ]);
  return result;
}

export interface TableFailure {
  ctx: TargetContext;
  schema: string;
  table: string;
  error: string;
  errorType: string | null;
  attempts: number;
}

export function createTableActivities(deps: CloneActivityDeps) {
  return {
    async cloneTable(task: TableTask): Promise<TableResult> {
      return classified(() => withHeartbeat(() => cloneOneTable(deps, task)));
    },

    /** Records a table whose activity failed for good (after its retries, or at once for a logical error). */
    async recordTableFailure(f: TableFailure): Promise<void> {
      await putJobTable(deps.db, {
        jobId: f.ctx.jobId, target: f.ctx.target.label, schemaName: f.schema, tableName: f.table, status: 'failed',
        attempts: f.attempts, error: f.error, result: { errorType: f.errorType },
      });
      await emitEvents(deps.db, f.ctx.jobId, [
        {
          event: 'table_finished', level: 'error', message: `${f.schema}.${f.table}: failed after ${f.attempts} attempt(s): ${f.error}`,
          data: { schema: f.schema, table: f.table, target: f.ctx.target.label, status: 'failed', error: f.error, errorType: f.errorType, attempts: f.attempts, bytes: 0, files: 0 },
        },
      ]);
    },
  };
}
