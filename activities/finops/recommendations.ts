import { heartbeat } from '@temporalio/activity';
import type { Config } from '../../config/load';
import type { Workspace } from '../../platform/port';
import type { WorkspaceResolver } from '../../platform/workspace-resolver';
import type { Store } from '../../store/db';
import { listJobSpans } from '../../store/finops/repo';
import {
  deepClonesIn,
  getRecommendation,
  listRecommendations,
  saveRefresh,
  updateRecommendation,
} from '../../store/finops/recommendations-repo';
import { listAllWarehouses } from '../../store/warehouses/repo';
import { WAREHOUSE_WEEK_SQL, warehouseWeek, type WarehouseUsageRow } from './logic/recommendation-facts';
import { peakConcurrency, reconcile, type RecommendationStatus } from './logic/recommendation-state';
import {
  idleWarehouse,
  oversizedWarehouse,
  smallFiles,
  unusedClone,
  vacuum,
  type Recommendation,
  type TableStorage,
} from './logic/recommendations';
import { lastReads } from '../../store/finops/recommendations-repo';
import { SYSTEM_CATALOG } from './logic/system-tables';
import { applyRecommendationAction, type ApplyOutcome } from './recommendation-apply';

const DAY = 86_400_000;

export interface RefreshResult {
  found: number;
  opened: number;
  reopened: number;
  resolved: number;
  by_type: Record<string, number>;
  tables_scanned: number;
  warehouses: number;
  /** Facts that could not be read (system tables missing, a table unreadable), each with its reason. */
  notes: string[];
}

/** Every table's storage facts on the workspace (the system catalog left out): the scan a refresh does. */
async function tableStorage(ws: Workspace, notes: string[]): Promise<TableStorage[]> {
  const out: TableStorage[] = [];
  for (const c of await ws.listCatalogs()) {
    if (c.name === SYSTEM_CATALOG) continue;
    for (const s of await ws.listSchemas(c.name))
      for (const t of await ws.listTables(c.name, s.name)) {
        heartbeat();
        const name = `${c.name}.${s.name}.${t.name}`;
        try {
          const ref = { catalog: c.name, schema: s.name, name: t.name };
          // Storage metrics for every byte (log and history included); DESCRIBE DETAIL for the data files.
          const [m, d] = await Promise.all([ws.storageMetrics(ref), ws.tableDetail(ref)]);
          out.push({
            table: name,
            total_bytes: m.totalBytes,
            vacuumable_bytes: m.vacuumableBytes ?? 0,
            file_count: d.numFiles,
            current_bytes: d.sizeInBytes,
          });
        } catch (err) {
          notes.push(`${name}: storage metrics not readable (${(err as Error).message})`);
        }
      }
  }
  return out;
}

async function warehouseUsage(ws: Workspace, notes: string[]): Promise<Map<string, WarehouseUsageRow>> {
  try {
    const res = await ws.query(WAREHOUSE_WEEK_SQL);
    return new Map(res.rows.map((r) => [String(r.warehouse_id), r as unknown as WarehouseUsageRow]));
  } catch (err) {
    notes.push(`warehouse usage not readable from the system tables (${(err as Error).message})`);
    return new Map();
  }
}

export interface RecommendationActivityDeps {
  config: Config;
  store: Store;
  workspaces: WorkspaceResolver;
  now?: () => Date;
}

