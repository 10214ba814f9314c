import { duckIdent, duckString, instanceOf } from '../duck';
import type { DuckDBConnection } from '@duckdb/node-api';
import { InvalidInputError } from '../../errors';
import { isPunct, isWord, significant, type Token } from '../../sql/tokenizer';

/** Databricks SQL → DuckDB SQL, token by token, for the parts the two dialects spell differently. */

/** Databricks functions DuckDB lacks or spells differently, defined once per DuckDB instance. */
const HELPER_MACROS = [
  `CREATE OR REPLACE MACRO lw_sha2(x, n) AS CASE WHEN n IN (0, 256) THEN sha256(CAST(x AS VARCHAR)) END`,
  `CREATE OR REPLACE MACRO lw_date_add(d, n) AS CAST(d AS DATE) + CAST(n AS INTEGER)`,
  `CREATE OR REPLACE MACRO lw_date_sub(d, n) AS CAST(d AS DATE) - CAST(n AS INTEGER)`,
  `CREATE OR REPLACE MACRO lw_datediff(e, s) AS date_diff('day', CAST(s AS DATE), CAST(e AS DATE))`,
  `CREATE OR REPLACE MACRO lw_regexp_replace(s, p, r) AS regexp_replace(s, p, r, 'g')`,
  `CREATE OR REPLACE MACRO lw_nvl2(x, a, b) AS CASE WHEN x IS NOT NULL THEN a ELSE b END`,
  // Data-quality checks: JSON validity and keys (DuckDB raises on bad JSON where Databricks returns NULL),
  // Spark datetime patterns and percentiles.
  `CREATE OR REPLACE MACRO lw_try_parse_json(s) AS CASE WHEN json_valid(s) THEN json(s) END`,
  `CREATE OR REPLACE MACRO lw_json_object_keys(s) AS CASE WHEN json_valid(s) THEN json_keys(CASE WHEN json_valid(s) THEN s ELSE '{}' END) END`,
  `CREATE OR REPLACE MACRO lw_get_json_object(s, p) AS json_extract_string(CASE WHEN json_valid(s) THEN s ELSE 'null' END, p)`,
  // DuckDB's strptime needs a constant format: the Spark patterns in common use, each spelled out.
  `CREATE OR REPLACE MACRO lw_try_to_timestamp(s, f) AS CASE WHEN f = 'yyyy-MM-dd' THEN try_strptime(s, '%Y-%m-%d') WHEN f = 'yyyy/MM/dd' THEN try_strptime(s, '%Y/%m/%d') WHEN f = 'dd-MM-yyyy' THEN try_strptime(s, '%d-%m-%Y') WHEN f = 'dd/MM/yyyy' THEN try_strptime(s, '%d/%m/%Y') WHEN f = 'MM/dd/yyyy' THEN try_strptime(s, '%m/%d/%Y') WHEN f = 'yyyyMMdd' THEN try_strptime(s, '%Y%m%d') WHEN f = 'yyyy-MM-dd HH:mm:ss' THEN try_strptime(s, '%Y-%m-%d %H:%M:%S') WHEN f = 'yyyy-MM-dd''T''HH:mm:ss' THEN try_strptime(s, '%Y-%m-%dT%H:%M:%S') ELSE error('this Spark datetime pattern is not supported on the local lakehouse') END`,
];

export const FUNCTION_RENAMES: Record<string, string> = {
  nvl: 'coalesce',
  sha2: 'lw_sha2',
  size: 'len',
  rand: 'random',
  date_add: 'lw_date_add',
  date_sub: 'lw_date_sub',
  datediff: 'lw_datediff',
  regexp_replace: 'lw_regexp_replace',
  nvl2: 'lw_nvl2',
  char_length: 'length',
  regexp_like: 'regexp_matches',
  try_parse_json: 'lw_try_parse_json',
  json_object_keys: 'lw_json_object_keys',
  get_json_object: 'lw_get_json_object',
  try_to_timestamp: 'lw_try_to_timestamp',
  unix_timestamp: 'epoch',
  percentile: 'quantile_cont',
  approx_percentile: 'approx_quantile',
};

/** Functions written with empty parentheses in Databricks but as bare keywords in DuckDB. */
export const NILADIC = new Set(['current_timestamp', 'current_date']);

/** Per DuckDB instance (the shared one, or a warehouse cluster's): helper macros are defined once in each. */
const helpers = new WeakMap<object, Promise<void>>();
export function ensureHelperMacros(conn: DuckDBConnection): Promise<void> {
  const key = instanceOf(conn);
  let done = helpers.get(key);
  if (!done) {
    done = (async () => {
      for (const sql of HELPER_MACROS) await conn.run(sql);
    })();
    done.catch(() => helpers.delete(key));
    helpers.set(key, done);
  }
  return done;
}

