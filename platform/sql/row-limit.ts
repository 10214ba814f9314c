import { isPunct, isWord, significant, tokenize } from './tokenizer';

/**
 * A query that stops after `n` rows: `LIMIT n` appended on a line of its own when the query's outer level has no
 * LIMIT, OFFSET or FETCH of its own (then it is answered as it is), a trailing `;` dropped. Appending keeps the
 * query's own column names — duplicates included, which a `SELECT * FROM (…) LIMIT n` wrapper would rename — and
 * lets the engine stop scanning once it has the rows. Pure: works on tokens, so strings and comments never match.
 */
export function withRowLimit(sql: string, n: number): string {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`a row limit must be a non-negative integer, not ${n}`);
  const tokens = tokenize(sql);
  let depth = 0;
  let last = -1;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (!significant(t)) continue;
    if (isPunct(t, '(')) depth++;
    else if (isPunct(t, ')')) depth--;
    else if (depth === 0 && (isWord(t, 'LIMIT') || isWord(t, 'OFFSET') || isWord(t, 'FETCH'))) return sql;
    last = i;
  }
  if (last < 0) return sql;
  const kept = isPunct(tokens[last], ';') ? tokens.filter((_, i) => i !== last) : tokens;
  return `${kept.map((t) => t.text).join('')}\nLIMIT ${n}`;
}