export function createRecommendationActivities(deps: RecommendationActivityDeps) {
  const now = deps.now ?? (() => new Date());
  const t = deps.config.cost.recommendations;
  const price = deps.config.cost.price_per_gb;
  return {
    /**
     * Runs every analyser over the recorded facts of the default workspace (ledger usage, warehouse settings,
     * pool spans, each table's storage metrics, deep clones with their reads and syncs) and reconciles the
     * findings with the stored ones in one transaction. Running it again on the same facts changes nothing.
     */
    async refreshRecommendations(): Promise<RefreshResult> {
      const at = now();
      const notes: string[] = [];
      const ws = await deps.workspaces.default();
      const found: Recommendation[] = [];

      const whs = (await listAllWarehouses(deps.store.db)).filter((w) => w.state !== 'DELETED');
      const usage = whs.length ? await warehouseUsage(ws, notes) : new Map<string, WarehouseUsageRow>();
      const spans = await listJobSpans(deps.store.db, new Date(at.getTime() - 7 * DAY));
      for (const w of whs) {
        const peak = peakConcurrency(
          spans.filter((s) => s.warehouseId === w.id).map((s) => ({ start: +s.startedAt, end: +s.endedAt })),
        );
        const week = warehouseWeek(w, usage.get(w.id), peak);
        found.push(...[idleWarehouse(week, t), oversizedWarehouse(week)].filter((r) => r !== null));
      }

      const tables = await tableStorage(ws, notes);
      for (const s of tables) found.push(...[vacuum(s, price, t), smallFiles(s, t)].filter((r) => r !== null));

      const bytes = new Map(tables.map((s) => [s.table, s.total_bytes]));
      const reads = await lastReads(deps.store.db, ws.id);
      for (const c of await deepClonesIn(deps.store.db, ws.id)) {
        const table = `${c.catalog}.${c.schema}.${c.table}`;
        if (!bytes.has(table)) continue; // dropped since
        const r = unusedClone(
          {
            table,
            bytes: bytes.get(table)!,
            created: c.clonedAt,
            last_sync: c.clonedAt,
            last_read: reads.get(table) ?? null,
          },
          at,
          price,
          t,
        );
        if (r) found.push(r);
      }

      const stored = await listRecommendations(deps.store.db);
      const plan = reconcile(
        stored.map((s) => ({ id: s.id, status: s.status as RecommendationStatus, suppressedUntil: s.suppressedUntil })),
        found,
        at,
      );
      await saveRefresh(
        deps.store.db,
        plan.upserts.map(({ rec, status, reopened }) => ({
          id: rec.id,
          type: rec.type,
          subject: rec.subject,
          title: rec.title,
          action: rec.action,
          evidence: rec.evidence,
          savingsUsdMonth: rec.savings_usd_month,
          benefit: rec.benefit,
          confidence: rec.confidence,
          effort: rec.effort,
          status,
          found: true,
          ...(reopened ? { suppressedUntil: null } : {}),
          firstSeenAt: at,
          lastSeenAt: at,
          updatedAt: at,
        })),
        plan.missing,
        plan.resolve,
        at,
      );
      const by_type: Record<string, number> = {};
      for (const u of plan.upserts) by_type[u.rec.type] = (by_type[u.rec.type] ?? 0) + 1;
      const known = new Set(stored.map((s) => s.id));
      return {
        found: plan.upserts.length,
        opened: plan.upserts.filter((u) => !known.has(u.rec.id)).length,
        reopened: plan.upserts.filter((u) => u.reopened).length,
        resolved: plan.resolve.length,
        by_type,
        tables_scanned: tables.length,
        warehouses: whs.length,
        notes,
      };
    },

    /** Runs what an applying recommendation asks for (warehouse edit, VACUUM, OPTIMIZE, DROP TABLE). */
    async applyRecommendation(input: { id: string }): Promise<ApplyOutcome> {
      const row = await getRecommendation(deps.store.db, input.id);
      if (!row) throw new Error(`recommendation ${input.id} not found`);
      return applyRecommendationAction({ db: deps.store.db, ws: await deps.workspaces.default() }, row);
    },

    /** Records an apply's end: applied with its result, or open again with the error. */
    async finishRecommendationApply(input: {
      id: string;
      ok: boolean;
      result?: ApplyOutcome;
      error?: string;
    }): Promise<void> {
      await updateRecommendation(
        deps.store.db,
        input.id,
        ['applying'],
        input.ok
          ? { status: 'applied', appliedAt: now(), applyResult: { ...input.result }, error: null }
          : { status: 'open', error: input.error ?? 'apply failed' },
      );
    },
  };
}

export type RecommendationActivities = ReturnType<typeof createRecommendationActivities>;
