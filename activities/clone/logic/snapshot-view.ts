import type { SourceSnapshotRow } from '../../../store/clone/source-snapshots';

/** API shape of a snapshot. */
export function snapshotView(row: SourceSnapshotRow, withTables = true) {
  return {
    snapshot_id: row.id,
    name: row.name,
    description: row.description,
    source_catalog: row.sourceCatalog,
    workspace: row.workspaceId,
    captured_at: row.capturedAt.toISOString(),
    table_count: row.tableCount,
    total_bytes: row.totalBytes,
    created_by: row.createdBy,
    ...(withTables ? { tables: row.tables } : {}),
  };
}
