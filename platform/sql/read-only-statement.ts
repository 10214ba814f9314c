import { InvalidInputError } from '../errors';
import { isPunct, isWord, significant, tokenize, type Token } from './tokenizer';

/** The statements a workbench runs: one read-only statement of these kinds. */
export const READ_ONLY_KINDS = ['SELECT', 'WITH', 'VALUES', 'SHOW', 'DESCRIBE', 'EXPLAIN'] as const;
export type ReadOnlyKind = (typeof READ_ONLY_KINDS)[number];

/** Words that make a statement write (or change the session); a column of that name needs backticks. */
const WRITE_WORDS = new Set(
  (
    'INSERT UPDATE DELETE MERGE CREATE DROP ALTER TRUNCATE COPY ATTACH DETACH INSTALL LOAD PRAGMA SET RESET CALL ' +
    'EXPORT IMPORT GRANT REVOKE VACUUM OPTIMIZE RESTORE CHECKPOINT USE REFRESH MSCK CACHE UNCACHE ANALYZE REPLACE ' +
    'COMMENT UNDROP REPAIR FSCK CONVERT CLONE'
  ).split(' '),
);
/** Common column names: refused only as the first word (where they start a statement). */
const SOFT_WORDS = new Set([
  'SET',
  'USE',
  'LOAD',
  'CACHE',
  'REPLACE',
  'ANALYZE',
  'REFRESH',
  'COMMENT',
  'COPY',
  'CLONE',
]);

export interface ReadOnlyStatement {
  kind: ReadOnlyKind;
  /** The statement without a trailing `;`. */
  sql: string;
}

/** A refusal that names the keyword which made the statement unacceptable (the API answers 400 with it). */
export class StatementRefusedError extends InvalidInputError {
  constructor(
    message: string,
    readonly keyword: string | null,
  ) {
    super(message);
  }
}

/**
 * Checks that `text` is exactly one read-only statement (SELECT, WITH, VALUES, SHOW, DESCRIBE or EXPLAIN; a
 * query may start with `(`) before any engine sees it. Anything else — a write, a second statement, a session
 * change — is a StatementRefusedError naming the keyword. `EXPLAIN` of a write is refused too.
 */
export function readOnlyStatement(text: string): ReadOnlyStatement {
  const tokens = tokenize(text);
  const sig = tokens.filter(significant);
  let end = sig.length;
  while (end > 0 && isPunct(sig[end - 1], ';')) end--;
  const body = sig.slice(0, end);
  if (body.length === 0) throw new StatementRefusedError('statement must not be empty', null);
  const semi = body.find((t) => isPunct(t, ';'));
  if (semi) throw new StatementRefusedError('statement must be one statement: found ; between two', ';');
  let i = 0;
  while (isPunct(body[i], '(')) i++;
  const first = body[i];
  const word = first?.type === 'ident' ? first.value.toUpperCase() : (first?.text ?? '');
  const kind = word === 'DESC' ? 'DESCRIBE' : word;
  if (
    !(READ_ONLY_KINDS as readonly string[]).includes(kind) ||
    (i > 0 && !['SELECT', 'WITH', 'VALUES'].includes(kind))
  ) {
    throw new StatementRefusedError(
      `statement must be read-only (SELECT, WITH, VALUES, SHOW, DESCRIBE or EXPLAIN); ${word} is not allowed`,
      word,
    );
  }
  body.forEach((t: Token, k) => {
    if (t.type !== 'ident' || isPunct(body[k - 1], '.')) return;
    const upper = t.value.toUpperCase();
    if (!WRITE_WORDS.has(upper)) return;
    if (SOFT_WORDS.has(upper) && k !== 0 && !(k === i + 1 && kind === 'EXPLAIN')) return;
    // `SHOW CREATE TABLE t` reads a definition; DESCRIBE HISTORY and friends have no write words.
    if (kind === 'SHOW' && upper === 'CREATE' && isWord(body[k + 1], 'TABLE')) return;
    throw new StatementRefusedError(
      `statement must be read-only; ${upper} writes or changes the session (a column of that name needs backticks)`,
      upper,
    );
  });
  const last = sig[end - 1];
  const stop = tokens.lastIndexOf(last);
  return {
    kind: kind as ReadOnlyKind,
    sql: tokens
      .slice(0, stop + 1)
      .map((t) => t.text)
      .join('')
      .trim(),
  };
}

