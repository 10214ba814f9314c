import { heartbeat } from '@temporalio/activity';
import type { PollOptions, SqlWarehousesApi, WarehouseRequest } from '../../platform/databricks/rest/warehouses';
import { specOf, type WarehouseRow } from '../../store/warehouses/repo';
import { warehouseRequestOf } from './logic/rest-body';
import type { WarehouseBackend } from '.';

/** The row as the SQL Warehouses API takes it. */
export function warehouseRequest(row: WarehouseRow): WarehouseRequest {
  return warehouseRequestOf(specOf(row));
}

/**
 * A Databricks warehouse's transitions through the SQL Warehouses API, each polled to its target state (the
 * activity heartbeats on every poll). Auto-stop is Databricks' own: the row's auto_stop_mins is sent with edits.
 */
export function databricksBackend(api: SqlWarehousesApi, poll: PollOptions = {}): WarehouseBackend {
  const polling: PollOptions = { ...poll, onPoll: (state) => safeHeartbeat(state) };
  return {
    async start(row) {
      const w = await api.start(row.id, polling);
      return w.min_num_clusters ?? row.minNumClusters;
    },
    async stop(row) {
      await api.stop(row.id, polling);
    },
    async edit(row) {
      await api.edit(row.id, warehouseRequest(row));
    },
    async remove(row) {
      await api.delete(row.id, polling);
    },
  };
}

function safeHeartbeat(state: string): void {
  try {
    heartbeat(state);
  } catch {
    // outside an activity (tests of the REST sequence): nothing to report to
  }
}
