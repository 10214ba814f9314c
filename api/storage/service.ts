import { nameMatcher, pct, storageSummary, type TableMeasure } from '../../activities/storage/logic/metrics';
import { effectiveSetting, recommend, settingOf } from '../../activities/storage/logic/predictive';
import type { Workspace } from '../../platform/port';
import type { TableInfo } from '../../platform/types';
import type { PredictiveResult, StorageMetricsResult } from '../../schemas/storage';
import { rootCauseMessage } from '../../activities/jobs/logic/root-cause';
import type { AppDeps } from '../deps';

/** Storage routes work on the configured workspace (the worker's, where OPTIMIZE / VACUUM jobs run). */
export function storageWorkspace(deps: AppDeps): Promise<Workspace> {
  return deps.workspaces.default();
}

/** Tables (not views) of a catalog whose schema and name match the filters; information_schema left out. */
export async function catalogTables(
  ws: Workspace,
  catalog: string,
  filters: { schema_filter?: string; table_filter?: string } = {},
): Promise<TableInfo[]> {
  const schemaOk = nameMatcher(filters.schema_filter);
  const tableOk = nameMatcher(filters.table_filter);
  const schemas = (await ws.listSchemas(catalog)).filter((s) => s.name !== 'information_schema' && schemaOk(s.name));
  const out: TableInfo[] = [];
  for (const s of schemas) out.push(...(await ws.listTables(catalog, s.name)).filter((t) => tableOk(t.name)));
  return out;
}

/** Runs `fn` over items, `limit` at a time, keeping order. */
export async function eachLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return out;
}

/** Storage metrics of a catalog: each table measured by the platform (4 at a time), then summed. */
export async function measureCatalog(
  ws: Workspace,
  catalog: string,
  filters: { schema_filter?: string; table_filter?: string },
): Promise<StorageMetricsResult> {
  await ws.getCatalog(catalog); // 404 for an unknown catalog
  const tables = await catalogTables(ws, catalog, filters);
  const measures = await eachLimit(tables, 4, async (t): Promise<TableMeasure> => {
    const base = { schema: t.schema, table: t.name, format: t.format };
    try {
      return { ...base, metrics: await ws.storageMetrics(t), error: null };
    } catch (err) {
      return { ...base, metrics: null, error: rootCauseMessage(err) };
    }
  });
  return storageSummary(catalog, measures);
}

/**
 * Per table: whether predictive optimization is on (its property, or inherited from its schema or catalog) and,
 * where it is not, what to run by hand, from its data files (DESCRIBE DETAIL) and vacuumable share.
 */
export async function predictiveCheck(
  ws: Workspace,
  catalog: string,
  filters: { schema_filter?: string; table_filter?: string },
): Promise<PredictiveResult> {
  const cat = await ws.getCatalog(catalog);
  const tables = await catalogTables(ws, catalog, filters);
  const schemaProps = new Map<string, Record<string, string>>();
  for (const s of new Set(tables.map((t) => t.schema)))
    schemaProps.set(s, (await ws.getSchema(catalog, s).catch(() => null))?.properties ?? {});
  const measured = await eachLimit(tables, 4, async (t) => {
    const props = await ws.getProperties(t).catch(() => ({}));
    const eff = effectiveSetting(
      { table: props, schema: schemaProps.get(t.schema) ?? {}, catalog: cat.properties },
      { schema: t.schema, catalog },
      ws.kind,
    );
    const detail = await ws.tableDetail(t).catch(() => null);
    const storage = await ws.storageMetrics(t).catch(() => null);
    const vacuumablePct = storage ? pct(storage.vacuumableBytes ?? 0, storage.totalBytes) : 0;
    const rec = recommend(
      { numFiles: detail?.numFiles ?? 0, dataBytes: detail?.sizeInBytes ?? 0, vacuumablePct },
      eff.effective,
    );
    const row = {
      schema_name: t.schema,
      table_name: t.name,
      fqn: `${catalog}.${t.schema}.${t.name}`,
      predictive_optimization: eff.setting,
      inherited_from: eff.inheritedFrom,
      num_active_files: detail?.numFiles ?? 0,
      avg_file_bytes: rec.avgFileBytes,
      vacuumable_pct: vacuumablePct,
      recommendation: rec.recommendation,
      reason: rec.reason,
    };
    return { row, effective: eff.effective };
  });
  const rows = measured.map((m) => m.row);
  const catalogSetting = settingOf(cat.properties) ?? (ws.kind === 'local' ? 'disabled' : 'unknown');
  return {
    catalog,
    catalog_setting: catalogSetting,
    platform: ws.kind,
    tables: rows,
    summary: {
      tables: rows.length,
      enabled: measured.filter((m) => m.effective === 'enabled').length,
      recommend_optimize: rows.filter((r) => r.recommendation.includes('optimize')).length,
      recommend_vacuum: rows.filter((r) => r.recommendation.includes('vacuum')).length,
    },
  };
}
