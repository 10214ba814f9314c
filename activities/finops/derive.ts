import type { Workspace } from '../../platform/port';
import type { Db } from '../../store/db';
import { jobUsers, listJobSpans, listListPrices, listStorageSnapshots, notePrice } from '../../store/finops/repo';
import { listAllWarehouses, listWarehouseEvents } from '../../store/warehouses/repo';
import { kindOf } from '../warehouses/logic/spec';
import { deriveStorageUsage, deriveUsage, recordId, skuOf } from './logic/ledger';
import { queryHistoryRows } from './logic/query-history';
import { SYSTEM_CATALOG, SYSTEM_TABLES, type SystemTableName } from './logic/system-tables';

export const LOCAL_ACCOUNT = 'local';
export const LOCAL_WORKSPACE = 'local';
const HOUR = 3_600_000;

export interface PriceConfig {
  dbu_price_usd: Record<string, number>;
  price_per_gb: number;
}

const iso = (ms: number) => new Date(ms).toISOString();
const tags = (t: { key: string; value: string }[]) => Object.fromEntries(t.map((x) => [x.key, x.value]));

/** Every row each system table should hold, from the facts in the store (deterministic, record_id keyed). */
export async function desiredRows(
  db: Db,
  prices: PriceConfig,
  now: Date,
  cutoff: number,
): Promise<Record<SystemTableName, Record<string, unknown>[]>> {
  const [whs, events, spans, storage] = await Promise.all([
    listAllWarehouses(db),
    listWarehouseEvents(db),
    listJobSpans(db),
    listStorageSnapshots(db),
  ]);
  const firstFact = Math.min(now.getTime(), ...events.map((e) => e.eventTime.getTime()));
  for (const [kind, price] of Object.entries(prices.dbu_price_usd)) {
    const sku = skuOf({
      warehouseType: kind === 'Classic' ? 'CLASSIC' : 'PRO',
      enableServerlessCompute: kind === 'Serverless',
    });
    await notePrice(db, { skuName: sku, usageUnit: 'DBU', priceUsd: String(price) }, now, new Date(firstFact));
  }
  await notePrice(
    db,
    { skuName: 'STORAGE', usageUnit: 'GB_MONTH', priceUsd: String(prices.price_per_gb) },
    now,
    new Date(firstFact),
  );
  const priceRows = await listListPrices(db);
  const users = await jobUsers(
    db,
    spans.map((s) => s.jobId),
  );
  const spanFacts = spans.map((s) => ({
    ...s,
    runAs: s.runAs ?? users.get(s.jobId) ?? null,
    start: s.startedAt.getTime(),
    end: s.endedAt.getTime(),
  }));
  const usage = deriveUsage({
    warehouses: whs.map((w) => ({ id: w.id, name: w.name, clusterSize: w.clusterSize, skuName: skuOf(w) })),
    events: events.map((e) => ({ ...e, at: e.eventTime.getTime() })),
    spans: spanFacts,
    cutoff,
  }).concat(deriveStorageUsage(storage));
  const base = { account_id: LOCAL_ACCOUNT, workspace_id: LOCAL_WORKSPACE };
  return {
    query_history: queryHistoryRows(spanFacts, base),
    usage: usage.map((u) => ({
      ...base,
      record_id: u.record_id,
      sku_name: u.sku_name,
      cloud: 'LOCAL',
      usage_start_time: iso(u.usage_start_time),
      usage_end_time: iso(u.usage_end_time),
      usage_date: u.usage_date,
      custom_tags: u.table_name
        ? { lakeward_table: u.table_name }
        : u.job_type
          ? { lakeward_job_type: u.job_type }
          : {},
      usage_unit: u.usage_unit,
      usage_quantity: u.usage_quantity,
      usage_metadata: { warehouse_id: u.warehouse_id || null, job_id: u.job_id, job_run_id: u.job_id },
      identity_metadata: { run_as: u.run_as },
      record_type: 'ORIGINAL',
      ingestion_date: iso(Math.floor(u.usage_end_time / HOUR) * HOUR).slice(0, 10),
      billing_origin_product: u.table_name ? 'DEFAULT_STORAGE' : u.job_id ? 'JOBS' : 'SQL',
      usage_type: u.table_name ? 'STORAGE_SPACE' : 'COMPUTE_TIME',
    })),
    list_prices: priceRows.map((p, i) => {
      const next = priceRows[i + 1]?.skuName === p.skuName ? priceRows[i + 1].priceStartTime : null;
      return {
        account_id: LOCAL_ACCOUNT,
        price_start_time: p.priceStartTime.toISOString(),
        price_end_time: next ? next.toISOString() : null,
        sku_name: p.skuName,
        cloud: 'LOCAL',
        currency_code: 'USD',
        usage_unit: p.usageUnit,
        pricing: { default: Number(p.priceUsd) },
        record_id: recordId([p.skuName, p.priceStartTime.getTime(), next?.getTime() ?? 'open', p.priceUsd]),
      };
    }),
    warehouses: whs.map((w) => {
      const deleted = events.find((e) => e.warehouseId === w.id && e.eventType === 'DELETED');
      const change = w.updatedAt.getTime();
      return {
        ...base,
        warehouse_id: w.id,
        warehouse_name: w.name,
        warehouse_type: kindOf(w).toUpperCase(),
        warehouse_channel: w.channel === 'CHANNEL_NAME_PREVIEW' ? 'PREVIEW' : 'CURRENT',
        warehouse_size: w.clusterSize,
        min_clusters: w.minNumClusters,
        max_clusters: w.maxNumClusters,
        auto_stop_minutes: w.autoStopMins,
        tags: tags(w.tags),
        change_time: iso(change),
        delete_time: deleted ? deleted.eventTime.toISOString() : null,
        record_id: recordId([
          w.id,
          change,
          w.clusterSize,
          w.minNumClusters,
          w.maxNumClusters,
          w.autoStopMins,
          w.name,
          deleted ? 1 : 0,
        ]),
      };
    }),
    warehouse_events: events.map((e) => ({
      ...base,
      warehouse_id: e.warehouseId,
      event_type: e.eventType,
      cluster_count: e.clusterCount,
      event_time: e.eventTime.toISOString(),
      record_id: recordId([e.warehouseId, e.seq, e.eventType, e.eventTime.getTime()]),
    })),
  };
}

