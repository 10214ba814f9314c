import { commitSnapshot, createIcebergTable, currentVersion, readMetadata, columnsOf } from '../iceberg/table';
import { schemaOf } from './core';
import { resolveLogPath } from './paths';
import type { LogReader } from './snapshot';

/** Is UniForm (Iceberg) on for this configuration (`delta.universalFormat.enabledFormats` lists iceberg)? */
export function uniformIceberg(configuration: Record<string, string>): boolean {
  return (configuration['delta.universalFormat.enabledFormats'] ?? '')
    .split(',')
    .some((f) => f.trim().toLowerCase() === 'iceberg');
}

/**
 * UniForm: after each commit of a table with Iceberg enabled, Iceberg metadata beside the Delta log describes the
 * same files (`metadata/`, one snapshot per Delta version, summary `delta-version`). Field ids are the Delta column
 * mapping ids when present, else positions; the name mapping resolves the Delta files' columns by name. A schema
 * change starts a new Iceberg schema (metadata recreated). Best effort, as on Databricks: the Delta commit stands
 * whatever happens here.
 */
export async function syncUniform(reader: LogReader, version: number): Promise<void> {
  try {
    const state = await reader.stateAt(version);
    if (!uniformIceberg(state.metadata.configuration)) return;
    const fields = schemaOf(state.metadata);
    const columns = fields.map((f, i) => ({
      name: f.name,
      type: f.type,
      nullable: f.nullable,
      id: Number(f.metadata?.['delta.columnMapping.id'] ?? i + 1),
    }));
    const existing = (await currentVersion(reader.dir)) !== null ? columnsOf(await readMetadata(reader.dir)) : null;
    const same =
      existing !== null &&
      existing.length === columns.length &&
      existing.every((c, i) => c.name === columns[i].name && c.type === columns[i].type.toLowerCase());
    if (!same)
      await createIcebergTable(reader.dir, {
        columns,
        partitionColumns: state.metadata.partitionColumns,
        properties: { 'lakeward.uniform': 'true' },
      });
    const files = [...state.files.values()].map((f) => ({
      path: resolveLogPath(reader.dir, f.path),
      size: f.size,
      records: Number((f.stats ? (JSON.parse(f.stats) as { numRecords?: number }).numRecords : 0) ?? 0),
      partition: f.partitionValues,
    }));
    await commitSnapshot(reader.dir, files, { operation: 'overwrite', summary: { 'delta-version': String(version) } });
  } catch {
    // Iceberg metadata is a derived view: a failure leaves the previous Iceberg snapshot readable and the Delta
    // table intact; the next commit writes a fresh snapshot.
  }
}
