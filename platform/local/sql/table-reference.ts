import { InvalidInputError } from '../../errors';
import type { TimeTravel } from '../../types';
import { isPunct, isWord, type Token } from '../../sql/tokenizer';

/** Pieces of a table reference after its three-part name: time travel, then an optional alias. */

/** Words that can follow a table reference without being its alias. */
export const NOT_ALIAS = new Set(
  (
    'WHERE JOIN INNER LEFT RIGHT FULL CROSS OUTER ON USING GROUP ORDER LIMIT UNION EXCEPT INTERSECT HAVING WINDOW ' +
    'QUALIFY NATURAL LATERAL PIVOT UNPIVOT TABLESAMPLE SORT CLUSTER DISTRIBUTE MINUS OFFSET FETCH SELECT FROM WITH ' +
    'VALUES ANTI SEMI WHEN THEN ELSE END AND OR NOT IS IN BY ASC DESC FOR POSITIONAL ASOF'
  ).split(' '),
);

/**
 * Reads `name@v3`, `` `name@v3` ``, `VERSION AS OF 3` or `TIMESTAMP AS OF '...'` after a table name.
 * `at(k)` is the k-th significant token; returns the index of the first token after the clause.
 */
export function parseTimeTravel(
  rawName: string,
  at: (k: number) => Token | undefined,
  start: number,
): { name: string; travel: TimeTravel | undefined; next: number } {
  const suffix = /^(.*)@v(\d+)$/i.exec(rawName);
  if (suffix) return { name: suffix[1], travel: { version: Number(suffix[2]) }, next: start };
  if (isPunct(at(start), '@') && /^v\d+$/i.test(at(start + 1)?.value ?? '')) {
    return { name: rawName, travel: { version: Number(at(start + 1)!.value.slice(1)) }, next: start + 2 };
  }
  const kind = isWord(at(start), 'VERSION') ? 'version' : isWord(at(start), 'TIMESTAMP') ? 'timestamp' : null;
  if (!kind || !isWord(at(start + 1), 'AS') || !isWord(at(start + 2), 'OF'))
    return { name: rawName, travel: undefined, next: start };
  const v = at(start + 3);
  if (kind === 'version') {
    if (v?.type !== 'number' || !/^\d+$/.test(v.text))
      throw new InvalidInputError('VERSION AS OF needs a version number');
    return { name: rawName, travel: { version: Number(v.text) }, next: start + 4 };
  }
  if (v?.type !== 'string')
    throw new InvalidInputError("TIMESTAMP AS OF needs a string literal like '2024-01-31 10:00:00'");
  return { name: rawName, travel: { timestamp: v.value }, next: start + 4 };
}
