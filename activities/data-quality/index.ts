import type { ProfileResult } from './profile';
import { profileSource } from './profile';
import { runSegmented, type DqSegmentedRequest } from './segmented-run';
import { runTableChecks, type DqTableOutcome, type DqTableRequest } from './run-table';
import type { DqProfileInput } from '../../schemas/data-quality-profiles';
import type { SegmentedResult } from '../../schemas/data-quality';
import type { WorkspaceResolver } from '../../platform/workspace-resolver';
import type { Store } from '../../store/db';
import { stopOnCancel, withHeartbeat } from '../clone/heartbeat';
import { onWarehouse } from '../warehouses/gate';
import { InvalidWarehouseError } from '../../platform/errors';
import type { EnginePool } from '../../platform/local/warehouse-pool';
import { isLogicalError } from '../clone/failures';
import { DEFAULT_ANOMALY_SETTINGS, type AnomalySettings } from './logic/anomaly';
import { measureTable, recordObservations } from './metrics';
import { runOperation, type DqOperation, type DqOperationResult } from './operations';
import { planScheduledRun, recordScheduledRunFailure, type ScheduledPlan } from './schedules';

export type { DqTableOutcome, DqTableRequest } from './run-table';
export type { DqSegmentedRequest } from './segmented-run';
export type { ProfileResult } from './profile';
export type { DqOperation, DqOperationResult } from './operations';
export type { ScheduledPlan } from './schedules';
export { createDqCloneHooks } from './clone-hooks';

/**
 * Data-quality activities: a table's check run, a segmented run and a profile, each on the configured
 * workspace, heartbeating while its queries run and stopping at the next query once cancelled.
 */
export function createDataQualityActivities(deps: {
  store: Store;
  workspaces: WorkspaceResolver;
  anomaly?: AnomalySettings;
  now?: () => Date;
  /** A named local warehouse's pool, started when STOPPED; refuses an unknown one (the worker's warehouse gate). */
  warehousePool?: (warehouseId: string) => Promise<EnginePool>;
}) {
  const workspace = async () => stopOnCancel(await deps.workspaces.default());
  /** The workspace, its SQL on the named warehouse's pool when one is named (local lakehouse only). */
  const onNamed = async (warehouseId: string | undefined) => {
    const ws = await workspace();
    if (!warehouseId || warehouseId === 'default' || ws.kind !== 'local') return ws;
    const pool = deps.warehousePool;
    if (!pool) throw new InvalidWarehouseError(`SQL warehouse ${warehouseId}: no warehouse pools in this worker`);
    return onWarehouse(ws, () => pool(warehouseId));
  };
  const now = deps.now ?? (() => new Date());
  return {
    /** A table's run, then its metrics against their baselines (anomalies); a metric that cannot be read is skipped. */
    async dqRunTable(req: DqTableRequest): Promise<DqTableOutcome> {
      return withHeartbeat(async () => {
        const ws = await onNamed(req.warehouseId);
        const outcome = await runTableChecks(ws, deps.store, req);
        if (outcome.status === 'completed') {
          const at = now();
          const observed = await measureTable(ws, req.tableFqn, at).catch((err: unknown) => {
            if (isLogicalError(err)) return [];
            throw err;
          });
          await recordObservations(
            deps.store.db,
            req.tableFqn,
            observed,
            deps.anomaly ?? DEFAULT_ANOMALY_SETTINGS,
            req.runId,
            at,
          );
        }
        return outcome;
      });
    },
    /** What one firing of a DQ schedule runs. */
    async dqPlanScheduledRun(req: { scheduleId: string; runId: string }): Promise<ScheduledPlan> {
      return planScheduledRun(deps.store, req.scheduleId, req.runId);
    },
    async dqScheduledRunFailed(e: { scheduleId: string; runId: string; error: string }): Promise<void> {
      await recordScheduledRunFailure(deps.store, e);
    },
    /** A gate, suite validation, rule test or cross-table check (dqOperationWorkflow). */
    async dqOperation(op: DqOperation): Promise<DqOperationResult> {
      return withHeartbeat(async () => runOperation(await workspace(), deps.store, op));
    },
    async dqSegmentedRun(req: DqSegmentedRequest): Promise<SegmentedResult> {
      return withHeartbeat(async () => runSegmented(await workspace(), deps.store, req));
    },
    async dqProfile(input: DqProfileInput): Promise<ProfileResult> {
      return withHeartbeat(async () => profileSource(await workspace(), deps.store, input));
    },
  };
}

export type DataQualityActivities = ReturnType<typeof createDataQualityActivities>;
