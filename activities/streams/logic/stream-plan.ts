/**
 * Pure rules of a continuous sync stream: its id, the merge keys of a table, and its lag. No I/O.
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

/**
 * The columns a table's changes are merged by: the `lakeward.merge_keys` table property (comma list), else a
 * NOT NULL first column named `id` or `*_id`; null when neither names real columns.
 */
export function mergeKeysOf(
  columns: { name: string; nullable?: boolean }[],
  properties: Record<string, string>,
): string[] | null {
  const declared = properties['lakeward.merge_keys'];
  if (declared !== undefined) {
    const keys = declared
      .split(',')
      .map((k) => k.trim())
      .filter((k) => k !== '');
    const names = new Set(columns.map((c) => c.name));
    return keys.length > 0 && keys.every((k) => names.has(k)) ? keys : null;
  }
  const first = columns[0];
  if (first && first.nullable === false && /^(id|.+_id)$/i.test(first.name)) return [first.name];
  return null;
}

export const cdfEnabled = (properties: Record<string, string>) =>
  properties['delta.enableChangeDataFeed']?.toLowerCase() === 'true';

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
