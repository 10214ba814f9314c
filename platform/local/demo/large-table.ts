import { assertObjectName } from '../../identifiers';
import { InvalidInputError } from '../../errors';
import { LocalWorkspace } from '../workspace';

export interface LargeTableOptions {
  root: string;
  catalog?: string;
  schema?: string;
  name?: string;
  rows?: number;
}

/**
 * One large Delta table for benchmarks (clone, checksum, copy): `rows` generated events in a single append.
 * Creates the catalog and schema when missing; replaces an existing table of the same name.
 */
export async function seedLargeTable(
  opts: LargeTableOptions,
): Promise<{ table: string; rows: number; bytes: number; elapsedMs: number }> {
  const started = Date.now();
  const rows = opts.rows ?? 10_000_000;
  if (!Number.isInteger(rows) || rows <= 0)
    throw new InvalidInputError(`rows must be a positive whole number, got ${rows}`);
  const catalog = assertObjectName(opts.catalog ?? 'bench', 'catalog name').toLowerCase();
  const schema = assertObjectName(opts.schema ?? 'events', 'schema name').toLowerCase();
  const name = assertObjectName(opts.name ?? 'events_large', 'table name').toLowerCase();
  const ws = new LocalWorkspace({ root: opts.root, user: 'data_platform' });
  await ws.createCatalog({ name: catalog, ifNotExists: true });
  await ws.createSchema({ catalog, name: schema, ifNotExists: true });
  const ref = { catalog, schema, name };
  await ws.dropTable(ref, { ifExists: true });
  await ws.createTable({
    ref,
    comment: `${rows} generated events for benchmarks`,
    columns: [
      { name: 'event_id', type: 'bigint', nullable: false },
      { name: 'user_id', type: 'bigint' },
      { name: 'event_type', type: 'string' },
      { name: 'amount', type: 'double' },
      { name: 'event_time', type: 'timestamp' },
    ],
  });
  await ws.insertQuery(
    ref,
    `SELECT i, CAST(hash(i) % 100000 AS BIGINT), ['view', 'click', 'purchase', 'refund'][CAST(1 + i % 4 AS BIGINT)],
      (hash(i * 7) % 100000) / 100.0, TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_seconds(CAST(i % 31536000 AS BIGINT))
     FROM range(1, ${rows + 1}) AS r(i)`,
  );
  const info = await ws.describeTable(ref);
  return { table: `${catalog}.${schema}.${name}`, rows, bytes: info.sizeBytes ?? 0, elapsedMs: Date.now() - started };
}
