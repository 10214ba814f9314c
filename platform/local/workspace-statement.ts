import { JSDuckDBValueConverter, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api';
import { DeadlineExceededError, InvalidInputError, StatementCanceledError } from '../errors';
import { bindStatementParameters } from '../sql/statement-parameters';
import type { Workspace } from '../port';
import { readOnlyStatement } from '../sql/read-only-statement';
import { withRowLimit } from '../sql/row-limit';
import { isPunct, isWord, significant, tokenize, type Token } from '../sql/tokenizer';
import type { QueryColumn, StatementOptions, StatementResult, TableRef } from '../types';
import { withDuck } from './duck';
import { Resolver } from './sql/resolve';
import { toJsValue } from './sql/result';
import { databricksToDuck, duckToDatabricks } from './sql/types';
import { defineMacros, LocalResolverHost } from './workspace-sql';
import type { LocalContext } from './workspace-context';

/**
 * A workbench statement on the local lakehouse: `:name` markers become DuckDB parameters bound as text and cast
 * to their declared type, the query is resolved like `query` (names, time travel, row filters, column masks),
 * limited to `rowLimit` + 1 rows inside the engine and run whole, unless it has its own LIMIT (then DuckDB's
 * streaming result is read chunk by chunk until `rowLimit` rows); a timeout or an abort interrupts the connection,
 * which stops the query inside DuckDB.
 */
export async function executeStatement(
  ws: Workspace,
  ctx: LocalContext,
  sql: string,
  opts: StatementOptions,
): Promise<StatementResult> {
  const statement = readOnlyStatement(sql);
  if (statement.kind === 'SHOW' || statement.kind === 'DESCRIBE') {
    if (opts.signal?.aborted) throw new StatementCanceledError('the statement was cancelled before it started');
    const r = await catalogStatement(ws, statement.sql);
    return { columns: r.columns, rows: r.rows.slice(0, opts.rowLimit), truncated: r.rows.length > opts.rowLimit };
  }
  if (statement.kind === 'EXPLAIN') return explain(ctx, statement.sql, opts);
  const bound = bindStatementParameters(sql, opts.parameters ?? [], (name, type) =>
    type ? `CAST($${name} AS ${databricksToDuck(type)})` : `$${name}`,
  );
  const resolver = new Resolver(new LocalResolverHost(ctx));
  const duckSql = await resolver.resolveQuery(bound.sql);
  const values: Record<string, DuckDBValue> = {};
  for (const p of bound.parameters) values[p.name] = p.value;
  return withDuck(async (conn) => {
    await defineMacros(conn, resolver);
    return stoppable(conn, opts, async () => {
      // One row past the limit tells whether the answer is truncated; the engine stops scanning there. Limited
      // so, the result is at most rowLimit + 1 rows and is run whole, on all of DuckDB's threads (a streaming
      // result pauses them whenever its small buffer is full: 1.5-2x the time). A query with its own LIMIT,
      // OFFSET or FETCH may be larger: its streaming result is read only up to rowLimit + 1 rows.
      const limited = withRowLimit(duckSql, opts.rowLimit + 1);
      const result = limited === duckSql ? await conn.stream(limited, values) : await conn.run(limited, values);
      const names = result.columnNames();
      const types = result.columnTypes().map((t) => duckToDatabricks(String(t)));
      const rows: unknown[][] = [];
      let truncated = false;
      for (;;) {
        const chunk = await result.fetchChunk();
        if (!chunk || chunk.rowCount === 0) break;
        for (const row of chunk.convertRows(JSDuckDBValueConverter)) {
          if (rows.length === opts.rowLimit) {
            truncated = true;
            break;
          }
          rows.push(row.map((v, i) => toJsValue(v, types[i])));
        }
        if (truncated) break;
      }
      return { columns: names.map((name, i) => ({ name, type: types[i] })), rows, truncated };
    });
  });
}

/** Runs `fn` on `conn`, interrupting the connection at the timeout or when the signal aborts. */
async function stoppable<T>(conn: DuckDBConnection, opts: StatementOptions, fn: () => Promise<T>): Promise<T> {
  let stopped: 'timeout' | 'cancel' | null = null;
  let again: NodeJS.Timeout | undefined;
  // An interrupt stops what the connection runs now; one that comes while the query is still being prepared or
  // started finds nothing to stop, so it is repeated until `fn` ends.
  const stop = (why: 'timeout' | 'cancel') => {
    if (stopped) return;
    stopped = why;
    conn.interrupt();
    again = setInterval(() => conn.interrupt(), REINTERRUPT_MS);
  };
  if (opts.signal?.aborted) throw new StatementCanceledError('the statement was cancelled before it started');
  const timer = setTimeout(() => stop('timeout'), opts.timeoutMs);
  const onAbort = () => stop('cancel');
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    return await fn();
  } catch (err) {
    if (stopped === 'timeout')
      throw new DeadlineExceededError(`the statement ran longer than ${opts.timeoutMs / 1000} s and was stopped`);
    if (stopped === 'cancel') throw new StatementCanceledError('the statement was cancelled');
    // DuckDB quotes the translated SQL (with the lakehouse's file paths) after `LINE n:`; the caller wrote other SQL.
    const message = String((err as Error)?.message ?? err)
      .split('\n')
      .filter((l) => !/^LINE \d+:/.test(l) && !/^\s*\^\s*$/.test(l))
      .join('\n')
      .trim();
    throw new InvalidInputError(`statement failed: ${message}`, { cause: err });
  } finally {
    clearTimeout(timer);
    clearInterval(again);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

/** How often a stopped statement's connection is interrupted again until its query has ended. */
const REINTERRUPT_MS = 50;

/** EXPLAIN of a query: DuckDB's physical plan of the resolved query, as one `plan` row (Databricks' column). */
async function explain(ctx: LocalContext, sql: string, opts: StatementOptions): Promise<StatementResult> {
  const all = tokenize(sql);
  const tokens = all.filter(significant);
  let k = 1;
  while (['EXTENDED', 'FORMATTED', 'COST', 'CODEGEN'].some((w) => isWord(tokens[k], w))) k++;
  const inner = all
    .slice(all.indexOf(tokens[k]))
    .map((t) => t.text)
    .join('');
  const resolver = new Resolver(new LocalResolverHost(ctx));
  const bound = bindStatementParameters(inner, opts.parameters ?? [], (name, type) =>
    type ? `CAST($${name} AS ${databricksToDuck(type)})` : `$${name}`,
  );
  const duckSql = await resolver.resolveQuery(bound.sql);
  const values: Record<string, DuckDBValue> = {};
  for (const p of bound.parameters) values[p.name] = p.value;
  return withDuck(async (conn) => {
    await defineMacros(conn, resolver);
    return stoppable(conn, opts, async () => {
      const reader = await conn.runAndReadAll(`EXPLAIN ${duckSql}`, values);
      const plan = reader
        .getRowObjectsJS()
        .map((r) => String(r.explain_value ?? ''))
        .join('\n');
      return {
        columns: [{ name: 'plan', type: 'string' }],
        rows: [[`== Physical Plan ==\n${plan}`]],
        truncated: false,
      };
    });
  });
}

const col = (name: string, type = 'string'): QueryColumn => ({ name, type });

/** A dotted name from `tokens` at `k`: its parts (quoted names unquoted) and the index after it. */
function nameAt(tokens: Token[], k: number): { parts: string[]; next: number } {
  const parts: string[] = [];
  let j = k;
  while (tokens[j] && (tokens[j].type === 'ident' || tokens[j].type === 'qident')) {
    parts.push(tokens[j].value);
    if (!isPunct(tokens[j + 1], '.')) {
      j++;
      break;
    }
    j += 2;
  }
  return { parts, next: j };
}

function tableRef(parts: string[], what: string): TableRef {
  if (parts.length !== 3)
    throw new InvalidInputError(`${what} needs catalog.schema.table (or the catalog and schema fields)`);
  return { catalog: parts[0], schema: parts[1], name: parts[2] };
}

/**
 * SHOW CATALOGS | SCHEMAS | TABLES | VIEWS | COLUMNS and DESCRIBE [TABLE] [EXTENDED] on the local lakehouse,
 * answered from its catalog with Databricks' column names.
 */
async function catalogStatement(ws: Workspace, sql: string): Promise<{ columns: QueryColumn[]; rows: unknown[][] }> {
  const t = tokenize(sql).filter(significant);
  if (isWord(t[0], 'DESCRIBE') || isWord(t[0], 'DESC')) {
    let k = 1;
    while (isWord(t[k], 'TABLE') || isWord(t[k], 'EXTENDED')) k++;
    const ref = tableRef(nameAt(t, k).parts, 'DESCRIBE');
    const d = await ws.describeTable(ref);
    return {
      columns: [col('col_name'), col('data_type'), col('comment')],
      rows: d.columns.map((c) => [c.name, c.type, c.comment ?? null]),
    };
  }
  const what = t[1]?.value.toUpperCase();
  const inName = isWord(t[2], 'IN') || isWord(t[2], 'FROM') ? nameAt(t, 3).parts : [];
  if (what === 'CATALOGS') return { columns: [col('catalog')], rows: (await ws.listCatalogs()).map((c) => [c.name]) };
  if (what === 'SCHEMAS' || what === 'DATABASES') {
    if (inName.length !== 1) throw new InvalidInputError('SHOW SCHEMAS needs IN <catalog> (or the catalog field)');
    return { columns: [col('databaseName')], rows: (await ws.listSchemas(inName[0])).map((s) => [s.name]) };
  }
  if (what === 'TABLES' || what === 'VIEWS') {
    if (inName.length !== 2) throw new InvalidInputError(`SHOW ${what} needs IN catalog.schema (or the catalog field)`);
    const [catalog, schema] = inName;
    const names =
      what === 'TABLES'
        ? [
            ...(await ws.listTables(catalog, schema)).map((x) => x.name),
            ...(await ws.listViews(catalog, schema)).map((x) => x.name),
          ].sort()
        : (await ws.listViews(catalog, schema)).map((x) => x.name);
    return {
      columns: [
        col(what === 'TABLES' ? 'database' : 'namespace'),
        col(what === 'TABLES' ? 'tableName' : 'viewName'),
        col('isTemporary', 'boolean'),
      ],
      rows: names.map((n) => [schema, n, false]),
    };
  }
  if (what === 'COLUMNS') {
    const ref = tableRef(inName, 'SHOW COLUMNS');
    return { columns: [col('col_name')], rows: (await ws.describeTable(ref)).columns.map((c) => [c.name]) };
  }
  throw new InvalidInputError(
    `SHOW ${what ?? ''} is not available on the local lakehouse (CATALOGS, SCHEMAS, TABLES, VIEWS and COLUMNS are)`,
  );
}
