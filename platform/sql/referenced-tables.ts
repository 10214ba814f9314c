import { InvalidInputError } from '../errors';
import { withDuck } from '../local/duck';
import { tokenize } from './tokenizer';

/** A table a statement reads, as written (missing parts are empty strings). */
export interface TableReference {
  catalog: string;
  schema: string;
  table: string;
}

/** What a piece of user SQL reads, from a real parse of it. */
export interface SqlReferences {
  tables: TableReference[];
  /** Table functions (`read_parquet(...)`, `range(...)`) in FROM clauses: names. */
  tableFunctions: string[];
}

/** SQL the parser rejects (a syntax error): invalid input, 400 naming the field. */
export class SqlParseError extends InvalidInputError {}

/**
 * Databricks SQL → the same statement in DuckDB's quoting: backtick names become "names" and "strings" become
 * 'strings' (Databricks reads a double-quoted token as a string literal, DuckDB as a name), and the Spark
 * operators DuckDB's grammar lacks become ones it parses (`RLIKE`/`REGEXP` → `~`, `<=>` → IS NOT DISTINCT FROM).
 * Only tokens change, never names, so the parse sees the tables the statement really names.
 */
export function toDuckQuoting(sql: string): string {
  return tokenize(sql)
    .map((t) => {
      if (t.type === 'qident') return `"${t.value.replace(/"/g, '""')}"`;
      if (t.type === 'string') return `'${t.value.replace(/'/g, "''")}'`;
      if (t.type === 'ident' && /^(RLIKE|REGEXP)$/i.test(t.text)) return '~';
      if (t.type === 'punct' && t.text === '<=>') return ' IS NOT DISTINCT FROM ';
      return t.text;
    })
    .join('');
}

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

/** Walks DuckDB's serialized parse tree: every BASE_TABLE and TABLE_FUNCTION, minus the names of CTEs. */
function collect(node: Json, out: SqlReferences, ctes: Set<string>): void {
  if (Array.isArray(node)) {
    for (const n of node) collect(n, out, ctes);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const cteMap = (node.cte_map as { map?: { key: string }[] } | undefined)?.map;
  const scope = cteMap?.length ? new Set([...ctes, ...cteMap.map((c) => c.key.toLowerCase())]) : ctes;
  if (node.type === 'BASE_TABLE' && typeof node.table_name === 'string') {
    const ref = {
      catalog: String(node.catalog_name ?? ''),
      schema: String(node.schema_name ?? ''),
      table: node.table_name,
    };
    if (ref.catalog || ref.schema || !scope.has(ref.table.toLowerCase())) out.tables.push(ref);
  }
  if (node.type === 'TABLE_FUNCTION') {
    const fn = node.function as { function_name?: string } | undefined;
    out.tableFunctions.push(fn?.function_name ?? 'unknown');
  }
  for (const value of Object.values(node)) collect(value, out, scope);
}

/**
 * The tables a SELECT (or a predicate, given as `SELECT 1 FROM … WHERE <predicate>`) reads, by parsing it with
 * DuckDB's SQL parser (`json_serialize_sql`: parse only, nothing is bound or run). Databricks quoting is turned
 * into DuckDB's first. Throws SqlParseError when it does not parse as one SELECT statement.
 */
export async function referencedTables(sql: string): Promise<SqlReferences> {
  return referencesOf(await parseTree(sql));
}

/** The tables and table functions a parse tree (from `parseTree`) reads, CTE names left out. */
export function referencesOf(tree: Json): SqlReferences {
  const out: SqlReferences = { tables: [], tableFunctions: [] };
  collect(tree, out, new Set());
  return out;
}

/**
 * Serialized parse trees of recent SQL texts (a rerun statement, a notebook cell run again, the same check on every
 * request of a dashboard): the text's parse is the same every time, and asking DuckDB costs a connection and a
 * query (2-4 ms). Each caller gets its own tree from the kept JSON.
 */
const parsed = new Map<string, string>();
const PARSED_KEPT = 500;
const PARSED_TEXT_MAX = 20_000;

/**
 * DuckDB's serialized parse tree of one statement (Databricks quoting turned into DuckDB's first), as an array
 * holding that statement. Throws SqlParseError when it does not parse as exactly one statement.
 */
export async function parseTree(sql: string): Promise<Json> {
  const text = toDuckQuoting(sql);
  let json = parsed.get(text);
  if (json === undefined) {
    json = await withDuck(async (conn) => {
      const reader = await conn.runAndReadAll('SELECT json_serialize_sql($1::VARCHAR) AS j', [text]);
      return String(reader.getRowObjects()[0].j);
    });
    if (text.length <= PARSED_TEXT_MAX) {
      parsed.set(text, json);
      if (parsed.size > PARSED_KEPT) parsed.delete(parsed.keys().next().value!);
    }
  } else {
    // Most recently used last (a Map keeps insertion order), so the oldest use is evicted first.
    parsed.delete(text);
    parsed.set(text, json);
  }
  const tree = JSON.parse(json) as { error: boolean; error_message?: string; statements?: Json[] };
  if (tree.error) throw new SqlParseError(`does not parse as one SELECT: ${tree.error_message ?? 'syntax error'}`);
  if ((tree.statements ?? []).length !== 1) throw new SqlParseError('must be exactly one statement');
  return tree.statements as Json;
}
