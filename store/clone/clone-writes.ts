import { sql } from 'drizzle-orm';
import type { Db } from '../db';
import type { cloneTableState } from '../schema';
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

/**
 * Each kind of row goes as one JSON parameter expanded by the server (jsonb_array_elements): building a
 * statement with a bind parameter per column of every row cost more than the writes themselves (about 30,000
 * parameters per 1,000 small tables, most of it in the query builder on the worker's thread).
 */
async function flush(db: Db, w: Required<CloneWrites>): Promise<void> {
  const now = new Date().toISOString();
  const logRows = w.logs.flatMap((l) =>
    l.lines.map((line) => ({
      job_id: l.jobId,
      level: line.level,
      message: line.message,
      data: line.data,
      ts: line.ts,
    })),
  );
  const ops: Promise<unknown>[] = [];
  if (w.jobTables.length > 0) {
    const rows = w.jobTables.map((r) => ({
      job_id: r.jobId,
      target: r.target,
      schema_name: r.schemaName,
      table_name: r.tableName,
      status: r.status,
      format: r.format,
      bytes_copied: r.bytesCopied,
      files_copied: r.filesCopied,
      source_version: r.sourceVersion,
      attempts: r.attempts,
      error: r.error,
      result: r.result,
    }));
    ops.push(
      db.execute(sql`
        insert into clone_job_tables (job_id, target, schema_name, table_name, status, format, bytes_copied,
          files_copied, source_version, attempts, error, result, updated_at)
        select e->>'job_id', e->>'target', e->>'schema_name', e->>'table_name', e->>'status', e->>'format',
          coalesce((e->>'bytes_copied')::bigint, 0), coalesce((e->>'files_copied')::integer, 0),
          (e->>'source_version')::bigint, coalesce((e->>'attempts')::integer, 1), e->>'error',
          nullif(e->'result', 'null'::jsonb), ${now}::timestamptz
        from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) as t(e)
        on conflict (job_id, target, schema_name, table_name) do update set
          status = excluded.status, format = excluded.format, bytes_copied = excluded.bytes_copied,
          files_copied = excluded.files_copied, source_version = excluded.source_version,
          attempts = excluded.attempts, error = excluded.error, result = excluded.result,
          updated_at = excluded.updated_at`),
    );
  }
  if (w.tableStates.length > 0) {
    const rows = w.tableStates.map((r) => ({
      dest_workspace: r.destWorkspace,
      dest_catalog: r.destCatalog,
      schema_name: r.schemaName,
      table_name: r.tableName,
      source_workspace: r.sourceWorkspace,
      source_catalog: r.sourceCatalog,
      source_version: r.sourceVersion,
      job_id: r.jobId,
    }));
    ops.push(
      db.execute(sql`
        insert into clone_table_state (dest_workspace, dest_catalog, schema_name, table_name, source_workspace,
          source_catalog, source_version, job_id, cloned_at)
        select e->>'dest_workspace', e->>'dest_catalog', e->>'schema_name', e->>'table_name',
          e->>'source_workspace', e->>'source_catalog', (e->>'source_version')::bigint, e->>'job_id',
          ${now}::timestamptz
        from jsonb_array_elements(${JSON.stringify(rows)}::jsonb) as t(e)
        on conflict (dest_workspace, dest_catalog, schema_name, table_name) do update set
          source_workspace = excluded.source_workspace, source_catalog = excluded.source_catalog,
          source_version = excluded.source_version, job_id = excluded.job_id, cloned_at = excluded.cloned_at`),
    );
  }
  // Log lines keep their order: one statement, rows inserted (and given their ids) in the order written.
  if (logRows.length > 0)
    ops.push(
      db.execute(sql`
        insert into run_logs (job_id, ts, level, message, data)
        select e->>'job_id', coalesce((e->>'ts')::timestamptz, now()), coalesce(e->>'level', 'info'),
          e->>'message', nullif(e->'data', 'null'::jsonb)
        from jsonb_array_elements(${JSON.stringify(logRows)}::jsonb) with ordinality as t(e, n)
        order by n`),
    );
  await Promise.all(ops);
}
