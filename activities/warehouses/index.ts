import { heartbeat } from '@temporalio/activity';
import { DatabricksWorkspace } from '../../platform/databricks/workspace';
import { InvalidWarehouseError, NotFoundError } from '../../platform/errors';
import type { WorkspaceResolver } from '../../platform/workspace-resolver';
import type { WarehouseState } from '../../schemas/warehouses';
import type { Db } from '../../store/db';
import { getWarehouse, recordTransition, type WarehouseRow } from '../../store/warehouses/repo';
import type { TransitionResult, WarehouseCommand } from '../../workflows/warehouses/definitions';
import { databricksBackend } from './databricks';
import { poolActivity, poolFor, stopPool } from './engine';

/**
 * Where a warehouse's compute lives. Local: an engine pool in this worker. Databricks: the SQL Warehouses
 * API, each call returning once the warehouse reached the state asked for (the REST client polls).
 */
export interface WarehouseBackend {
  start(row: WarehouseRow): Promise<number>;
  stop(row: WarehouseRow): Promise<void>;
  edit(row: WarehouseRow): Promise<void>;
  remove(row: WarehouseRow): Promise<void>;
}

export const localBackend: WarehouseBackend = {
  async start(row) {
    poolFor(row);
    return row.minNumClusters;
  },
  async stop(row) {
    stopPool(row.id);
  },
  async edit(row) {
    if (row.state === 'RUNNING') poolFor(row);
  },
  async remove(row) {
    stopPool(row.id);
  },
};

const STEADY: Record<string, WarehouseState> = { start: 'RUNNING', stop: 'STOPPED', delete: 'DELETED' };

export interface WarehouseActivityDeps {
  db: Db;
  /** The backend for a warehouse row (local pools unless the row lives in a Databricks workspace). */
  backendFor?: (row: WarehouseRow) => Promise<WarehouseBackend>;
  /** The configured workspace: Databricks warehouses are changed through its SQL Warehouses API. */
  workspaces?: WorkspaceResolver;
}

/** The warehouse workflow's activities: one transition at a time, each step an event row. */
export function createWarehouseActivities(deps: WarehouseActivityDeps) {
  const backendFor =
    deps.backendFor ??
    (async (row: WarehouseRow) => {
      if (row.location !== 'databricks' || !deps.workspaces) return localBackend;
      const ws = await deps.workspaces.default();
      if (!(ws instanceof DatabricksWorkspace))
        throw new InvalidWarehouseError(`warehouse ${row.id} lives in a Databricks workspace; none is configured`);
      return databricksBackend(ws.rest.warehouses);
    });
  async function load(id: string): Promise<WarehouseRow> {
    const row = await getWarehouse(deps.db, id);
    if (!row) throw new NotFoundError(`warehouse ${id} not found`);
    return row;
  }
  return {
    /** Moves a warehouse to the steady state of `cmd`; a warehouse already there is left alone (no event). */
    async warehouseTransition(id: string, cmd: WarehouseCommand): Promise<TransitionResult> {
      const row = await load(id);
      const done = (r: WarehouseRow): TransitionResult => ({ state: r.state, autoStopMins: r.autoStopMins });
      if (row.state === 'DELETED') return done(row);
      const backend = await backendFor(row);
      if (cmd === 'edit') {
        await backend.edit(row);
        return done(row);
      }
      if (row.state === STEADY[cmd]) return done(row);
      heartbeat();
      if (cmd === 'start') {
        if (row.state !== 'STARTING') await recordTransition(deps.db, id, 'STARTING', 0);
        const clusters = await backend.start(row);
        await recordTransition(deps.db, id, 'RUNNING', clusters);
      } else if (cmd === 'stop') {
        if (row.state !== 'STOPPING') await recordTransition(deps.db, id, 'STOPPING', row.numClusters);
        await backend.stop(row);
        await recordTransition(deps.db, id, 'STOPPED', 0);
      } else {
        if (row.state !== 'DELETING') await recordTransition(deps.db, id, 'DELETING', row.numClusters);
        await backend.remove(row);
        await recordTransition(deps.db, id, 'DELETED', 0);
      }
      return done(await load(id));
    },

    /** Whether a query is running or queued on the warehouse in this worker, and when it was last used. */
    async warehouseIdle(id: string): Promise<{ busy: boolean; lastUsedAtMs: number | null }> {
      return poolActivity(id);
    },
  };
}

export type WarehouseActivities = ReturnType<typeof createWarehouseActivities>;