const SUFFIX_TYPES: Record<string, string> = {
  L: 'BIGINT',
  S: 'SMALLINT',
  Y: 'TINYINT',
  D: 'DOUBLE',
  F: 'FLOAT',
  BD: 'DECIMAL(38,18)',
};

/** DuckDB text of one token. */
export function emitToken(t: Token): string {
  switch (t.type) {
    case 'string':
      return duckString(t.value);
    case 'qident':
      return duckIdent(t.value);
    case 'number': {
      const m = /^(.*?)(BD|[LSYDF])$/i.exec(t.text);
      return m ? `CAST(${m[1]} AS ${SUFFIX_TYPES[m[2].toUpperCase()]})` : t.text;
    }
    case 'punct':
      if (t.text === '==') return '=';
      if (t.text === '<=>') return 'IS NOT DISTINCT FROM';
      return t.text;
    case 'ident':
      return t.value.toLowerCase() === 'timestamp_ntz' ? 'TIMESTAMP' : t.text;
    default:
      return t.text;
  }
}

const WRITE_WORDS = new Set([
  'INSERT',
  'UPDATE',
  'DELETE',
  'MERGE',
  'CREATE',
  'DROP',
  'ALTER',
  'TRUNCATE',
  'COPY',
  'ATTACH',
  'DETACH',
  'INSTALL',
  'LOAD',
  'PRAGMA',
  'SET',
  'RESET',
  'CALL',
  'EXPORT',
  'IMPORT',
  'GRANT',
  'REVOKE',
  'VACUUM',
  'OPTIMIZE',
  'RESTORE',
  'CHECKPOINT',
  'USE',
]);
const READ_STARTS = new Set(['SELECT', 'WITH', 'VALUES', 'FROM', 'TABLE']);
/** DuckDB functions that reach the local file system or the process: a workspace query must not. */
const DENIED_FUNCTIONS = new Set([
  'read_csv',
  'read_csv_auto',
  'read_parquet',
  'parquet_scan',
  'parquet_metadata',
  'parquet_schema',
  'read_json',
  'read_json_auto',
  'read_ndjson',
  'read_ndjson_auto',
  'read_text',
  'read_blob',
  'glob',
  'sniff_csv',
  'delta_scan',
  'iceberg_scan',
  'getenv',
  'duckdb_settings',
  'duckdb_extensions',
  'query',
  'query_table',
]);

/**
 * Rejects anything but one read-only statement (or expression, for predicates). Write keywords are refused
 * anywhere outside quotes, so a write cannot hide in a CTE; a column literally named `update` needs backticks.
 */
export function assertReadOnly(tokens: Token[], mode: 'query' | 'expression'): Token[] {
  const sig = tokens.filter(significant);
  let end = tokens.length;
  const lastSig = sig[sig.length - 1];
  if (lastSig && isPunct(lastSig, ';')) end = tokens.lastIndexOf(lastSig);
  const body = tokens.slice(0, end);
  const bodySig = body.filter(significant);
  if (bodySig.length === 0) throw new InvalidInputError('empty SQL');
  if (bodySig.some((t) => isPunct(t, ';'))) throw new InvalidInputError('only one SQL statement is allowed');
  const first = bodySig[0];
  if (
    mode === 'query' &&
    !(isPunct(first, '(') || (first.type === 'ident' && READ_STARTS.has(first.value.toUpperCase())))
  ) {
    throw new InvalidInputError(`only read-only queries (SELECT, WITH, VALUES) are allowed, got ${first.text}`);
  }
  bodySig.forEach((t, i) => {
    if (t.type === 'ident' && DENIED_FUNCTIONS.has(t.value.toLowerCase()) && isPunct(bodySig[i + 1], '(')) {
      throw new InvalidInputError(`function ${t.value} is not available in workspace SQL`);
    }
    if (t.type === 'string' && (isWord(bodySig[i - 1], 'FROM') || isWord(bodySig[i - 1], 'JOIN'))) {
      throw new InvalidInputError('reading files by path is not available in workspace SQL; use catalog.schema.table');
    }
    if (t.type === 'ident' && WRITE_WORDS.has(t.value.toUpperCase()) && !isPunct(bodySig[i - 1], '.')) {
      if (isWord(t, 'SET') || isWord(t, 'USE') || isWord(t, 'LOAD')) {
        // Common as column names; only refuse them as the first word of a statement.
        if (i !== 0) return;
      }
      throw new InvalidInputError(`write statements are not allowed here (found ${t.text.toUpperCase()})`);
    }
  });
  return body;
}
