import { activityInfo, Context } from '@temporalio/activity';
import type { PlatformError } from '../../platform/errors';
import { getJobTable } from '../../store/clone/clone-state';
import { cloneWriter, PendingWrites, type CloneWrites } from '../../store/clone/clone-writes';
import type { TableResult } from '../../workflows/clone/definitions';
import type { TablePlanEntry, TargetContext } from '../../workflows/clone/engine-types';
import type { CloneActivityDeps } from './deps';
import { addTable } from './logic/totals';
import { createSchemaActivities, type SchemaEnd } from './schema-activities';
import type { Totals } from '../../workflows/clone/engine-types';
import { eventLine } from './events';
import { classified, isLogicalError } from './failures';
import { failureTypeOf } from './logic/failures';
import { withHeartbeat } from './heartbeat';
import { startTable, type TableChain } from './table-activity';

export interface TableFailure {
  ctx: TargetContext;
  schema: string;
  table: string;
  error: string;
  errorType: string | null;
  attempts: number;
}

/** Records a failed table as write-behind rows of `writes` (the caller settles them). */
function recordFailure(f: TableFailure, writes: PendingWrites): TableResult {
  const rows: CloneWrites = {
    jobTables: [
      {
        jobId: f.ctx.jobId,
        target: f.ctx.target.label,
        schemaName: f.schema,
        tableName: f.table,
        status: 'failed',
        attempts: f.attempts,
        error: f.error,
        result: { errorType: f.errorType },
      },
    ],
    logs: [
      {
        jobId: f.ctx.jobId,
        lines: [
          eventLine({
            event: 'table_finished',
            level: 'error',
            message: `${f.schema}.${f.table}: failed after ${f.attempts} attempt(s): ${f.error}`,
            data: {
              schema: f.schema,
              table: f.table,
              target: f.ctx.target.label,
              status: 'failed',
              error: f.error,
              errorType: f.errorType,
              attempts: f.attempts,
              bytes: 0,
              files: 0,
            },
          }),
        ],
      },
    ],
  };
  writes.add(rows);
  return {
    schema: f.schema,
    table: f.table,
    status: 'failed',
    format: null,
    bytesCopied: 0,
    filesCopied: 0,
    sourceVersion: null,
    durationMs: 0,
    error: f.error,
    target: f.ctx.target.label,
    attempts: f.attempts,
  };
}

export interface TableBatch {
  ctx: TargetContext;
  schema: string;
  tables: TablePlanEntry[];
}

/**
 * A small batch of tables, in order (batching amortises the per-activity cost over small tables; big tables
 * travel alone). Each table's metadata, row filter and masks (and its result rows) are done while the next
 * table's data is copied, so a table's fixed cost hides behind the next copy; at most one table finishes
 * while one copies, and tables finish in order. A logical error fails only its table, at once; a transient
 * error fails the batch so Temporal retries it, and the retry skips the tables this job already finished.
 */
async function cloneBatch(deps: CloneActivityDeps, batch: TableBatch): Promise<TableResult[]> {
  const out: TableResult[] = [];
  const retried = { pending: activityInfo().attempt > 1 };
  // Each table announces itself: the next table starts before this one's result rows are written.
  const chain: TableChain = { announced: false, writes: new PendingWrites(cloneWriter(deps.db)) };
  const failed = (table: TablePlanEntry, err: unknown): TableResult => {
    if (!isLogicalError(err)) throw err;
    const e = err as PlatformError;
    const f = { ctx: batch.ctx, schema: batch.schema, table: table.name, error: e.message };
    return recordFailure({ ...f, errorType: failureTypeOf(e), attempts: activityInfo().attempt }, chain.writes);
  };
  // The previous table's finish: never rejects; a transient error is kept to be thrown in order.
  let finishing: Promise<void> = Promise.resolve();
  const kept: { transient?: { err: unknown } } = {};
  try {
    for (const [i, table] of batch.tables.entries()) {
      let started: Awaited<ReturnType<typeof startTable>> | null = null;
      let startErr: { err: unknown } | null = null;
      try {
        started = await startTable(deps, { ctx: batch.ctx, schema: batch.schema, table }, retried, chain);
      } catch (err) {
        startErr = { err };
      }
      await finishing;
      if (kept.transient) throw kept.transient.err;
      if (startErr) {
        out[i] = failed(table, startErr.err);
        continue;
      }
      if ('done' in started!) {
        out[i] = started.done;
        continue;
      }
      const finish = started!.finish;
      finishing = finish().then(
        (r) => void (out[i] = r),
        (err: unknown) => {
          try {
            out[i] = failed(table, err);
          } catch (e) {
            kept.transient = { err: e };
          }
        },
      );
    }
    await finishing;
    if (kept.transient) throw kept.transient.err;
  } catch (err) {
    await finishing;
    // A failing batch still stores what it finished, so its retry skips those tables.
    await chain.writes.settle().catch(() => undefined);
    throw err;
  }
  await chain.writes.settle();
  return out;
}

/** The end steps of a schema (finishSchema's input, without `totals`: the batch adds its own). */
export interface FinishStep {
  totals: Totals;
  views?: boolean;
  volumes?: boolean;
}

export function createTableActivities(deps: CloneActivityDeps) {
  const schemaSteps = createSchemaActivities(deps);
  return {
    async cloneTables(batch: TableBatch): Promise<TableResult[]> {
      return classified(() => withHeartbeat(() => cloneBatch(deps, batch)));
    },

    /**
     * A schema's only batch and then its end steps (finishSchema) in one activity: one round trip through the
     * server less for a small schema. `finish.totals` are the schema's counts before the batch. When the end
     * steps fail, the tables' results still come back (`end` absent) and the workflow runs finishSchema on
     * its own, with its own retries.
     */
    async cloneTablesAndFinish(
      batch: TableBatch & { finish: FinishStep },
    ): Promise<{ tables: TableResult[]; end?: SchemaEnd }> {
      const tables = await classified(() => withHeartbeat(() => cloneBatch(deps, batch)));
      const totals: Totals = { ...batch.finish.totals, formats: { ...batch.finish.totals.formats }, warnings: [] };
      for (const r of tables) addTable(totals, r);
      try {
        const end = await schemaSteps.finishSchema({ ...batch.finish, ctx: batch.ctx, schema: batch.schema, totals });
        return { tables, end };
      } catch (err) {
        if (Context.current().cancellationSignal.aborted) throw err;
        return { tables };
      }
    },

    /**
     * A batch that failed for good (retries exhausted, or retry off): tables it finished keep their
     * results; the others are recorded as failed with the batch's error.
     */
    async recordBatchFailure(f: Omit<TableFailure, 'table'> & { tables: string[] }): Promise<TableResult[]> {
      const out: TableResult[] = [];
      // One group-committed write for all the failed tables, not one round trip each.
      const writes = new PendingWrites(cloneWriter(deps.db));
      for (const table of f.tables) {
        const done = await getJobTable(deps.db, {
          jobId: f.ctx.jobId,
          target: f.ctx.target.label,
          schemaName: f.schema,
          tableName: table,
        });
        if (done?.status === 'cloned' && done.result) out.push(done.result as unknown as TableResult);
        else out.push(recordFailure({ ...f, table }, writes));
      }
      await writes.settle();
      return out;
    },
  };
}
