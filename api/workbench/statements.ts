import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { errorCodeOf, rowsText, statementView } from '../../activities/workbench/logic/result-text';
import { isPlatformError } from '../../platform/errors';
import { qualifyNames, readOnlyStatement, StatementRefusedError } from '../../platform/sql/read-only-statement';
import { bindStatementParameters } from '../../platform/sql/statement-parameters';
import { significant, tokenize } from '../../platform/sql/tokenizer';
import type { Workspace } from '../../platform/port';
import type { Caller } from '../../schemas/governance';
import type { StatementRequest, StatementResponse } from '../../schemas/workbench';
import {
  cancelRequested,
  dropExpiredStatements,
  endStatement,
  getStatement,
  insertStatement,
  requestCancel,
  type StatementRow,
} from '../../store/workbench/statements';
import type { AppDeps } from '../deps';
import { assertAllowed } from '../governance/access';
import { guardUserSql } from '../governance/sql-guard';
import { recordQueryRead } from '../../store/analysis/query-log';
import type { TableReference } from '../../platform/sql/referenced-tables';
import { HttpError } from '../middleware/http-error';

/** How often a running statement looks for a cancel asked through another API process. */
const CANCEL_POLL_MS = 500;

/** Statements this process runs: id → their abort controller (a cancel here stops them at once). */
export class StatementRunner {
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>();
  private poller: NodeJS.Timeout | null = null;

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
    void dropExpiredStatements(db).catch(log('dropping expired statements failed'));
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
      .then(([, end]) => endStatement(db, s.id, end))
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

const waitMsOf = (waitTimeout: string) => Number(/^(\d+)s$/.exec(waitTimeout)?.[1] ?? 10) * 1000;

function refused(err: StatementRefusedError): HttpError {
  return new HttpError(400, 'STATEMENT_NOT_ALLOWED', err.message, [
    { path: 'body.statement', message: err.keyword ? `${err.keyword} is not allowed` : err.message },
  ]);
}

/**
 * What the workbench runs for a request: checked to be one read-only statement (400 naming the keyword before
 * any engine sees it), names qualified with `catalog`/`schema`, and every table it reads checked against the
 * caller's access policies (governance's SQL guard; 403 naming the table and rule).
 */
export async function checkedStatement(
  deps: AppDeps,
  caller: Caller,
  body: Pick<StatementRequest, 'statement' | 'catalog' | 'schema' | 'parameters'>,
  field = 'body.statement',
): Promise<{ sql: string; tables: TableReference[] }> {
  if (body.schema && !body.catalog) {
    throw new HttpError(400, 'VALIDATION_ERROR', 'schema needs catalog', [
      { path: 'body.catalog', message: 'required when schema is given' },
    ]);
  }
  let statement;
  try {
    statement = readOnlyStatement(body.statement);
  } catch (err) {
    if (err instanceof StatementRefusedError) throw refused(err);
    throw err;
  }
  const sql = qualifyNames(statement.sql, body.catalog, body.schema);
  // The guard parses SQL; parameter markers are values, so NULL stands in for each while it reads the text.
  const forGuard = bindStatementParameters(sql, body.parameters ?? [], () => 'NULL').sql;
  let tables: TableReference[] = [];
  if (statement.kind === 'SELECT' || statement.kind === 'WITH' || statement.kind === 'VALUES') {
    tables = await guardUserSql(deps, caller, { sql: forGuard, kind: 'query', field });
  } else if (statement.kind === 'EXPLAIN') {
    const t = tokenize(forGuard).filter(significant);
    let k = 1;
    while (['EXTENDED', 'FORMATTED', 'COST', 'CODEGEN'].includes(t[k]?.value.toUpperCase() ?? '')) k++;
    const inner = forGuard.slice(forGuard.indexOf(t[k]?.text ?? '', forGuard.indexOf(t[0].text) + t[0].text.length));
    await guardUserSql(deps, caller, { sql: inner, kind: 'query', field });
  } else {
    await guardCatalogStatement(deps, caller, forGuard, field);
  }
  return { sql, tables };
}

/** The tables a statement reads, in the query log that column and table usage count on the local lakehouse. */
export async function recordReads(deps: AppDeps, ws: Workspace, tables: TableReference[], purpose: string) {
  for (const t of tables) {
    if (!t.catalog || !t.schema) continue;
    await recordQueryRead(deps.store.db, {
      workspace: ws.id,
      catalog: t.catalog,
      schema: t.schema,
      table: t.table,
      columns: [],
      purpose,
    });
  }
}

/** SHOW and DESCRIBE read what they name: a table (as a SELECT of it would) or the listing of a schema/catalog. */
async function guardCatalogStatement(deps: AppDeps, caller: Caller, sql: string, field: string): Promise<void> {
  const t = tokenize(sql).filter(significant);
  const names: string[] = [];
  for (let k = 0; k < t.length; k++) {
    if (t[k].type !== 'ident' && t[k].type !== 'qident') continue;
    if (
      t[k].type === 'ident' &&
      /^(SHOW|DESCRIBE|DESC|TABLE|EXTENDED|TABLES|VIEWS|SCHEMAS|DATABASES|COLUMNS|CATALOGS|IN|FROM|FUNCTIONS|HISTORY|DETAIL|LIKE)$/i.test(
        t[k].value,
      )
    )
      continue;
    names.push(t[k].value);
    while (t[k + 1]?.text === '.' && t[k + 2]) {
      names.push(t[k + 2].value);
      k += 2;
    }
    break;
  }
  const first = t[0].value.toUpperCase();
  const whatWord = t[1]?.value.toUpperCase();
  if (first === 'DESCRIBE' || first === 'DESC' || whatWord === 'COLUMNS') {
    if (names.length === 3) {
      const q = names.map((n) => `\`${n.replace(/`/g, '``')}\``).join('.');
      await guardUserSql(deps, caller, { sql: `SELECT * FROM ${q}`, kind: 'query', field });
    }
    return;
  }
  if (names.length >= 1) {
    await assertAllowed(deps, caller, {
      operation: 'read',
      source: names[0],
      ...(names[1] ? { schemas: [names[1]] } : {}),
    });
  }
}

