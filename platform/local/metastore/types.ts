import type { ColumnDef, ColumnMask, DataFormat, RowFilter } from '../../types';

/** What the local metastore keeps per object: one JSON file each (see store.ts for the layout). */
export interface BaseEntry {
  name: string;
  owner: string | null;
  comment: string | null;
  /** principal → privileges (upper case, sorted). */
  grants: Record<string, string[]>;
  tags: Record<string, string>;
  /** Non-Delta objects only; a Delta table's properties live in its log configuration. */
  properties: Record<string, string>;
  createdAt: string;
  lastAltered: string;
}

export interface CatalogEntry extends BaseEntry {
  storageRoot: string | null;
}

export interface SchemaEntry extends BaseEntry {
  catalog: string;
}

export interface TableEntry extends BaseEntry {
  catalog: string;
  schema: string;
  kind: 'TABLE' | 'VIEW';
  tableType: 'MANAGED' | 'EXTERNAL' | 'VIEW';
  format: DataFormat | null;
  /** Absolute data folder (tables only). */
  location: string | null;
  /** SELECT text (views only). */
  definition?: string;
  /** Declared columns of PARQUET / ICEBERG tables (Delta tables read theirs from the log). */
  columns?: ColumnDef[];
  partitionColumns?: string[];
  columnComments: Record<string, string>;
  columnTags: Record<string, Record<string, string>>;
  rowFilter: RowFilter | null;
  columnMasks: ColumnMask[];
  /** Folder of the source when this table is a shallow clone (vacuum of that source protects our files). */
  shallowCloneOf?: string | null;
}

export interface FunctionEntry extends BaseEntry {
  catalog: string;
  schema: string;
  parameters: string;
  returnType: string;
  body: string;
}

export interface VolumeEntry extends BaseEntry {
  catalog: string;
  schema: string;
  volumeType: 'MANAGED' | 'EXTERNAL';
  storageLocation: string | null;
}

export type EntryKind = 'tables' | 'functions' | 'volumes';

export interface EntryByKind {
  tables: TableEntry;
  functions: FunctionEntry;
  volumes: VolumeEntry;
}

export function baseEntry(name: string, owner: string | null, comment: string | null = null): BaseEntry {
  const now = new Date().toISOString();
  return { name, owner, comment, grants: {}, tags: {}, properties: {}, createdAt: now, lastAltered: now };
}