/**
 * Qualifies table names written without a catalog (and schema) with the statement's `catalog` and `schema`, as
 * a warehouse does with the Statement Execution API's fields: names after FROM / JOIN (and in FROM lists, TABLE,
 * DESCRIBE, SHOW … IN) that have fewer than three parts. Names of the statement's own CTEs are left alone.
 */
export function qualifyNames(sql: string, catalog: string | undefined, schema: string | undefined): string {
  if (!catalog) return sql;
  const tokens = tokenize(sql);
  const sig: number[] = [];
  tokens.forEach((t, k) => significant(t) && sig.push(k));
  const at = (k: number) => tokens[sig[k]];
  const ctes = new Set<string>();
  for (let k = 0; k < sig.length; k++) {
    const t = at(k);
    if (
      t.type === 'ident' &&
      isWord(at(k + 1), 'AS') &&
      isPunct(at(k + 2), '(') &&
      (isWord(at(k - 1), 'WITH') || isPunct(at(k - 1), ','))
    ) {
      ctes.add(t.value.toLowerCase());
    }
  }
  const quote = (s: string) => `\`${s.replace(/`/g, '``')}\``;
  const edits = new Map<number, string>();
  let fromDepth: number[] = [];
  let depth = 0;
  for (let k = 0; k < sig.length; k++) {
    const t = at(k);
    if (isPunct(t, '(')) depth++;
    if (isPunct(t, ')')) {
      depth--;
      fromDepth = fromDepth.filter((d) => d <= depth);
    }
    const starts =
      isWord(t, 'FROM') ||
      isWord(t, 'JOIN') ||
      isWord(t, 'TABLE') ||
      isWord(t, 'DESCRIBE') ||
      isWord(t, 'DESC') ||
      (isWord(t, 'IN') && isWord(at(0), 'SHOW'));
    const listed = isPunct(t, ',') && fromDepth.includes(depth);
    if (isWord(t, 'FROM')) fromDepth.push(depth);
    if (['WHERE', 'GROUP', 'ORDER', 'HAVING', 'LIMIT', 'UNION', 'ON', 'WINDOW', 'QUALIFY'].some((w) => isWord(t, w)))
      fromDepth = fromDepth.filter((d) => d !== depth);
    if (!starts && !listed) continue;
    let j = k + 1;
    while (isWord(at(j), 'EXTENDED') || isWord(at(j), 'DETAIL') || isWord(at(j), 'HISTORY') || isWord(at(j), 'TABLE'))
      j++;
    const parts: number[] = [];
    while (at(j) && (at(j).type === 'ident' || at(j).type === 'qident')) {
      parts.push(j);
      if (!isPunct(at(j + 1), '.')) break;
      j += 2;
    }
    if (parts.length === 0 || parts.length >= 3 || isPunct(at(parts[parts.length - 1] + 1), '(')) continue;
    const firstTok = at(parts[0]);
    if (parts.length === 1 && ctes.has(firstTok.value.toLowerCase())) continue;
    const showIn = isWord(t, 'IN') && isWord(at(0), 'SHOW');
    let prefix = '';
    if (showIn) {
      // SHOW TABLES|VIEWS|FUNCTIONS IN <schema>: the schema gets the catalog; SHOW SCHEMAS IN <catalog> is whole.
      if (parts.length === 1 && !isWord(at(1), 'SCHEMAS') && !isWord(at(1), 'DATABASES')) prefix = `${quote(catalog)}.`;
    } else if (parts.length === 1) {
      if (schema) prefix = `${quote(catalog)}.${quote(schema)}.`;
    } else {
      prefix = `${quote(catalog)}.`;
    }
    if (prefix) edits.set(sig[parts[0]], prefix);
  }
  return tokens.map((t, idx) => (edits.get(idx) ?? '') + t.text).join('');
}
