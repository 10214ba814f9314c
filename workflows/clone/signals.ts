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
   * Tables share one activity up to this many and up to `batchBytes` (a bigger table goes alone). Each
   * activity costs a round trip through the server and, on a two-core machine, CPU in the server and the
   * worker that the copies compete for: bench/clone-catalog.ts measured 8 small tables a batch at 0.6 of
   * a plain loop and 32 at about 0.8 (shallow); with the local lakehouse's metadata calls on worker threads,
   * 64 (a 250-table schema at parallel_tables 4 in one round, not two) at about 0.85 against 0.65 for 32; a
   * retried batch skips the tables it finished, so a bigger batch redoes no more work. A 1 GB byte cap at about 1.5 GB/s against 1 GB/s with
   * one ~170 MB table per activity (deep). A 1 GB batch stays far inside the activity's timeouts on any
   * platform; a single table that takes hours gets its own activity and its own retries.
   */
  batchTables: number;
  batchBytes: number;
  /** Schema workflows per job-workflow run before continue-as-new. */
  schemasPerRun: number;
  /** A schema workflow reports progress after this many tables. */
  progressEvery: number;
  /**
   * At most about this many progress reports per schema (a bigger schema reports every planned ÷ this many
   * tables): each report is a signal, i.e. events in the job workflow's history. Absent: no cap.
   */
  reportsPerSchema?: number;
  /** The job workflow starts no more schema workflows once its run holds this many events. Absent: no cap. */
  eventsPerRun?: number;
}

/**
 * Replay rule: these limits decide a workflow's steps (where batches are cut, when a run continues as new,
 * when progress is signalled), so a running workflow must keep the values it started with, whatever a later
 * deploy says. A job therefore carries its limits in its input (CloneJobInput.limits, filled from
 * DEFAULT_HISTORY_LIMITS by api/clone/build-input.ts) and passes them on to its schema workflows and across
 * continue-as-new. Changing DEFAULT_HISTORY_LIMITS changes new jobs only.
 * The workflows fall back to RECORDED_HISTORY_LIMITS only for an input without limits, i.e. one recorded
 * before the field existed: those are the values such jobs ran with, and must never change.
 */
export const DEFAULT_HISTORY_LIMITS: HistoryLimits = {
  tablesPerRun: 2000,
  batchTables: 64,
  batchBytes: 1024 * 1024 * 1024,
  schemasPerRun: 300,
  // Each report is a signal (events in the job's history); the job's record and WebSocket progress come from
  // the store, per table, whatever these say.
  progressEvery: 50,
  reportsPerSchema: 200,
  eventsPerRun: 6000,
};

/** What every job started before CloneJobInput.limits existed ran with. Frozen: see the replay rule above. */
export const RECORDED_HISTORY_LIMITS: Readonly<HistoryLimits> = Object.freeze({
  tablesPerRun: 2000,
  batchTables: 32,
  batchBytes: 1024 * 1024 * 1024,
  schemasPerRun: 300,
  progressEvery: 25,
});

/** The limits a workflow runs with: its own (carried), else the job's, else the pre-field values. */
export function limitsOf(...given: (HistoryLimits | undefined)[]): HistoryLimits {
  return given.find((l) => l !== undefined) ?? RECORDED_HISTORY_LIMITS;
}

/**
 * Splits a schema's ordered table plan into activity batches (order kept). A table above `batchBytes`
 * travels alone. The others are cut into as few batches as the two caps allow, rounded up to whole rounds
 * of `parallel` (the activities run at once) and evened out by count and bytes, so every slot gets about
 * the same share and none idles at the end while another still works through a long batch.
 */
export function batchTables<T extends { sizeBytes: number | null }>(
  tables: T[],
  limits: Pick<HistoryLimits, 'batchTables' | 'batchBytes'>,
  parallel = 1,
): T[][] {
  const size = (t: T) => Math.max(0, t.sizeBytes ?? 0);
  const alone = (t: T) => size(t) > limits.batchBytes;
  const small = tables.filter((t) => !alone(t));
  const smallBytes = small.reduce((n, t) => n + size(t), 0);
  const rounds = Math.max(1, parallel);
  const needed = Math.max(1, Math.ceil(small.length / limits.batchTables), Math.ceil(smallBytes / limits.batchBytes));
  const batches = Math.max(1, Math.min(small.length, Math.ceil(needed / rounds) * rounds));
  // Each table weighs its bytes plus the average table size (its fixed cost: a small table is not free).
  // Cutting at equal shares of the cumulative weight gives at most `batches` batches, evened out.
  const unit = smallBytes / Math.max(1, small.length) || 1;
  const weight = (t: T) => size(t) + unit;
  const share = (smallBytes + unit * small.length) / batches;

  const out: T[][] = [];
  let cur: T[] = [];
  let bytes = 0;
  let index = 0;
  let cumulative = 0;
  const close = () => {
    if (cur.length > 0) out.push(cur);
    cur = [];
    bytes = 0;
  };
  for (const t of tables) {
    if (alone(t)) {
      close();
      out.push([t]);
      continue;
    }
    const s = size(t);
    // The batch a table belongs to is where the middle of its weight falls; the hard caps still hold.
    const target = Math.min(batches - 1, Math.floor((cumulative + weight(t) / 2) / share));
    cumulative += weight(t);
    const over = cur.length >= limits.batchTables || bytes + s > limits.batchBytes;
    if (cur.length > 0 && (target > index || over)) close();
    index = Math.max(index, target);
    cur.push(t);
    bytes += s;
  }
  close();
  return out;
}
