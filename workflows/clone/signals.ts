import { defineSignal } from '@temporalio/workflow';

/** Running counts a schema workflow reports to the job workflow, so cloneProgressQuery moves per table. */
export interface SchemaProgress {
  /** The schema workflow's id: counts replace (not add to) the previous report of the same child. */
  childId: string;
  planned: number;
  completed: number;
  failed: number;
  skipped: number;
  bytes: number;
}

export const schemaProgressSignal = defineSignal<[SchemaProgress]>('cloneSchemaProgress');

/** Limits that keep each workflow run's history bounded (see the history test and bench). */
export interface HistoryLimits {
  /** Tables per schema-workflow run before continue-as-new. */
  tablesPerRun: number;
  /**
   * Small tables share one activity up to this many (a table above `batchBytes` goes alone). Batching
   * amortises the per-activity round trip (tens of ms, against a few ms to shallow-clone a small table:
   * bench/clone-catalog.ts measured 8 tables a batch at 0.6 of a plain loop and 32 at about 0.8); a table
   * whose copy takes longer than that gains nothing from it and would serialise the copies behind it, so
   * the byte cap is small. A batch never holds more than its share of the plan (see batchTables).
   */
  batchTables: number;
  batchBytes: number;
  /** Schema workflows per job-workflow run before continue-as-new. */
  schemasPerRun: number;
  /** A schema workflow reports progress after this many tables. */
  progressEvery: number;
}

export const DEFAULT_HISTORY_LIMITS: HistoryLimits = {
  tablesPerRun: 2000,
  batchTables: 32,
  batchBytes: 32 * 1024 * 1024,
  schemasPerRun: 300,
  progressEvery: 25,
};

/**
 * Splits a schema's ordered table plan into activity batches (order kept). With `parallel` (the tables
 * copied at once), a short plan is spread over at least that many batches so no slot idles while one
 * activity works through several tables in turn.
 */
export function batchTables<T extends { sizeBytes: number | null }>(
  tables: T[],
  limits: Pick<HistoryLimits, 'batchTables' | 'batchBytes'>,
  parallel = 1,
): T[][] {
  const perBatch = Math.max(1, Math.min(limits.batchTables, Math.ceil(tables.length / Math.max(1, parallel))));
  const out: T[][] = [];
  let cur: T[] = [];
  let bytes = 0;
  for (const t of tables) {
    const size = t.sizeBytes ?? 0;
    if (cur.length > 0 && (cur.length >= perBatch || bytes + size > limits.batchBytes)) {
      out.push(cur);
      cur = [];
      bytes = 0;
    }
    cur.push(t);
    bytes += size;
  }
  if (cur.length > 0) out.push(cur);
  return out;
}
