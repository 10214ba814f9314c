import { InvalidInputError } from '../../errors';
import type { TableRef, TimeTravel } from '../../types';
import { ident, tableName, timeTravel } from './quote';

/**
 * Row count, NULL counts and an order-independent checksum, each in one scan. Aliases are positional
 * (`n0`, `n1`, …) so hostile column names never become result column names.
 */
export function tableStatsSql(ref: TableRef, columns: string[], at?: TimeTravel): string {
  const nulls = columns.map((c, i) => `count_if(${ident(c)} IS NULL) AS n${i}`);
  return `SELECT ${['count(*) AS row_count', ...nulls].join(', ')} FROM ${tableName(ref)}${timeTravel(at)}`;
}

/**
 * Per-row hash of every column plus an is-NULL flag per column: Spark's hash functions skip NULL
 * fields, so without the flags (1, NULL) and (NULL, 1) would hash alike. Maps are not hashable in
 * Spark, so their entries are sorted into an array first. The sum is taken as DECIMAL(38,0) because
 * summing BIGINT hashes overflows (an error under ANSI mode). Row count is part of the checksum.
 */
export function tableChecksumSql(ref: TableRef, columns: { name: string; type: string }[], at?: TimeTravel): string {
  if (columns.length === 0) throw new InvalidInputError('checksum needs at least one column');
  const parts = columns.flatMap(({ name, type }) => {
    const col = ident(name);
    const value = /^map\b/i.test(type) ? `array_sort(map_entries(${col}))` : col;
    return [`${col} IS NULL`, value];
  });
  const rowHash = `CAST(xxhash64(${parts.join(', ')}) AS DECIMAL(38,0))`;
  return `SELECT concat(CAST(count(*) AS STRING), ':', CAST(coalesce(sum(${rowHash}), 0) AS STRING)) AS checksum FROM ${tableName(ref)}${timeTravel(at)}`;
}

/** An empty result whose metadata is the table's schema at that version. */
export function schemaProbeSql(ref: TableRef, at?: TimeTravel): string {
  return `SELECT * FROM ${tableName(ref)}${timeTravel(at)} LIMIT 0`;
}
