import type { Client } from '@temporalio/client';
import { InvalidWarehouseError } from '../../platform/errors';
import type { EnginePool } from '../../platform/local/warehouse-pool';
import type { Workspace } from '../../platform/port';
import type { Db } from '../../store/db';
import { getWarehouse } from '../../store/warehouses/repo';
import {
  WAREHOUSE_COMMAND_SIGNAL,
  WAREHOUSE_USED_SIGNAL,
  WAREHOUSE_WORKFLOW,
  warehouseWorkflowId,
} from '../../schemas/warehouses';
import type { WarehouseCommand } from '../../workflows/warehouses/definitions';
import { poolFor } from './engine';

/** The pool every local job uses when it names no warehouse (or names this one): today's shared engine. */
export const DEFAULT_WAREHOUSE = 'default';
/** How long a job waits for a stopped warehouse it needs to reach RUNNING. */
const START_WAIT_MS = 5 * 60_000;
/** At most one use signal per warehouse per this many ms from one process (the timer needs no finer grain). */
const USE_SIGNAL_EVERY_MS = 30_000;

/** A warehouse found RUNNING is trusted for this long before the store is asked again (one port call each). */
const RECHECK_MS = 2_000;

export interface WarehouseGateDeps {
  db: Db;
  client: Client;
  taskQueue: string;
}

/** Asks a warehouse's workflow (started if absent) to carry out `cmd`. */
export async function signalWarehouse(
  client: Client,
  taskQueue: string,
  warehouseId: string,
  cmd: WarehouseCommand,
): Promise<void> {
  await client.workflow.signalWithStart(WAREHOUSE_WORKFLOW, {
    workflowId: warehouseWorkflowId(warehouseId),
    taskQueue,
    args: [{ warehouseId }],
    signal: WAREHOUSE_COMMAND_SIGNAL,
    signalArgs: [cmd],
  });
}

/**
 * The engine pool of the warehouse a job names: an unknown or deleted one fails at once (InvalidWarehouse, never
 * retried); a stopped one is started through its workflow first and waited for.
 */
export function createWarehouseGate(deps: WarehouseGateDeps): (warehouseId: string) => Promise<EnginePool> {
  const lastSignal = new Map<string, number>();
  const checked = new Map<string, { pool: EnginePool; at: number }>();
  return async (warehouseId) => {
    const recent = checked.get(warehouseId);
    if (recent && Date.now() - recent.at < RECHECK_MS) return recent.pool;
    let row = await getWarehouse(deps.db, warehouseId);
    if (!row || row.state === 'DELETED' || row.state === 'DELETING')
      throw new InvalidWarehouseError(`SQL warehouse ${warehouseId} does not exist`);
    if (row.location !== 'local')
      throw new InvalidWarehouseError(`SQL warehouse ${warehouseId} is not a local warehouse`);
    if (row.state !== 'RUNNING') {
      await signalWarehouse(deps.client, deps.taskQueue, warehouseId, 'start');
      const until = Date.now() + START_WAIT_MS;
      while (row?.state !== 'RUNNING') {
        if (Date.now() > until) throw new Error(`SQL warehouse ${warehouseId} did not reach RUNNING in time`);
        await new Promise((r) => setTimeout(r, 200));
        row = await getWarehouse(deps.db, warehouseId);
      }
    }
    const now = Date.now();
    if (now - (lastSignal.get(warehouseId) ?? 0) > USE_SIGNAL_EVERY_MS) {
      lastSignal.set(warehouseId, now);
      await deps.client.workflow
        .getHandle(warehouseWorkflowId(warehouseId))
        .signal(WAREHOUSE_USED_SIGNAL)
        .catch(() => undefined);
    }
    const pool = poolFor(row);
    checked.set(warehouseId, { pool, at: now });
    return pool;
  };
}

/**
 * The same workspace with every port call run on one cluster of `pool` (queueing while all are busy): each
 * DuckDB connection the call opens, however deep, is served by that cluster.
 */
export function onWarehouse(ws: Workspace, pool: () => Promise<EnginePool>): Workspace {
  return new Proxy(ws, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function' || prop === 'close' || prop === 'constructor') return value;
      return async (...args: unknown[]) => {
        const p = await pool();
        return p.run(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
      };
    },
  });
}
