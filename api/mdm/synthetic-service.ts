import { generatePeople, SYSTEMS } from '../../activities/mdm/logic/synthetic';
import { syntheticModel, syntheticSources } from '../../activities/mdm/logic/synthetic-model';
import { recordKey, syntheticTables, type SyntheticTable } from '../../activities/mdm/logic/synthetic-tables';
import type { Workspace } from '../../platform/port';
import type { SyntheticBody, SyntheticResult } from '../../schemas/mdm';

const CHUNK = 50_000;

async function writeTable(ws: Workspace, catalog: string, schema: string, t: SyntheticTable) {
  const ref = { catalog, schema, name: t.name };
  await ws.dropTable(ref, { ifExists: true });
  await ws.createTable({ ref, columns: t.columns });
  for (let i = 0; i < t.rows.length; i += CHUNK) await ws.insertRows(ref, t.rows.slice(i, i + CHUNK));
}

/**
 * Writes the synthetic people's three source tables and their truth table into `<catalog>.<schema>` (each table
 * replaced), and answers with the model, the ready-to-post sources and example pairs.
 */
export async function writeSynthetic(ws: Workspace, body: SyntheticBody): Promise<SyntheticResult> {
  const data = generatePeople(body.records, body.seed);
  const { tables, truth } = syntheticTables(data, body.seed);
  await ws.createCatalog({ name: body.catalog, ifNotExists: true });
  await ws.createSchema({ catalog: body.catalog, name: body.schema, ifNotExists: true });
  for (const t of [...tables, truth]) await writeTable(ws, body.catalog, body.schema, t);
  const ref = (i: number) => ({ system: SYSTEMS[data.records[i].system], record_id: recordKey(data.records[i], i) });
  type Ref = ReturnType<typeof ref>;
  const pairs = (xs: [number, number][]) => xs.slice(0, 10).map(([a, b]): [Ref, Ref] => [ref(a), ref(b)]);
  return {
    entity_type: 'person',
    model: syntheticModel(),
    sources: syntheticSources(body.catalog, body.schema),
    truth_table: `${body.catalog}.${body.schema}.truth`,
    records: data.records.length,
    entities: data.people.length,
    examples: { duplicates: pairs(data.easy), distinct: pairs(data.hard) },
  };
}
