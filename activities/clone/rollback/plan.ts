import type { TableGovernance } from './governance';

/**
 * Undo plan of a rollback log (pure). Order: restore the tables that existed to their recorded versions (and
 * grants and tags, when recorded),
 * drop the tables the job created, remove column masks the job set, then drop created volumes, functions,
 * views and schemas (each newest first), and last the catalog — only when the job created it.
 */
export type RollbackObjectType = 'catalog' | 'schema' | 'table' | 'view' | 'function' | 'volume' | 'column_mask';

export interface RecordedObject {
  seq: number;
  objectType: string;
  fqn: string;
  existed: boolean;
  version: number | null;
  governance?: TableGovernance | null;
}

export type UndoStep =
  | { kind: 'restore'; fqn: string; version: number; governance?: TableGovernance }
  | { kind: 'drop'; objectType: RollbackObjectType; fqn: string }
  /** An object that existed but cannot be put back (a non-Delta table has no versions). */
  | { kind: 'unrecoverable'; objectType: string; fqn: string; reason: string };

const DROP_ORDER: RollbackObjectType[] = ['table', 'column_mask', 'volume', 'function', 'view', 'schema', 'catalog'];

export function planUndo(entries: RecordedObject[]): UndoStep[] {
  const newestFirst = [...entries].sort((a, b) => b.seq - a.seq);
  const steps: UndoStep[] = [];
  for (const e of newestFirst) {
    if (e.objectType !== 'table' || !e.existed) continue;
    if (e.version === null)
      steps.push({
        kind: 'unrecoverable',
        objectType: 'table',
        fqn: e.fqn,
        reason: 'existed without a recorded Delta version',
      });
    else
      steps.push({
        kind: 'restore',
        fqn: e.fqn,
        version: e.version,
        ...(e.governance ? { governance: e.governance } : {}),
      });
  }
  for (const type of DROP_ORDER) {
    for (const e of newestFirst) {
      if (e.objectType === type && !e.existed) steps.push({ kind: 'drop', objectType: type, fqn: e.fqn });
    }
  }
  return steps;
}

export interface RollbackCounts {
  tables_restored: number;
  tables_created: number;
  catalog_created: boolean;
  schemas: number;
  views: number;
  functions: number;
  volumes: number;
  column_masks: number;
  total_objects: number;
}

/** What a log holds, for listings. */
export function countEntries(entries: Pick<RecordedObject, 'objectType' | 'existed'>[]): RollbackCounts {
  const created = (t: string) => entries.filter((e) => e.objectType === t && !e.existed).length;
  const counts = {
    tables_restored: entries.filter((e) => e.objectType === 'table' && e.existed).length,
    tables_created: created('table'),
    catalog_created: created('catalog') > 0,
    schemas: created('schema'),
    views: created('view'),
    functions: created('function'),
    volumes: created('volume'),
    column_masks: created('column_mask'),
  };
  const total =
    counts.tables_restored +
    counts.tables_created +
    Number(counts.catalog_created) +
    counts.schemas +
    counts.views +
    counts.functions +
    counts.volumes +
    counts.column_masks;
  return { ...counts, total_objects: total };
}
