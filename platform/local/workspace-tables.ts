import { promises as fs } from 'node:fs';
import path from 'node:path';
import { InvalidInputError } from '../errors';
import { assertColumnName } from '../identifiers';
import type { ColumnDef, CreateTableOptions, DataFormat, TableRef } from '../types';
import type { DeltaField } from './delta/contract';
import { deltaEngine } from './delta-engine';
import { exists, removeDir } from './metastore/files';
import { baseEntry, type TableEntry } from './metastore/types';
import { databricksToDuck, duckToDatabricks } from './sql/types';
import { withDuck } from './duck';
import { fqnOf, type LocalContext } from './workspace-context';
import { materialiseIceberg } from './workspace-iceberg';
import { resolveForEngine } from './workspace-sql';
import { asInputError } from './workspace-write-sql';

/** CREATE TABLE and CREATE TABLE AS SELECT: data folder first, registration last, so failures leave nothing visible. */
const FORMATS: DataFormat[] = ['DELTA', 'PARQUET', 'ICEBERG'];

export function assertProperties(props: unknown): Record<string, string> {
  if (props === undefined || props === null) return {};
  if (typeof props !== 'object' || Array.isArray(props))
    throw new InvalidInputError('properties must be an object of strings');
  for (const [k, v] of Object.entries(props)) {
    if (!k || typeof v !== 'string')
      throw new InvalidInputError(`property ${JSON.stringify(k)} must have a string value`);
  }
  return props as Record<string, string>;
}

function assertColumns(columns: ColumnDef[]): DeltaField[] {
  if (!Array.isArray(columns) || columns.length === 0)
    throw new InvalidInputError('columns: at least one column is required');
  const seen = new Set<string>();
  return columns.map((c, i) => {
    assertColumnName(c?.name);
    if (seen.has(c.name.toLowerCase())) throw new InvalidInputError(`columns[${i}]: duplicate column ${c.name}`);
    seen.add(c.name.toLowerCase());
    if (typeof c.type !== 'string') throw new InvalidInputError(`columns[${i}].type is required`);
    databricksToDuck(c.type);
    return { name: c.name, type: c.type.toLowerCase(), nullable: c.nullable ?? true };
  });
}

export function newTableEntry(
  ctx: LocalContext,
  ref: TableRef,
  format: DataFormat,
  location: string,
  external: boolean,
): TableEntry {
  return {
    ...baseEntry(ref.name, ctx.user),
    catalog: ref.catalog,
    schema: ref.schema,
    kind: 'TABLE',
    tableType: external ? 'EXTERNAL' : 'MANAGED',
    format,
    location,
    columnComments: {},
    columnTags: {},
    rowFilter: null,
    columnMasks: [],
  };
}

/** Where a new table's data goes; a leftover managed folder without registration is debris of a failed write. */
export async function prepareLocation(
  ctx: LocalContext,
  ref: TableRef,
  location: string | undefined,
): Promise<{ dir: string; external: boolean }> {
  if (location !== undefined && (typeof location !== 'string' || !path.isAbsolute(location))) {
    throw new InvalidInputError(`location must be an absolute folder path, got ${JSON.stringify(location)}`);
  }
  const dir = location ? path.resolve(location) : await ctx.store.managedTableDir(ref);
  if (!location && (await exists(dir))) await removeDir(dir);
  return { dir, external: !!location };
}

export async function createTable(ctx: LocalContext, opts: CreateTableOptions): Promise<void> {
  const ref = ctx.ref(opts?.ref);
  const format = opts.format ?? 'DELTA';
  if (!FORMATS.includes(format))
    throw new InvalidInputError(`format must be one of ${FORMATS.join(', ')}, got ${format}`);
  const schema = assertColumns(opts.columns);
  const partitionColumns = opts.partitionColumns ?? [];
  for (const p of partitionColumns)
    if (!schema.some((f) => f.name === p)) throw new InvalidInputError(`partition column ${p} is not a column`);
  const properties = assertProperties(opts.properties);
  await ctx.store.getSchema(ref.catalog, ref.schema);
  const { dir, external } = await prepareLocation(ctx, ref, opts.location);
  const entry = newTableEntry(ctx, ref, format, dir, external);
  entry.comment = opts.comment ?? null;
  entry.partitionColumns = partitionColumns;
  for (const c of opts.columns) if (c.comment) entry.columnComments[c.name] = c.comment;
  if (format !== 'DELTA')
    Object.assign(entry, { columns: schema.map(({ name, type, nullable }) => ({ name, type, nullable })), properties });
  await ctx.store.create(ctx.store.entryFile('tables', ref), `table ${fqnOf(ref)}`, entry, {
    materialise: async () => {
      if (format === 'ICEBERG') {
        const found = await materialiseIceberg(dir, { columns: opts.columns, partitionColumns, properties, external });
        if (found) Object.assign(entry, found); // registering existing external Iceberg data: its own schema
        return;
      }
      if (format !== 'DELTA') return void (await fs.mkdir(dir, { recursive: true }));
      if (external && (await deltaEngine().isDeltaTable(dir))) return; // registering existing external data
      await deltaEngine().create(
        dir,
        { schema, partitionColumns, configuration: properties, name: ref.name },
        { userName: ctx.user },
      );
    },
  });
}

