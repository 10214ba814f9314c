import { NotFoundError } from '../../../platform/errors';
import type { Workspace } from '../../../platform/port';
import type { TableDescription } from '../../../platform/types';
import {
  classifyTable,
  cdfEnabled,
  mergeKeysOf,
  schemaDiffers,
  summariseSchema,
  type SchemaCheck,
  type TableFacts,
} from './classify';

/**
 * The incremental check of one schema. Port-generic: it reads only the workspaces it is given and the recorded
 * source versions the caller read from the store (no adapter, store or clock), so the API's check, the
 * estimate's selective block and the incremental sync job's plan run the same code.
 */
export interface CheckTarget {
  sourceCatalog: string;
  destinationCatalog: string;
  schema: string;
  /** Table name → source version recorded at its last clone from this source into this destination. */
  recorded: ReadonlyMap<string, number | null>;
}

const message = (err: unknown) => (err instanceof Error ? err.message : String(err));

async function orNull<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch (err) {
    if (err instanceof NotFoundError) return null;
    throw err;
  }
}

/** Change rows (pre-images not counted) in the source's feed after `recorded` up to `current`. */
async function feedChanges(
  src: Workspace,
  d: TableDescription,
  ref: { catalog: string; schema: string; name: string },
  recorded: number,
): Promise<{ count: number | null; error?: string }> {
  if (d.version === null || d.version <= recorded) return { count: 0 };
  try {
    const rows = await src.tableChanges(ref, recorded + 1, d.version);
    return { count: rows.filter((r) => r._change_type !== 'update_preimage').length };
  } catch (err) {
    return { count: null, error: message(err) };
  }
}

export async function tableFacts(
  src: Workspace,
  dst: Workspace,
  t: CheckTarget,
  table: string,
  destinationExists: boolean,
): Promise<TableFacts> {
  const ref = { catalog: t.sourceCatalog, schema: t.schema, name: table };
  const d = await src.describeTable(ref);
  const dd = destinationExists
    ? await orNull(dst.describeTable({ catalog: t.destinationCatalog, schema: t.schema, name: table }))
    : null;
  const recorded = t.recorded.get(table) ?? null;
  const cdf = cdfEnabled(d.properties);
  const sameShape = dd !== null && !schemaDiffers(d.columns, dd.columns);
  const feed =
    cdf && recorded !== null && sameShape ? await feedChanges(src, d, ref, recorded) : { count: null as number | null };
  return {
    table,
    currentVersion: d.version,
    sizeBytes: d.sizeBytes ?? null,
    destinationExists: dd !== null,
    recorded: t.recorded.has(table),
    recordedVersion: recorded,
    sourceColumns: d.columns,
    destinationColumns: dd?.columns ?? null,
    cdf,
    feedChanges: feed.count,
    feedError: 'error' in feed ? feed.error : undefined,
    mergeKeys: mergeKeysOf(d.columns, d.properties),
  };
}

/** Tables (MANAGED / EXTERNAL) of the source schema, each classified; a missing source schema throws NotFound. */
export async function checkSchema(src: Workspace, dst: Workspace, t: CheckTarget): Promise<SchemaCheck> {
  const tables = (await src.listTables(t.sourceCatalog, t.schema))
    .filter((x) => x.tableType === 'MANAGED' || x.tableType === 'EXTERNAL')
    .map((x) => x.name)
    .sort((a, b) => a.localeCompare(b));
  const existing = new Set(
    ((await orNull(dst.listTables(t.destinationCatalog, t.schema))) ?? []).map((x) => x.name.toLowerCase()),
  );
  const out = [];
  for (const name of tables)
    out.push(classifyTable(await tableFacts(src, dst, t, name, existing.has(name.toLowerCase()))));
  return summariseSchema(t.schema, out);
}
