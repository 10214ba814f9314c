import { sql } from 'drizzle-orm';
import type { Db } from '../db';
import { cloneJobTables, cloneTableState, runLogs } from '../schema';
import type { CloneJobTableInput } from './clone-state';
import type { RunLogLine } from '../jobs/run-logs';

export type TableStateInput = Omit<typeof cloneTableState.$inferInsert, 'clonedAt'>;

/** What one step of a clone records: table results, destination table states and run-log lines. */
export interface CloneWrites {
  jobTables?: CloneJobTableInput[];
  tableStates?: TableStateInput[];
  logs?: { jobId: string; lines: RunLogLine[] }[];
}

interface Pending {
  writes: CloneWrites;
  resolve(): void;
  reject(err: unknown): void;
}

/** How long a write-behind row may wait for others to share its flush (also the delay of its live event). */
export const WRITE_BEHIND_MS = 100;

/**
 * Group commit for the clone's store writes. Every table of every running activity records its result,
 * its destination state and its events; written one statement each, those small writes cost more than a
 * small table's clone (PGlite runs in the worker's own thread). Queued writes are flushed together, one
 * multi-row statement per table:
 * - `write` flushes as soon as the event loop turns (writes made meanwhile share the flush) and resolves
 *   once its rows are stored;
 * - `writeBehind` lets the rows wait up to WRITE_BEHIND_MS for company, so a table activity goes on with
 *   its next table and a flush carries every table finished in that time. The activity settles its
 *   write-behind rows (`PendingWrites.settle`) before it ends or fails, so its outcome never runs ahead
 *   of the store. A worker killed meanwhile loses at most those rows: the retry re-does those tables.
 */
export class CloneWriter {
  private queue: Pending[] = [];
  private running = false;
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly db: Db) {}

  write(writes: CloneWrites): Promise<void> {
    return this.enqueue(writes, 0);
  }

  writeBehind(writes: CloneWrites): Promise<void> {
    return this.enqueue(writes, WRITE_BEHIND_MS);
  }

  /** Starts flushing whatever is queued now, without waiting for the write-behind delay. */
  flushNow(): void {
    this.schedule(0);
  }

  private enqueue(writes: CloneWrites, delayMs: number): Promise<void> {
    if (!writes.jobTables?.length && !writes.tableStates?.length && !writes.logs?.some((l) => l.lines.length))
      return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ writes, resolve, reject });
      this.schedule(delayMs);
    });
  }

  private schedule(delayMs: number): void {
    if (this.running) return; // the flush loop takes everything queued before it stops
    if (delayMs > 0) {
      this.timer ??= setTimeout(() => this.schedule(0), delayMs);
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running = true;
    // Writes made in the same turn of the event loop (tables finishing together) share the first flush.
    setImmediate(() => void this.drain());
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const group = this.queue;
      this.queue = [];
      try {
        await flush(this.db, merge(group.map((p) => p.writes)));
        for (const p of group) p.resolve();
      } catch (err) {
        for (const p of group) p.reject(err);
      }
    }
    this.running = false;
  }
}

/** The write-behind rows of one activity: `settle` flushes them and throws the first failed write. */
export class PendingWrites {
  private pending: Promise<unknown>[] = [];
  private failure: { err: unknown } | null = null;

  constructor(private readonly writer: CloneWriter) {}

  add(writes: CloneWrites): void {
    this.pending.push(
      this.writer.writeBehind(writes).catch((err: unknown) => {
        this.failure ??= { err };
      }),
    );
  }

  async settle(): Promise<void> {
    const pending = this.pending;
    this.pending = [];
    if (pending.length > 0) this.writer.flushNow();
    await Promise.all(pending);
    if (this.failure) {
      const { err } = this.failure;
      this.failure = null;
      throw err;
    }
  }
}

const writers = new WeakMap<Db, CloneWriter>();

/** The one writer of a store (one per `Db`, so all activities of a worker share it). */
export function cloneWriter(db: Db): CloneWriter {
  let w = writers.get(db);
  if (!w) writers.set(db, (w = new CloneWriter(db)));
  return w;
}

/** Later rows for the same key replace earlier ones (one INSERT ... ON CONFLICT cannot touch a row twice). */
function lastByKey<T>(rows: T[], key: (r: T) => string): T[] {
  const m = new Map<string, T>();
  for (const r of rows) {
    const k = key(r);
    m.delete(k);
    m.set(k, r);
  }
  return [...m.values()];
}

function merge(all: CloneWrites[]): Required<CloneWrites> {
  const jobTables = all.flatMap((w) => w.jobTables ?? []);
  const tableStates = all.flatMap((w) => w.tableStates ?? []);
  return {
    jobTables: lastByKey(jobTables, (r) => JSON.stringify([r.jobId, r.target, r.schemaName, r.tableName])),
    tableStates: lastByKey(tableStates, (r) =>
      JSON.stringify([r.destWorkspace, r.destCatalog, r.schemaName, r.tableName]),
    ),
    logs: all.flatMap((w) => w.logs ?? []),
  };
}

async function flush(db: Db, w: Required<CloneWrites>): Promise<void> {
  const now = new Date();
  const logRows = w.logs.flatMap((l) => l.lines.map((line) => ({ jobId: l.jobId, ...line })));
  const ops: Promise<unknown>[] = [];
  if (w.jobTables.length > 0)
    ops.push(
      db
        .insert(cloneJobTables)
        .values(w.jobTables.map((r) => ({ ...r, updatedAt: now })))
        .onConflictDoUpdate({
          target: [cloneJobTables.jobId, cloneJobTables.target, cloneJobTables.schemaName, cloneJobTables.tableName],
          set: {
            status: sql`excluded.status`,
            format: sql`excluded.format`,
            bytesCopied: sql`excluded.bytes_copied`,
            filesCopied: sql`excluded.files_copied`,
            sourceVersion: sql`excluded.source_version`,
            attempts: sql`excluded.attempts`,
            error: sql`excluded.error`,
            result: sql`excluded.result`,
            updatedAt: sql`excluded.updated_at`,
          },
        }),
    );
  if (w.tableStates.length > 0)
    ops.push(
      db
        .insert(cloneTableState)
        .values(w.tableStates.map((r) => ({ ...r, clonedAt: now })))
        .onConflictDoUpdate({
          target: [
            cloneTableState.destWorkspace,
            cloneTableState.destCatalog,
            cloneTableState.schemaName,
            cloneTableState.tableName,
          ],
          set: {
            sourceWorkspace: sql`excluded.source_workspace`,
            sourceCatalog: sql`excluded.source_catalog`,
            sourceVersion: sql`excluded.source_version`,
            jobId: sql`excluded.job_id`,
            clonedAt: sql`excluded.cloned_at`,
          },
        }),
    );
  // Log lines keep their order: one statement, rows in the order they were written.
  if (logRows.length > 0) ops.push(db.insert(runLogs).values(logRows));
  await Promise.all(ops);
}
