import type { Workspace } from '../../platform/port';
import { isPlatformError } from '../../platform/errors';
import { errorCodeOf, rowsText } from '../../activities/workbench/logic/result-text';
import type { StatementRequest } from '../../schemas/workbench';
import {
  cancelRequested,
  dropExpiredStatements,
  endStatement,
  getStatement,
  insertStatement,
  type StatementRow,
} from '../../store/workbench/statements';
import type { AppDeps } from '../deps';

/** Expired statements are dropped at most this often (results live an hour, so a minute more is within it). */
const SWEEP_EVERY_MS = 60_000;
/** How often a running statement looks for a cancel asked through another API process. */
const CANCEL_POLL_MS = 500;

/** Statements this process runs: id → their abort controller (a cancel here stops them at once). */
export class StatementRunner {
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private poller: NodeJS.Timeout | null = null;
  /** When this process last dropped expired statements (at most once a minute, as a statement starts). */
  private sweptAt = 0;

  constructor(private readonly deps: AppDeps) {}

  isRunning(id: string): boolean {
    return this.running.has(id);
  }

  /**
   * Runs a checked statement in the background and returns when it ended or `waitMs` passed. The statement and
   * history rows are written while the engine runs; the end (state, result) is kept in memory from the moment the
   * engine answers and written afterwards, so the answer never waits for the result's write nor reads it back.
   * Ordering: this returns only after the statement row is in the store, and the end stays readable from memory
   * (`statementNow`) until its write has committed, so a read right after the answer always finds it.
   */
  async start(
    ws: Workspace,
    s: { id: string; caller: string; statement: string; sql: string; catalog?: string; schema?: string },
    body: Pick<StatementRequest, 'parameters' | 'row_limit' | 'timeout_seconds'>,
    waitMs: number,
    source?: string,
  ): Promise<void> {
    const db = this.deps.store.db;
    const log = (what: string) => (err: unknown) => this.deps.logger.error({ err, statement_id: s.id }, what);
    if (Date.now() - this.sweptAt >= SWEEP_EVERY_MS) {
      this.sweptAt = Date.now();
      void dropExpiredStatements(db).catch(log('dropping expired statements failed'));
    }
    const row = { ...s, rowLimit: body.row_limit, source };
    const inserted = insertStatement(db, row);
    const abort = new AbortController();
    inserted.catch(() => abort.abort());
    const started = Date.now();
    const ended: Promise<StatementEnd> = ws
      .executeStatement(s.sql, {
        parameters: body.parameters,
        rowLimit: body.row_limit,
        timeoutMs: body.timeout_seconds * 1000,
        signal: abort.signal,
      })
      .then(
        (r): StatementEnd => ({
          state: 'SUCCEEDED',
          columns: r.columns,
          rows: rowsText(r.rows),
          truncated: r.truncated,
          durationMs: Date.now() - started,
        }),
        (err: unknown): StatementEnd => {
          const code = isPlatformError(err) ? err.code : undefined;
          return {
            state: code === 'CANCELED' ? 'CANCELED' : 'FAILED',
            errorCode: errorCodeOf(code),
            errorMessage: (err as Error)?.message ?? String(err),
            durationMs: Date.now() - started,
          };
        },
      )
      .then((end) => {
        unsaved.set(s.id, endedRow(row, end));
        return end;
      });
    const done = Promise.all([inserted, ended])
      // After the answer: a request that waited for the end answers from memory in this same turn of the event
      // loop, so its bytes are sent before the write (up to 100,000 rows as JSON) takes the thread.
      .then(([, end]) => new Promise<StatementEnd>((resolve) => setImmediate(() => resolve(end))))
      .then((end) => endStatement(db, s.id, end))
      .catch(log('recording a statement failed'))
      .finally(() => {
        unsaved.delete(s.id);
        this.running.delete(s.id);
        if (this.running.size === 0 && this.poller) {
          clearInterval(this.poller);
          this.poller = null;
        }
      });
    this.running.set(s.id, { abort, done });
    this.poller ??= setInterval(() => void this.pollCancels(), CANCEL_POLL_MS).unref();
    if (waitMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([ended, new Promise<void>((r) => (timer = setTimeout(r, waitMs)))]);
      clearTimeout(timer);
    }
    await inserted;
  }

  /** Stops a statement this process runs; true when it was running here. */
  cancelHere(id: string): boolean {
    const r = this.running.get(id);
    r?.abort.abort();
    return !!r;
  }

  /** Waits for a statement this process runs to record its end (cancel answers after the CANCELED state). */
  async settled(id: string, waitMs: number): Promise<void> {
    const r = this.running.get(id);
    if (!r) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([r.done, new Promise<void>((res) => (timer = setTimeout(res, waitMs)))]);
    clearTimeout(timer);
  }

  private async pollCancels(): Promise<void> {
    const ids = [...this.running.keys()];
    try {
      for (const id of await cancelRequested(this.deps.store.db, ids)) this.cancelHere(id);
    } catch (err) {
      this.deps.logger.warn({ err }, 'checking statement cancels failed');
    }
  }
}

type StatementEnd = Parameters<typeof endStatement>[2];

/** Statements that ended whose end is not yet written to the store, by id (removed once the write committed). */
const unsaved = new Map<string, StatementRow>();

/** A statement row as `endStatement` will leave it. */
function endedRow(
  s: {
    id: string;
    caller: string;
    statement: string;
    catalog?: string;
    schema?: string;
    rowLimit: number;
    source?: string;
  },
  end: StatementEnd,
): StatementRow {
  const now = new Date();
  return {
    id: s.id,
    caller: s.caller,
    statement: s.statement,
    catalog: s.catalog ?? null,
    schema: s.schema ?? null,
    state: end.state,
    errorCode: end.errorCode ?? null,
    errorMessage: end.errorMessage ?? null,
    columns: end.columns ?? null,
    rows: end.rows ?? null,
    totalRowCount: end.rows?.length ?? null,
    truncated: end.truncated ?? false,
    rowLimit: s.rowLimit,
    durationMs: end.durationMs,
    source: s.source ?? null,
    createdAt: new Date(now.getTime() - end.durationMs),
    endedAt: now,
    cancelRequestedAt: null,
  };
}

/** A statement as it is now: its end from memory while that is being written, else the stored row. */
export async function statementNow(db: AppDeps['store']['db'], id: string): Promise<StatementRow | null> {
  return unsaved.get(id) ?? (await getStatement(db, id));
}

/** A copy of the ended statements whose end is still being written (history entries read it). */
export const unsavedEnds = (): ReadonlyMap<string, StatementRow> => new Map(unsaved);