/** Creates the system catalog, schemas and tables that are missing (Databricks' column names). */
async function ensureTables(ws: Workspace): Promise<void> {
  await ws.createCatalog({ name: SYSTEM_CATALOG, ifNotExists: true, comment: 'Usage ledger (derived, read-only)' });
  for (const schema of new Set(Object.values(SYSTEM_TABLES).map((t) => t.ref.schema)))
    await ws.createSchema({ catalog: SYSTEM_CATALOG, name: schema, ifNotExists: true });
  for (const t of Object.values(SYSTEM_TABLES)) {
    if (await ws.tableExists(t.ref)) continue;
    await ws.createTable({ ref: t.ref, columns: t.columns.map(([name, type]) => ({ name, type })) });
  }
}

/**
 * Brings the local system tables up to the facts: appends the rows whose record_id is missing (a price table
 * whose rows changed is rewritten). Nothing new in the facts → nothing written. Returns rows added per table.
 */
export async function deriveSystemTables(
  ws: Workspace,
  db: Db,
  prices: PriceConfig,
  now: Date = new Date(),
): Promise<Record<SystemTableName, number>> {
  const cutoff = Math.floor(now.getTime() / HOUR) * HOUR;
  return deriveUpTo(ws, db, prices, now, cutoff);
}

export async function deriveUpTo(
  ws: Workspace,
  db: Db,
  prices: PriceConfig,
  now: Date,
  cutoff: number,
): Promise<Record<SystemTableName, number>> {
  await ensureTables(ws);
  const want = await desiredRows(db, prices, now, cutoff);
  const added = { usage: 0, list_prices: 0, warehouses: 0, warehouse_events: 0, query_history: 0 };
  for (const name of Object.keys(SYSTEM_TABLES) as SystemTableName[]) {
    const t = SYSTEM_TABLES[name];
    const fqn = `${t.ref.catalog}.${t.ref.schema}.${t.ref.name}`;
    const have = new Set((await ws.query(`SELECT ${t.key} FROM ${fqn}`)).rows.map((r) => String(r[t.key])));
    const missing = want[name].filter((r) => !have.has(String(r[t.key])));
    if (name === 'list_prices' && missing.length && have.size) {
      await ws.deleteWhere(t.ref, 'true');
      await ws.insertRows(t.ref, want[name]);
      added[name] = want[name].length;
      continue;
    }
    if (missing.length) await ws.insertRows(t.ref, missing);
    added[name] = missing.length;
  }
  return added;
}
