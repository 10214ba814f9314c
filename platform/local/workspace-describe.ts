import { promises as fs } from 'node:fs';
import type { HistoryEntry, TableDescription, TableDetail, TableInfo, TableRef } from '../types';
import type { TableEntry } from './metastore/types';
import { isConstraintProperty, rawProperties } from './workspace-constraints';
import type { LocalContext } from './workspace-context';
import { parquetFiles } from './workspace-scan';
import { runQuery } from './workspace-sql';

/** DESCRIBE TABLE, DESCRIBE HISTORY and DESCRIBE DETAIL of local tables and views. */
/** Size, file count and version of a table's current data (cheap: one snapshot read, or a folder listing). */
async function dataStats(ctx: LocalContext, e: TableEntry) {
  if (e.format === 'DELTA') {
    const snap = await (await ctx.delta(e)).snapshot();
    return {
      sizeBytes: snap.sizeInBytes,
      numFiles: snap.numFiles,
      version: snap.version as number | null,
      modified: new Date(snap.timestamp).toISOString(),
      snap,
    };
  }
  const files = await parquetFiles(e.location!);
  const sizes = await Promise.all(files.map(async (f) => (await fs.stat(f)).size));
  return {
    sizeBytes: sizes.reduce((a, b) => a + b, 0),
    numFiles: files.length,
    version: null,
    modified: e.lastAltered,
    snap: null,
  };
}

export async function tableInfo(ctx: LocalContext, e: TableEntry): Promise<TableInfo> {
  return infoOf(e, await dataStats(ctx, e));
}

/** A table's info from its metastore entry and its data's size and last change. */
function infoOf(e: TableEntry, stats: { sizeBytes: number; modified: string }): TableInfo {
  return {
    catalog: e.catalog,
    schema: e.schema,
    name: e.name,
    tableType: e.tableType,
    format: e.format,
    owner: e.owner,
    comment: e.comment,
    location: e.location,
    sizeBytes: stats.sizeBytes,
    createdAt: e.createdAt,
    lastAltered: stats.modified > e.lastAltered ? stats.modified : e.lastAltered,
  };
}

/** Table properties as SHOW TBLPROPERTIES lists them, minus CHECK constraints (listConstraints has those). */
export async function visibleProperties(ctx: LocalContext, e: TableEntry): Promise<Record<string, string>> {
  const props = e.kind === 'VIEW' ? e.properties : await rawProperties(ctx, e);
  return Object.fromEntries(Object.entries(props).filter(([k]) => !isConstraintProperty(k)));
}

export async function describeTable(ctx: LocalContext, ref: TableRef): Promise<TableDescription> {
  const e = await ctx.store.getEntry('tables', ctx.ref(ref));
  if (e.kind === 'VIEW') {
    return {
      catalog: e.catalog,
      schema: e.schema,
      name: e.name,
      tableType: 'VIEW',
      format: null,
      owner: e.owner,
      comment: e.comment,
      location: null,
      sizeBytes: null,
      createdAt: e.createdAt,
      lastAltered: e.lastAltered,
      columns: await viewColumns(ctx, e),
      partitionColumns: [],
      properties: e.properties,
      version: null,
      numFiles: null,
    };
  }
  if (e.format !== 'DELTA') {
    const [info, stats, columns, properties] = await Promise.all([
      tableInfo(ctx, e),
      dataStats(ctx, e),
      ctx.columns(e),
      visibleProperties(ctx, e),
    ]);
    return {
      ...info,
      columns,
      properties,
      version: stats.version,
      numFiles: stats.numFiles,
      partitionColumns: e.partitionColumns ?? [],
    };
  }
  // A Delta table's size, version, columns and properties all come from one snapshot: one read of its log.
  const snap = await (await ctx.delta(e)).snapshot();
  const properties = Object.fromEntries(
    Object.entries(snap.metadata.configuration).filter(([k]) => !isConstraintProperty(k)),
  );
  return {
    ...infoOf(e, { sizeBytes: snap.sizeInBytes, modified: new Date(snap.timestamp).toISOString() }),
    columns: snap.metadata.schema.map((f, i) => ({
      name: f.name,
      type: f.type.toLowerCase(),
      nullable: f.nullable,
      comment: e.columnComments[f.name] ?? null,
      position: i + 1,
    })),
    properties,
    version: snap.version,
    numFiles: snap.numFiles,
    partitionColumns: snap.metadata.partitionColumns,
  };
}

async function viewColumns(ctx: LocalContext, e: TableEntry) {
  const result = await runQuery(ctx, `SELECT * FROM \`${e.catalog}\`.\`${e.schema}\`.\`${e.name}\` LIMIT 0`);
  return result.columns.map((c, i) => ({
    name: c.name,
    type: c.type,
    nullable: true,
    comment: e.columnComments[c.name] ?? null,
    position: i + 1,
  }));
}

export async function tableHistory(ctx: LocalContext, ref: TableRef, limit?: number): Promise<HistoryEntry[]> {
  return (await ctx.delta(await ctx.table(ctx.ref(ref)))).history(limit);
}

export async function tableDetail(ctx: LocalContext, ref: TableRef): Promise<TableDetail> {
  const e = await ctx.table(ctx.ref(ref));
  if (e.format === 'DELTA') {
    const detail = await (await ctx.delta(e)).detail();
    return {
      ...detail,
      name: `${e.catalog}.${e.schema}.${e.name}`,
      description: e.comment,
      properties: await visibleProperties(ctx, e),
    };
  }
  const stats = await dataStats(ctx, e);
  return {
    format: e.format!.toLowerCase(),
    id: null,
    name: `${e.catalog}.${e.schema}.${e.name}`,
    description: e.comment,
    location: e.location,
    createdAt: e.createdAt,
    lastModified: stats.modified,
    partitionColumns: e.partitionColumns ?? [],
    numFiles: stats.numFiles,
    sizeInBytes: stats.sizeBytes,
    properties: e.properties,
    minReaderVersion: null,
    minWriterVersion: null,
  };
}