/** The stored statement, as the caller may see it: another caller's statement is a 404, like a missing one. */
export async function statementOf(deps: AppDeps, caller: Caller, id: string): Promise<StatementRow> {
  const row = await statementNow(deps.store.db, id);
  if (!row || (row.caller !== caller.name && caller.role !== 'admin')) {
    throw new HttpError(404, 'NOT_FOUND', `statement ${id} does not exist (or its result expired after an hour)`, [
      { path: 'params.statementId', message: 'unknown statement' },
    ]);
  }
  return row;
}

export function viewOf(row: StatementRow): StatementResponse {
  return statementView({
    id: row.id,
    state: row.state as StatementResponse['status']['state'],
    errorCode: row.errorCode,
    errorMessage: row.errorMessage,
    columns: row.columns,
    rows: row.rows,
    truncated: row.truncated,
  });
}

/** POST /api/sql/statements. */
export async function submitStatement(
  deps: AppDeps,
  runner: StatementRunner,
  req: Request,
  caller: Caller,
  body: StatementRequest,
): Promise<StatementResponse> {
  const { sql, tables } = await checkedStatement(deps, caller, body);
  const ws = await deps.workspaces.resolve(req);
  await recordReads(deps, ws, tables, 'workbench');
  const id = randomUUID();
  await runner.start(
    ws,
    { id, caller: caller.name, statement: body.statement, sql, catalog: body.catalog, schema: body.schema },
    body,
    waitMsOf(body.wait_timeout),
  );
  return viewOf((await statementNow(deps.store.db, id))!);
}

/** POST /api/sql/statements/{id}/cancel: stops it here at once, or flags it for the API process running it. */
export async function cancelStatement(deps: AppDeps, runner: StatementRunner, caller: Caller, id: string) {
  const row = await statementOf(deps, caller, id);
  if (row.state !== 'RUNNING' && row.state !== 'PENDING') return viewOf(row);
  await requestCancel(deps.store.db, id);
  if (runner.cancelHere(id)) await runner.settled(id, 5000);
  return viewOf((await statementNow(deps.store.db, id))!);
}
