import type { DuckDBConnection } from '@duckdb/node-api';
import { withDuck } from '../local/duck';
import { parseTree, referencesOf, type Json } from './referenced-tables';

/** A join as the statement writes it: the tables on its left, the one it adds, and its ON condition. */
export interface JoinFact {
  type: string;
  left: string[];
  right: string;
  condition: string | null;
}

/** What a query does, read from DuckDB's parse tree (`json_serialize_sql`); expressions in DuckDB's SQL text. */
export interface QueryFacts {
  /** Tables read, as written (`catalog.schema.table` once names are qualified), first appearance first. */
  tables: string[];
  /** Each AND-ed condition of every WHERE and HAVING (subqueries included). */
  filters: string[];
  joins: JoinFact[];
  /** Aggregate function calls (not window functions). */
  aggregations: string[];
  group_by: string[];
  windows: string[];
}

type Obj = { [k: string]: Json };
const isObj = (n: Json): n is Obj => !!n && typeof n === 'object' && !Array.isArray(n);

const AGGREGATES = new Set(
  (
    'count count_star sum avg mean min max median mode stddev stddev_pop stddev_samp variance var_pop var_samp ' +
    'approx_count_distinct approx_percentile percentile_cont percentile_disc quantile_cont quantile_disc ' +
    'count_if countif any_value first last arg_max arg_min max_by min_by string_agg listagg list array_agg ' +
    'collect_list collect_set bool_and bool_or every some corr covar_pop covar_samp product histogram'
  ).split(' '),
);

const tableName = (n: Obj) => [n.catalog_name, n.schema_name, n.table_name].filter((p) => p).join('.');

/** The tables of a FROM item, for naming the left side of a join. */
function tablesOfRef(n: Json): string[] {
  if (!isObj(n)) return [];
  if (n.type === 'BASE_TABLE') return [tableName(n)];
  if (n.type === 'JOIN') return [...tablesOfRef(n.left), ...tablesOfRef(n.right)];
  if (n.type === 'SUBQUERY') return [n.alias ? `(subquery ${String(n.alias)})` : '(subquery)'];
  if (n.type === 'TABLE_FUNCTION') return [`${String((n.function as Obj)?.function_name ?? 'function')}(…)`];
  return [];
}

/** AND-ed parts of a condition. */
function conjuncts(e: Json): Json[] {
  if (isObj(e) && e.type === 'CONJUNCTION_AND') return (e.children as Json[]).flatMap(conjuncts);
  return e ? [e] : [];
}

interface Pending {
  filters: Json[];
  joins: { type: string; left: string[]; right: string; condition: Json }[];
  aggregations: Json[];
  group_by: Json[];
  windows: Json[];
}

function walk(n: Json, out: Pending, inWindow: boolean): void {
  if (Array.isArray(n)) return n.forEach((x) => walk(x, out, inWindow));
  if (!isObj(n)) return;
  if (n.type === 'SELECT_NODE') {
    out.filters.push(...conjuncts(n.where_clause ?? null), ...conjuncts(n.having ?? null));
    out.group_by.push(...((n.group_expressions as Json[]) ?? []));
  }
  if (n.type === 'JOIN' && !n.class) {
    const right = tablesOfRef(n.right);
    const type = n.ref_type === 'CROSS' ? 'CROSS' : `${String(n.join_type)}`;
    out.joins.push({ type, left: tablesOfRef(n.left), right: right.join(', '), condition: n.condition ?? null });
  }
  if (n.class === 'WINDOW') out.windows.push(n);
  if (n.class === 'FUNCTION' && !inWindow && AGGREGATES.has(String(n.function_name).toLowerCase())) {
    out.aggregations.push(n);
  }
  for (const v of Object.values(n)) walk(v, out, inWindow || n.class === 'WINDOW');
}

/** Expressions back to SQL text with DuckDB's own deserializer (`SELECT <expr>` of a template statement). */
async function render(conn: DuckDBConnection, exprs: Json[]): Promise<string[]> {
  if (exprs.length === 0) return [];
  const base = (await conn.runAndReadAll("SELECT json_serialize_sql('SELECT 1')::VARCHAR AS j")).getRows()[0][0];
  const doc = JSON.parse(String(base)) as { statements: { node: Obj }[] };
  const out: string[] = [];
  for (const e of exprs) {
    doc.statements[0].node.select_list = [{ ...(e as Obj), alias: '' }];
    // query_location may be 2^64-1 (unknown), which JSON numbers in JS cannot carry; it only feeds error messages.
    const text = JSON.stringify(doc, (k, v: unknown) => (k === 'query_location' ? 0 : v));
    const reader = await conn.runAndReadAll('SELECT json_deserialize_sql($1::JSON) AS s', [text]);
    out.push(tidy(String(reader.getRows()[0][0]).replace(/^SELECT /, '')));
  }
  return out;
}

/** DuckDB's operator spellings back to SQL's, outer parentheses dropped. */
function tidy(s: string): string {
  let t = s
    .replace(/count_star\(\)/g, 'count(*)')
    .replace(/ !~~\* /g, ' NOT ILIKE ')
    .replace(/ ~~\* /g, ' ILIKE ')
    .replace(/ !~~ /g, ' NOT LIKE ')
    .replace(/ ~~ /g, ' LIKE ')
    .replace(/ = ANY\((SELECT )/g, ' IN ($1');
  while (t.startsWith('(') && t.endsWith(')') && balanced(t.slice(1, -1))) t = t.slice(1, -1);
  return t;
}

function balanced(s: string): boolean {
  let depth = 0;
  let quote = '';
  for (const c of s) {
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

const unique = (xs: string[]) => [...new Set(xs)];

/**
 * The facts an explanation is made of, from one parse of the statement (nothing is bound or run): the tables it
 * reads, its filters, joins, aggregations, grouping and window functions. Throws SqlParseError for SQL that does
 * not parse as one statement.
 */
export async function queryFacts(sql: string): Promise<QueryFacts> {
  const tree = await parseTree(sql);
  const refs = referencesOf(tree);
  const p: Pending = { filters: [], joins: [], aggregations: [], group_by: [], windows: [] };
  walk(tree, p, false);
  return withDuck(async (conn) => ({
    tables: unique(refs.tables.map((t) => [t.catalog, t.schema, t.table].filter(Boolean).join('.'))),
    filters: unique(await render(conn, p.filters)),
    joins: await Promise.all(
      p.joins.map(async (j) => ({
        type: j.type,
        left: j.left,
        right: j.right,
        condition: j.condition ? (await render(conn, [j.condition]))[0] : null,
      })),
    ),
    aggregations: unique(await render(conn, p.aggregations)),
    group_by: unique(await render(conn, p.group_by)),
    windows: unique(await render(conn, p.windows)),
  }));
}
