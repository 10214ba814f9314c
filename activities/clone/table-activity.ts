import { activityInfo } from '@temporalio/activity';
import { getJobTable } from '../../store/clone/clone-state';
import type { PendingWrites } from '../../store/clone/clone-writes';
import type { TableResult } from '../../workflows/clone/definitions';
import type { TablePlanEntry, TargetContext } from '../../workflows/clone/engine-types';
import { snapshotOptions } from './snapshots/options';
import { runHooks, sourceRef, targetRef, workspacesFor, type CloneActivityDeps } from './deps';
import { eventLine, warningEvents, type CloneEvent } from './events';
import { copyTableData, finishTransfer } from './table-transfer';
import { workspaceKey } from './workspace-cache';

export interface TableTask {
  ctx: TargetContext;
  schema: string;
  table: TablePlanEntry;
}

/**
 * One table: copy the data, then (`finish`) its metadata, then its row filter and masks, and record the
 * result; a batch runs the next table's start while this one finishes. Idempotent per job: a table this job
 * already finished (the activity completed but its result was lost, e.g. the worker died) is answered from
 * the store (`done`), and everything else is CREATE OR REPLACE plus compare-then-write metadata.
 */
export async function startTable(
  deps: CloneActivityDeps,
  { ctx, schema, table }: TableTask,
  retried: { pending: boolean },
  chain: TableChain,
): Promise<{ done: TableResult } | { finish: () => Promise<TableResult> }> {
  const announced = chain.announced;
  chain.announced = false;
  const started = Date.now();
  const attempt = activityInfo().attempt;
  const key = { jobId: ctx.jobId, target: ctx.target.label, schemaName: schema, tableName: table.name };
  // Only a retry can find its own earlier work: a first attempt skips the look-up.
  const done = attempt > 1 ? await getJobTable(deps.db, key) : null;
  if (done?.status === 'cloned' && done.result) return { done: done.result as unknown as TableResult };
  // Tables of a batch run in order, so on a retry the first one not done is the one that was interrupted.
  const isRetry = retried.pending;
  retried.pending = false;

  const where = { schema, table: table.name, target: ctx.target.label };
  const startEvents: CloneEvent[] = [];
  if (isRetry)
    startEvents.push({
      event: 'retry',
      message: `retrying ${schema}.${table.name} (attempt ${attempt})`,
      data: { ...where, attempt },
    });
  if (!announced) startEvents.push(startedEvent(schema, table.name, where, attempt));
  chain.writes.add({ logs: [{ jobId: ctx.jobId, lines: startEvents.map(eventLine) }] });

  const { src, dst } = await workspacesFor(deps, ctx);
  // source_snapshot_id: this table at its captured version (activities/clone/snapshots).
  const copyCtx = { ...ctx, options: await snapshotOptions(deps.db, ctx.options, schema, table.name) };
  const copied = await copyTableData(src, dst, copyCtx, schema, table.name, (ref) =>
    runHooks(deps, 'beforeTableTouched', { ctx, target: dst, ref }),
  );
  return {
    finish: async () => {
      const t = await finishTransfer(src, dst, copyCtx, copied);
      const desc = t.desc;
      const from = sourceRef(ctx, schema, table.name);
      const to = targetRef(ctx, schema, table.name);

      const result: TableResult = {
        schema,
        table: table.name,
        status: 'cloned',
        format: (desc.format ?? 'DELTA').toUpperCase(),
        bytesCopied: t.bytesCopied,
        filesCopied: t.filesCopied,
        sourceVersion: desc.version,
        durationMs: Date.now() - started,
        target: ctx.target.label,
        attempts: attempt,
        warnings: t.warnings,
      };
      for (const extra of await runHooks(deps, 'afterTableCloned', { ctx, source: src, target: dst, result })) {
        if (Array.isArray(extra)) result.warnings!.push(...(extra as string[]));
      }
      // One write-behind, group-committed write (store/clone/clone-writes.ts): the result, the destination
      // state and the events, stored with those of the other tables finishing meanwhile. The batch settles
      // it before the activity ends or fails.
      chain.writes.add({
        jobTables: [
          {
            ...key,
            status: 'cloned',
            format: result.format,
            bytesCopied: result.bytesCopied,
            filesCopied: result.filesCopied,
            sourceVersion: desc.version,
            attempts: attempt,
            error: null,
            result: result as unknown as Record<string, unknown>,
          },
        ],
        tableStates: [
          {
            destWorkspace: workspaceKey(ctx.target.workspace),
            destCatalog: to.catalog,
            schemaName: schema,
            tableName: table.name,
            sourceWorkspace: workspaceKey(ctx.source),
            sourceCatalog: from.catalog,
            sourceVersion: desc.version,
            jobId: ctx.jobId,
          },
        ],
        logs: [
          {
            jobId: ctx.jobId,
            lines: [
              ...warningEvents(result.warnings!, where),
              {
                event: 'table_finished' as const,
                message: `${schema}.${table.name}: cloned (${result.bytesCopied} bytes, ${result.filesCopied} files)`,
                data: {
                  ...where,
                  status: 'cloned',
                  format: result.format,
                  bytes: result.bytesCopied,
                  files: result.filesCopied,
                  attempt,
                },
              },
              // The next table of the batch starts right after this write: its "started" line shares the insert.
              ...(chain.next
                ? [startedEvent(schema, chain.next, { schema, table: chain.next, target: ctx.target.label }, attempt)]
                : []),
            ].map(eventLine),
          },
        ],
      });
      chain.announced = chain.next !== undefined;
      return result;
    },
  };
}

/**
 * Between the tables of one batch: `next` is the table after this one; `announced` tells the next table
 * that its table_started event was already written (one store write per table less); `writes` holds the
 * batch's write-behind rows.
 */
export interface TableChain {
  announced: boolean;
  next?: string;
  writes: PendingWrites;
}

function startedEvent(schema: string, table: string, where: Record<string, unknown>, attempt: number): CloneEvent {
  return { event: 'table_started', message: `cloning ${schema}.${table}`, data: { ...where, attempt } };
}
