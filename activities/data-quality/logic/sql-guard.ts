import { isPunct, isWord, significant, SqlTokenError, tokenize, type Token } from '../../../platform/sql/tokenizer';

/** What a piece of user SQL must be: a predicate/expression (sql_expression, filter) or one SELECT (sql_query). */
export type UserSqlKind = 'expression' | 'query';

const WRITE_WORDS = new Set(
  (
    'INSERT UPDATE DELETE MERGE CREATE DROP ALTER TRUNCATE COPY ATTACH DETACH INSTALL LOAD PRAGMA SET RESET CALL ' +
    'EXPORT IMPORT GRANT REVOKE VACUUM OPTIMIZE RESTORE CHECKPOINT USE REFRESH MSCK CACHE UNCACHE ANALYZE REPLACE'
  ).split(' '),
);
/** Words that only a column name may share with a statement; refused only at the start of the text. */
const SOFT_WORDS = new Set(['SET', 'USE', 'LOAD', 'CACHE', 'REPLACE', 'ANALYZE', 'REFRESH']);
/** Functions that read files or the process environment (DuckDB) — never in a check. */
const DENIED_FUNCTIONS = new Set(
  (
    'read_csv read_csv_auto read_parquet parquet_scan parquet_metadata parquet_schema read_json read_json_auto ' +
    'read_ndjson read_ndjson_auto read_text read_blob glob sniff_csv delta_scan iceberg_scan getenv ' +
    'duckdb_settings duckdb_extensions query query_table read_files java_method reflect'
  ).split(' '),
);
const READ_STARTS = new Set(['SELECT', 'WITH']);

/** Why `text` is not acceptable user SQL of this kind, or null when it is. The text is never rewritten. */
export function checkUserSql(text: string, kind: UserSqlKind): string | null {
  let tokens: Token[];
  try {
    tokens = tokenize(text);
  } catch (e) {
    if (e instanceof SqlTokenError) return e.message;
    throw e;
  }
  // A line comment would swallow whatever the compiler writes after the text.
  if (tokens.some((t) => t.type === 'comment' && t.text.startsWith('--'))) return 'must not contain -- comments';
  const sig = tokens.filter(significant);
  if (sig.length === 0) return 'must not be empty';
  if (sig.some((t) => isPunct(t, ';'))) return 'must be a single statement without ;';
  let depth = 0;
  for (const t of sig) {
    if (isPunct(t, '(')) depth++;
    if (isPunct(t, ')') && --depth < 0) return 'has an unbalanced )';
  }
  if (depth !== 0) return 'has an unbalanced (';
  const first = sig[0];
  if (kind === 'query' && !(first.type === 'ident' && READ_STARTS.has(first.value.toUpperCase()))) {
    return `must be one read-only SELECT, got ${first.text}`;
  }
  for (let i = 0; i < sig.length; i++) {
    const t = sig[i];
    if (t.type !== 'ident') continue;
    const upper = t.value.toUpperCase();
    if (isPunct(sig[i - 1], '.')) continue;
    if (DENIED_FUNCTIONS.has(t.value.toLowerCase()) && isPunct(sig[i + 1], '(')) {
      return `must not call ${t.value}()`;
    }
    const soft = SOFT_WORDS.has(upper) && (i !== 0 || isPunct(sig[i + 1], '('));
    if (WRITE_WORDS.has(upper) && !soft) {
      return `must be read-only (found ${upper}); a column with that name needs backticks`;
    }
  }
  for (let i = 1; i < sig.length; i++) {
    if (sig[i].type === 'string' && (isWord(sig[i - 1], 'FROM') || isWord(sig[i - 1], 'JOIN'))) {
      return 'must read tables by name, not files by path';
    }
  }
  return null;
}
