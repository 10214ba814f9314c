import type { Workspace } from '../../platform/port';
import type { Db } from '../../store/db';
import { insertSourceSnapshot, type SourceSnapshotRow } from '../../store/clone/source-snapshots';

export interface SnapshotTable {
  schema: string;
  table: string;
  version: number | null;
  size_bytes: number;
}

export interface CaptureRequest {
  source_catalog: string;
  name?: string;
  description?: string;
  exclude_schemas?: string[];
  created_by?: string | null;
}

/**
 * Captures every table's current Delta version in a catalog. Versions, not the capture time, are what a
 * snapshot clone reads back: a timestamp would pick up commits that landed during the capture.
 */
export async function captureSnapshot(
  db: Db,
  ws: Workspace,
  req: CaptureRequest,
  now: Date = new Date(),
): Promise<SourceSnapshotRow> {
  const excluded = new Set((req.exclude_schemas ?? ['information_schema']).map((s) => s.toLowerCase()));
  const tables: SnapshotTable[] = [];
  for (const schema of await ws.listSchemas(req.source_catalog)) {
    if (excluded.has(schema.name.toLowerCase())) continue;
    for (const t of await ws.listTables(req.source_catalog, schema.name)) {
      const d = await ws.describeTable({ catalog: req.source_catalog, schema: schema.name, name: t.name });
      tables.push({ schema: schema.name, table: t.name, version: d.version, size_bytes: t.sizeBytes ?? 0 });
    }
  }
  return insertSourceSnapshot(db, {
    name: req.name ?? `${req.source_catalog}-${now.toISOString()}`,
    description: req.description ?? null,
    sourceCatalog: req.source_catalog,
    workspaceId: ws.id,
    capturedAt: now,
    tableCount: tables.length,
    totalBytes: tables.reduce((n, t) => n + t.size_bytes, 0),
    tables,
    createdBy: req.created_by ?? null,
  });
}
