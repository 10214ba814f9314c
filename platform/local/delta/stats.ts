import type { DeltaField } from './contract';
import { statsKind } from './schema';

type ColumnStats = Record<string, string | null>;

/** RETURN_STATS column_statistics (a MAP as [{key, value}] JSON) → {column: {stat: value}}. */
export function columnStatsFromDuck(raw: unknown): Record<string, ColumnStats> {
  const out: Record<string, ColumnStats> = {};
  const entries = Array.isArray(raw) ? (raw as { key: string; value: unknown }[]) : [];
  for (const { key, value } of entries) {
    const name = key.startsWith('"') && key.endsWith('"') ? key.slice(1, -1).replace(/""/g, '"') : key;
    const stats: ColumnStats = {};
    for (const s of Array.isArray(value) ? (value as { key: string; value: string | null }[]) : [])
      stats[s.key] = s.value;
    out[name] = stats;
  }
  return out;
}

/**
 * Delta per-file stats JSON (numRecords, minValues, maxValues, nullCount) for the data columns. Min/max are
 * only written for integer, string and date columns, whose text forms are exact; other types get nullCount
 * only, so a reader's data skipping can never drop a file wrongly.
 */
export function deltaStats(
  numRecords: number,
  schema: DeltaField[],
  partitionColumns: string[],
  columns: Record<string, ColumnStats>,
): string {
  const minValues: Record<string, unknown> = {};
  const maxValues: Record<string, unknown> = {};
  const nullCount: Record<string, number> = {};
  for (const f of schema) {
    if (partitionColumns.includes(f.name)) continue;
    const s = columns[f.name];
    if (!s) continue;
    if (s.null_count !== undefined && s.null_count !== null) nullCount[f.name] = Number(s.null_count);
    const kind = statsKind(f.type);
    if (!kind || s.min === undefined || s.min === null || s.max === undefined || s.max === null) continue;
    minValues[f.name] = kind === 'number' ? Number(s.min) : s.min;
    maxValues[f.name] = kind === 'number' ? Number(s.max) : s.max;
    if (kind === 'number' && (!Number.isSafeInteger(minValues[f.name]) || !Number.isSafeInteger(maxValues[f.name]))) {
      delete minValues[f.name];
      delete maxValues[f.name];
    }
  }
  return JSON.stringify({ numRecords, minValues, maxValues, nullCount });
}
