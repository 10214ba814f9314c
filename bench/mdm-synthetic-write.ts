/**
 * The bench's way to write the synthetic people (the same rows as `writeSynthetic`, from the same generator and
 * table shapes): each table's rows go to newline-delimited JSON files in a volume, in chunks, and one
 * `copyIntoFromVolume` per table loads them (DuckDB reads the files and casts each text value to the column's type,
 * as an INSERT of literals does). Inserting 1,000,000 records as SQL literals took most of a 1M run's setup.
 */
import { generatePeople } from '../activities/mdm/logic/synthetic';
import { syntheticModel, syntheticSources } from '../activities/mdm/logic/synthetic-model';
import { syntheticTables, type SyntheticTable } from '../activities/mdm/logic/synthetic-tables';
import type { LocalWorkspace } from '../platform/local/workspace';
import type { MdmModel, MdmSource } from '../schemas/mdm';

const CHUNK = 100_000;
const VOLUME = 'bench_load';

async function loadTable(ws: LocalWorkspace, catalog: string, schema: string, t: SyntheticTable) {
  const ref = { catalog, schema, name: t.name };
  const volume = { catalog, schema, name: VOLUME };
  await ws.dropTable(ref, { ifExists: true });
  await ws.createTable({ ref, columns: t.columns });
  await ws.deleteVolumePath(volume, t.name);
  for (let i = 0; i < t.rows.length; i += CHUNK) {
    const text = t.rows
      .slice(i, i + CHUNK)
      .map((r) => JSON.stringify(r))
      .join('\n');
    await ws.writeVolumeFile(volume, `${t.name}/part-${String(i / CHUNK).padStart(5, '0')}.json`, Buffer.from(text));
  }
  await ws.copyIntoFromVolume(ref, { volume, path: t.name });
  await ws.deleteVolumePath(volume, t.name);
}

export async function writeSyntheticFiles(
  ws: LocalWorkspace,
  opts: { catalog: string; schema: string; records: number; seed: number },
): Promise<{ model: MdmModel; sources: MdmSource[] }> {
  const started = performance.now();
  const data = generatePeople(opts.records, opts.seed);
  const { tables, truth } = syntheticTables(data, opts.seed);
  console.log(`  generated ${data.records.length} records in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  await ws.createCatalog({ name: opts.catalog, ifNotExists: true });
  await ws.createSchema({ catalog: opts.catalog, name: opts.schema, ifNotExists: true });
  await ws.createVolume({ ref: { catalog: opts.catalog, schema: opts.schema, name: VOLUME }, ifNotExists: true });
  for (const t of [...tables, truth]) {
    await loadTable(ws, opts.catalog, opts.schema, t);
    console.log(`  wrote ${t.name} (${t.rows.length} rows) at ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  return { model: syntheticModel(), sources: syntheticSources(opts.catalog, opts.schema) };
}
