import { activityInfo } from '@temporalio/activity';
import type { Config } from '../../config/load';
import { withPoolUseListener, type PoolUse } from '../../platform/local/warehouse-pool';
import type { WorkspaceResolver } from '../../platform/workspace-resolver';
import type { Db, Store } from '../../store/db';
import { recordJobSpans } from '../../store/finops/repo';
import { listAllWarehouses } from '../../store/warehouses/repo';
import { deriveSystemTables } from './derive';
import { snapshotStorage } from './storage-snapshot';

/** `clone-20261121-101500-3fa2--0--sales` → the job id and its type (the kernel's id format). */
const JOB_ID = /^(([a-z][a-z0-9_]*)-\d{8}-\d{6}-[0-9a-f]+)/;

/** One span per warehouse an activity used: first cluster taken → last released, and the time spent in queries. */
function spansOf(uses: PoolUse[]): { warehouseId: string; start: number; end: number; busyMs: number }[] {
  const by = new Map<string, PoolUse[]>();
  for (const u of uses) by.set(u.warehouseId, [...(by.get(u.warehouseId) ?? []), u]);
  return [...by].map(([warehouseId, list]) => {
    list.sort((a, b) => a.startedAt - b.startedAt);
    let busyMs = 0;
    let reach = -Infinity;
    for (const u of list) {
      const from = Math.max(u.startedAt, reach);
      if (u.endedAt > from) busyMs += u.endedAt - from;
      reach = Math.max(reach, u.endedAt);
    }
    return { warehouseId, start: list[0].startedAt, end: reach, busyMs };
  });
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any activity signature, kept as it is
type ActivityMap = Record<string, (...args: any[]) => Promise<unknown>>;

/**
 * The same activities, each recording (when it ran SQL on a named warehouse) the span it held the warehouse
 * as a usage fact: one row per activity attempt and warehouse, written as the activity ends (even if it failed).
 */
export function recordWarehouseSpans<T extends ActivityMap>(db: Db, activities: T): T {
  const out: ActivityMap = {};
  for (const [name, fn] of Object.entries(activities)) {
    out[name] = async (...args: unknown[]) => {
      const uses: PoolUse[] = [];
      try {
        return await withPoolUseListener(
          (u) => void uses.push(u),
          () => fn(...args),
        );
      } finally {
        if (uses.length) await writeSpans(db, uses);
      }
    };
  }
  return out as T;
}

async function writeSpans(db: Db, uses: PoolUse[]): Promise<void> {
  const info = activityInfo();
  const workflowId = info.workflowExecution?.workflowId ?? info.activityId;
  const m = JOB_ID.exec(workflowId);
  const jobId = m ? m[1] : workflowId;
  const jobType = m ? m[2] : 'other';
  await recordJobSpans(
    db,
    spansOf(uses).map((s) => ({
      spanKey: `${workflowId}/${info.activityId}/${info.attempt}`,
      jobId,
      jobType,
      warehouseId: s.warehouseId,
      startedAt: new Date(s.start),
      endedAt: new Date(s.end),
      busyMs: s.busyMs,
      runAs: null,
    })),
  );
}

export interface FinopsActivityDeps {
  config: Config;
  store: Store;
  workspaces: WorkspaceResolver;
}

export function createFinopsActivities(deps: FinopsActivityDeps) {
  return {
    /**
     * Derives the local system tables (billing.usage, billing.list_prices, compute.warehouses,
     * compute.warehouse_events) from the recorded facts; nothing new → nothing written. The job kernel runs it
     * as every job's last step, and an hourly Schedule runs it too. Databricks has its own system tables.
     */
    async deriveUsageLedger(): Promise<Record<string, number>> {
      // Nothing to bill before any warehouse exists: other jobs' workspaces stay as they are.
      if (!(await listAllWarehouses(deps.store.db)).length) return {};
      const ws = await deps.workspaces.default();
      if (ws.kind !== 'local') return {};
      await snapshotStorage(ws, deps.store.db, new Date());
      return deriveSystemTables(ws, deps.store.db, deps.config.cost);
    },
  };
}

export type FinopsActivities = ReturnType<typeof createFinopsActivities>;
