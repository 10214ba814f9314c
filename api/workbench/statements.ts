import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import { statementView } from '../../activities/workbench/logic/result-text';
import { qualifyNames, readOnlyStatement, StatementRefusedError } from '../../platform/sql/read-only-statement';
import { bindStatementParameters } from '../../platform/sql/statement-parameters';
import { significant, tokenize } from '../../platform/sql/tokenizer';
import type { Workspace } from '../../platform/port';
import type { Caller } from '../../schemas/governance';
import type { StatementRequest, StatementResponse } from '../../schemas/workbench';
import { requestCancel, type StatementRow } from '../../store/workbench/statements';
import type { AppDeps } from '../deps';
import { statementNow, type StatementRunner } from './statement-runner';
import { assertAllowed } from '../governance/access';
import { guardUserSql } from '../governance/sql-guard';
import { recordQueryRead } from '../../store/analysis/query-log';
import type { TableReference } from '../../platform/sql/referenced-tables';
import { HttpError } from '../middleware/http-error';

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