export async function createTableAs(
  ctx: LocalContext,
  opts: {
    ref: TableRef;
    query: string;
    properties?: Record<string, string>;
    comment?: string | null;
    replace?: boolean;
    location?: string;
  },
): Promise<void> {
  const ref = ctx.ref(opts?.ref);
  const properties = assertProperties(opts.properties);
  if (typeof opts.query !== 'string') throw new InvalidInputError('query is required');
  await ctx.store.getSchema(ref.catalog, ref.schema);
  const selectSql = await resolveForEngine(ctx, opts.query, 'query');
  if (opts.location !== undefined && (typeof opts.location !== 'string' || !path.isAbsolute(opts.location))) {
    throw new InvalidInputError(`location must be an absolute folder path, got ${JSON.stringify(opts.location)}`);
  }
  const dir = opts.location ? path.resolve(opts.location) : await ctx.store.managedTableDir(ref);
  const entry = newTableEntry(ctx, ref, 'DELTA', dir, !!opts.location);
  entry.comment = opts.comment ?? null;
  await ctx.store.create(ctx.store.entryFile('tables', ref), `table ${fqnOf(ref)}`, entry, {
    replace: opts.replace,
    materialise: async (prev) => {
      if (prev && prev.kind !== 'TABLE')
        throw new InvalidInputError(`${fqnOf(ref)} is a view; cannot replace it with a table`);
      if (prev) {
        Object.assign(entry, { owner: prev.owner, grants: prev.grants, tags: prev.tags, createdAt: prev.createdAt });
        if (!opts.location) Object.assign(entry, { tableType: prev.tableType, location: prev.location });
        if (opts.comment === undefined) entry.comment = prev.comment;
      }
      if (
        prev &&
        prev.format === 'DELTA' &&
        prev.location === entry.location &&
        (await overwriteInPlace(ctx, prev, selectSql, properties))
      ) {
        return;
      }
      await buildAside(entry.location!, (dir) =>
        deltaEngine()
          .createAs(dir, selectSql, { configuration: properties, name: ref.name }, { userName: ctx.user })
          .then(() => undefined),
      );
    },
  });
}

/**
 * CREATE OR REPLACE with an unchanged schema is a new version of the same table (history kept, as on
 * Databricks, and shallow clones of it stay readable). Returns false when the schema differs.
 */
async function overwriteInPlace(
  ctx: LocalContext,
  prev: TableEntry,
  selectSql: string,
  properties: Record<string, string>,
): Promise<boolean> {
  const current = await ctx.columns(prev);
  const produced = await withDuck(async (conn) => {
    const reader = await conn.runAndReadAll(`SELECT * FROM (${selectSql}) AS _q LIMIT 0`);
    return reader.columnNames().map((name, i) => ({ name, type: duckToDatabricks(String(reader.columnTypes()[i])) }));
  }).catch((err) => {
    throw asInputError(err, 'create table');
  });
  const same =
    produced.length === current.length &&
    produced.every((c, i) => c.name === current[i].name && c.type === current[i].type);
  if (!same) return false;
  const table = await ctx.delta(prev);
  await table.overwrite(selectSql, { userName: ctx.user });
  if (Object.keys(properties).length) await table.updateMetadata({ setProperties: properties }, { userName: ctx.user });
  return true;
}

/** Builds new data in a sibling folder, then swaps it in: a failed build never touches the old table. */
export async function buildAside(dir: string, build: (tmpDir: string) => Promise<void>): Promise<void> {
  const tmp = `${dir}.build-${process.pid}-${Math.random().toString(36).slice(2)}`;
  try {
    await build(tmp);
  } catch (err) {
    await removeDir(tmp);
    throw asInputError(err, 'create table');
  }
  await removeDir(dir);
  await fs.mkdir(path.dirname(dir), { recursive: true });
  await fs.rename(tmp, dir);
}
