/**
 * Pure rules of a continuous sync stream: its id and its lag. No I/O. The merge keys and the change-feed test are
 * the sync domain's (activities/sync/logic/classify.ts): a stream merges a table's changes by the same rule.
 */

/** `sync-` + 10 hex digits of a hash of source, destination and the sorted tables (the same stream twice: one id). */
export function streamIdOf(
  sourceCatalog: string,
  destinationCatalog: string,
  tables: string[],
  hash: (s: string) => string,
): string {
  return `sync-${hash(`${sourceCatalog}|${destinationCatalog}|${[...tables].sort().join(',')}`).slice(0, 10)}`;
}

/** Per table, source version − applied version (a table not applied yet counts its whole history). */
export function lagOf(
  tables: string[],
  source: Record<string, number>,
  applied: Record<string, number>,
): { total: number; tables: Record<string, number> } {
  const per: Record<string, number> = {};
  for (const t of tables) {
    const s = source[t];
    per[t] = s === undefined ? 0 : Math.max(0, s - (applied[t] ?? -1));
  }
  return { total: Object.values(per).reduce((a, b) => a + b, 0), tables: per };
}

/** `schema.table` → its two names. */
export function splitTable(t: string): { schema: string; name: string } {
  const i = t.indexOf('.');
  return { schema: t.slice(0, i), name: t.slice(i + 1) };
}
