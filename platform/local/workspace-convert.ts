import { promises as fs } from 'node:fs';
import path from 'node:path';
import { InvalidInputError } from '../errors';
import type { ConversionFacts, DataFormat, TableRef } from '../types';
import { deltaEngine } from './delta-engine';
import { isIcebergTable, partitionFields, readMetadata, relocate } from './iceberg/table';
import { exists } from './metastore/files';
import type { TableEntry } from './metastore/types';
import { fqnOf, type LocalContext } from './workspace-context';
import { writeIceberg, materialiseIceberg } from './workspace-iceberg';
import { resolveForEngine } from './workspace-sql';
import { newTableEntry } from './workspace-tables';
import { describeQuery } from './delta/shape';
import { asInputError } from './workspace-write-sql';

/** What conversion needs besides the port's table operations: rename, CTAS into a format, preflight facts. */

/**
 * ALTER TABLE … RENAME TO (same catalog and schema, or another schema of the catalog). A managed table's folder
 * moves with it, so a new table under the old name never meets the renamed table's data; an external one stays.
 */
export async function renameTable(ctx: LocalContext, ref: TableRef, to: TableRef): Promise<void> {
  const from = ctx.ref(ref);
  const target = ctx.ref(to, 'new table name');
  if (target.catalog !== from.catalog)
    throw new InvalidInputError(`cannot rename ${fqnOf(from)} into another catalog (${target.catalog})`);
  const entry = await ctx.store.getEntry('tables', from);
  await ctx.store.getSchema(target.catalog, target.schema);
  const moved: TableEntry = {
    ...entry,
    name: target.name,
    schema: target.schema,
    lastAltered: new Date().toISOString(),
  };
  await ctx.store.create(ctx.store.entryFile('tables', target), `table ${fqnOf(target)}`, moved, {
    materialise: async () => {
      if (entry.kind !== 'TABLE' || entry.tableType !== 'MANAGED' || !entry.location) return;
      const dir = await ctx.store.managedTableDir(target);
      if (await exists(dir)) await fs.rm(dir, { recursive: true, force: true }); // unregistered debris
      await fs.mkdir(path.dirname(dir), { recursive: true });
      await fs.rename(entry.location, dir);
      moved.location = dir;
      if (entry.format === 'ICEBERG' && (await isIcebergTable(dir))) await relocate(dir, entry.location);
    },
  });
  await ctx.store.mutate(ctx.store.entryFile('tables', from), () => null);
}

/** CREATE TABLE … USING iceberg|parquet AS SELECT: the query's columns, its rows as the first snapshot / files. */
export async function createTableAsFormat(
  ctx: LocalContext,
  opts: { ref: TableRef; query: string; format: DataFormat; comment?: string | null },
): Promise<void> {
  const ref = ctx.ref(opts.ref);
  await ctx.store.getSchema(ref.catalog, ref.schema);
  const selectSql = await resolveForEngine(ctx, opts.query, 'query');
  const schema = await describeQuery(selectSql).catch((err) => {
    throw asInputError(err, 'create table');
  });
  const dir = await ctx.store.managedTableDir(ref);
  if (await exists(dir)) await fs.rm(dir, { recursive: true, force: true });
  const entry = newTableEntry(ctx, ref, opts.format, dir, false);
  entry.comment = opts.comment ?? null;
  entry.columns = schema.map((f) => ({ name: f.name, type: f.type, nullable: f.nullable }));
  entry.partitionColumns = [];
  await ctx.store.create(ctx.store.entryFile('tables', ref), `table ${fqnOf(ref)}`, entry, {
    materialise: async () => {
      try {
        await fs.mkdir(dir, { recursive: true });
        if (opts.format === 'ICEBERG') {
          await materialiseIceberg(dir, {
            columns: entry.columns!,
            partitionColumns: [],
            properties: {},
            external: false,
          });
          await writeIceberg(entry, selectSql, 'append');
        } else {
          const { withDuck, duckString } = await import('./duck');
          await withDuck((c) =>
            c.run(`COPY (${selectSql}) TO ${duckString(path.join(dir, 'part-00000.parquet'))} (FORMAT parquet)`),
          );
        }
      } catch (err) {
        await fs.rm(dir, { recursive: true, force: true });
        throw asInputError(err, `create table ${fqnOf(ref)}`);
      }
    },
  });
}

/** Preflight facts: an Iceberg table's partition transforms; a Delta table's generated and identity columns. */
export async function conversionFacts(ctx: LocalContext, ref: TableRef): Promise<ConversionFacts> {
  const entry = await ctx.table(ctx.ref(ref));
  if (entry.format === 'ICEBERG' && (await isIcebergTable(entry.location!))) {
    return {
      partitionTransforms: partitionFields(await readMetadata(entry.location!)).map((p) => p.transform),
      generatedColumns: [],
    };
  }
  if (entry.format === 'DELTA') {
    const schema = (await (await ctx.delta(entry)).snapshot()).metadata.schema;
    const generated = schema
      .filter((f) =>
        Object.keys(f.metadata ?? {}).some(
          (k) => k === 'delta.generationExpression' || k.startsWith('delta.identity.'),
        ),
      )
      .map((f) => f.name);
    return { partitionTransforms: [], generatedColumns: generated };
  }
  return { partitionTransforms: [], generatedColumns: [] };
}

/** Is the folder already Delta (CONVERT is then a no-op). */
export async function isDelta(dir: string): Promise<boolean> {
  return deltaEngine().isDeltaTable(dir);
}
