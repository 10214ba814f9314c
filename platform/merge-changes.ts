import { InvalidInputError } from './errors';
import type { ChangeRow } from './types';

/** Columns `table_changes()` adds to a table's own columns. */
export const CHANGE_METADATA_COLUMNS = ['_change_type', '_commit_version', '_commit_timestamp'] as const;

/** Net effect of a change feed on one table, per key: the row to write, or the key to delete. */
export interface NetChanges {
  /** Rows (table columns only) to insert, or to replace the rows with the same key. */
  upserts: Record<string, unknown>[];
  /** Key values (key columns only) whose rows are removed. */
  deletes: Record<string, unknown>[];
}

function keyText(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x));
}

function dataOf(row: ChangeRow): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    if (!(CHANGE_METADATA_COLUMNS as readonly string[]).includes(k)) out[k] = v;
  }
  return out;
}

/**
 * Folds change-data-feed rows into their net effect by key: changes apply in `_commit_version` order (input
 * order within a version), the last one per key wins; `update_preimage` rows carry nothing to apply;
 * `insert` / `update_postimage` upsert the row, `delete` removes it. Pure; shared by both adapters.
 */
export function netChanges(changes: ChangeRow[], keys: string[]): NetChanges {
  if (!Array.isArray(keys) || keys.length === 0)
    throw new InvalidInputError('keys: at least one key column is required');
  if (!Array.isArray(changes)) throw new InvalidInputError('changes: must be an array of change rows');
  const ordered = changes
    .map((row, i) => ({ row, i }))
    .sort((a, b) => Number(a.row._commit_version) - Number(b.row._commit_version) || a.i - b.i);
  const last = new Map<string, ChangeRow>();
  for (const { row, i } of ordered) {
    const type = row?._change_type;
    if (type === 'update_preimage') continue;
    if (type !== 'insert' && type !== 'update_postimage' && type !== 'delete')
      throw new InvalidInputError(`changes[${i}]._change_type: unknown change type ${JSON.stringify(type)}`);
    const keyValues = keys.map((k) => {
      if (!(k in row)) throw new InvalidInputError(`changes[${i}]: key column ${JSON.stringify(k)} is missing`);
      const v = row[k];
      if (v === null || v === undefined)
        throw new InvalidInputError(`changes[${i}]: key column ${JSON.stringify(k)} is NULL`);
      return v;
    });
    const id = keyText(keyValues);
    last.delete(id); // re-insert so the output keeps the order of the last change
    last.set(id, row);
  }
  const upserts: Record<string, unknown>[] = [];
  const deletes: Record<string, unknown>[] = [];
  for (const row of last.values()) {
    if (row._change_type === 'delete') deletes.push(Object.fromEntries(keys.map((k) => [k, row[k]])));
    else upserts.push(dataOf(row));
  }
  return { upserts, deletes };
}
