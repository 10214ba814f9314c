import { AlreadyExistsError, InvalidInputError } from '../../errors';
import { assertObjectName } from '../../identifiers';
import { LocalWorkspace } from '../workspace';
import { fillerSchemas, seedFillerTables } from './filler';
import {
  applyFunctionsAndViews,
  applyGrantsAndTags,
  applyHistory,
  applyPolicies,
  applyVolume,
  SCHEMA_OWNERS,
} from './governance';
import type { DemoTable } from './spec';
import { OTHER } from './spec-other';
import { SALES } from './spec-sales';

export type DemoScale = 'small' | 'medium' | 'large';

export interface SeedProgress {
  step: string;
  done: number;
  total: number;
}

export interface SeedOptions {
  root: string;
  catalog?: string;
  scale?: DemoScale;
  onProgress?: (p: SeedProgress) => void;
}

export interface SeedSummary {
  root: string;
  catalog: string;
  scale: DemoScale;
  schemas: string[];
  tables: number;
  views: number;
  functions: number;
  volumes: number;
  rows: number;
  elapsedMs: number;
}

const SCALES: DemoScale[] = ['small', 'medium', 'large'];
/** Base tables in dependency order: a table's foreign keys point at tables created before it. */
const ORDER = [
  'customers',
  'products',
  'warehouses',
  'suppliers',
  'orders',
  'order_items',
  'payments',
  'shipments',
  'returns',
  'promotions',
  'accounts',
  'contacts',
  'leads',
  'opportunities',
  'support_tickets',
  'invoices',
  'ledger_entries',
  'exchange_rates',
  'budgets',
  'inventory',
  'sensor_readings_raw',
];
export const DEMO_TABLES: DemoTable[] = [...SALES, ...OTHER].sort(
  (a, b) => ORDER.indexOf(a.name) - ORDER.indexOf(b.name),
);

/** Builds a realistic demo catalog in a local workspace (see governance.ts for what it carries). */
export async function seedDemo(opts: SeedOptions): Promise<SeedSummary> {
  const started = Date.now();
  const catalog = assertObjectName(opts.catalog ?? 'demo_sales', 'catalog name').toLowerCase();
  const scale = opts.scale ?? 'small';
  if (!SCALES.includes(scale))
    throw new InvalidInputError(`scale must be one of ${SCALES.join(', ')}, got ${JSON.stringify(scale)}`);
  const ws = new LocalWorkspace({ root: opts.root, user: 'data_platform' });
  const extra = fillerSchemas(scale);
  const total = DEMO_TABLES.length + extra.length * 20 + 6;
  let done = 0;
  const progress = (step: string) => opts.onProgress?.({ step, done: ++done, total });

  try {
    await ws.createCatalog({ name: catalog, comment: 'Demo sales lakehouse seeded by lakeward demo seed' });
  } catch (err) {
    if (err instanceof AlreadyExistsError) {
      throw new AlreadyExistsError(
        `catalog ${catalog} already exists in ${ws.root}; drop it or seed another --catalog`,
        { cause: err },
      );
    }
    throw err;
  }
  for (const schema of Object.keys(SCHEMA_OWNERS))
    await ws.createSchema({ catalog, name: schema, comment: `Demo ${schema} data` });

  let rows = 0;
  const counts: Record<string, number> = {};
  for (const t of DEMO_TABLES) {
    const n = scale === 'small' ? t.rows : t.rows * 2;
    counts[t.name] = n;
    const ref = { catalog, schema: t.schema, name: t.name };
    await ws.createTable({ ref, columns: t.columns, format: t.format, properties: t.properties, comment: t.comment });
    const select = t.select.replace(/\{n:(\w+)\}/g, (_, name: string) => String(counts[name] ?? 1));
    rows += (await ws.insertQuery(ref, `SELECT ${select} FROM range(1, ${n + 1}) AS r(i)`)).numOutputRows;
    progress(`table ${t.schema}.${t.name}`);
  }
  await applyFunctionsAndViews(ws, catalog);
  progress('functions and views');
  await applyPolicies(ws, catalog);
  progress('masks, row filter, constraints');
  await applyVolume(ws, catalog);
  progress('volume');
  await applyGrantsAndTags(ws, catalog, DEMO_TABLES);
  progress('grants, owners and tags');
  await applyHistory(ws, catalog);
  progress('history');
  const filler = await seedFillerTables(ws, catalog, extra, () => progress('filler table'));
  progress('done');
  return {
    root: ws.root,
    catalog,
    scale,
    schemas: [...Object.keys(SCHEMA_OWNERS), ...extra],
    tables: DEMO_TABLES.length + filler.tables,
    views: 3,
    functions: 3,
    volumes: 1,
    rows: rows + filler.rows,
    elapsedMs: Date.now() - started,
  };
}
