import { randomBytes } from 'node:crypto';
import type { Client } from '@temporalio/client';
import { warehouseRequestOf } from '../../activities/warehouses/logic/rest-body';
import { kindOf, type WarehouseSpec } from '../../activities/warehouses/logic/spec';
import { DatabricksWorkspace } from '../../platform/databricks/workspace';
import { isPlatformError } from '../../platform/errors';
import type { WarehouseBody, WarehouseState } from '../../schemas/warehouses';
import { getWarehouse, type WarehouseRow } from '../../store/warehouses/repo';
import {
  warehouseCommandSignal,
  warehouseWorkflowId,
  type WarehouseCommand,
} from '../../workflows/warehouses/definitions';
import type { AppDeps } from '../deps';
import { HttpError, notFound } from '../middleware/http-error';

/** A new warehouse id: 16 hex digits, as Databricks warehouse ids look. */
export const newWarehouseId = () => randomBytes(8).toString('hex');

export function temporalClient(deps: AppDeps): Client {
  if (!deps.temporal)
    throw new HttpError(503, 'TEMPORAL_UNAVAILABLE', 'Temporal is not configured; warehouses cannot change state');
  return deps.temporal.client;
}

export async function requireWarehouse(deps: AppDeps, id: string): Promise<WarehouseRow> {
  const row = await getWarehouse(deps.store.db, id);
  if (!row || row.state === 'DELETED') throw notFound(`No SQL warehouse with id "${id}"`);
  return row;
}

export function warehouseBody(w: WarehouseRow, host: string): WarehouseBody {
  const path = `/sql/1.0/warehouses/${w.id}`;
  const hostname = host.replace(/^https?:\/\//, '').replace(/\/+$/, '');
  return {
    id: w.id,
    name: w.name,
    cluster_size: w.clusterSize,
    min_num_clusters: w.minNumClusters,
    max_num_clusters: w.maxNumClusters,
    auto_stop_mins: w.autoStopMins,
    warehouse_type: w.warehouseType as 'PRO' | 'CLASSIC',
    enable_serverless_compute: w.enableServerlessCompute,
    type: kindOf(w),
    enable_photon: w.enablePhoton,
    channel: { name: w.channel as 'CHANNEL_NAME_CURRENT' | 'CHANNEL_NAME_PREVIEW' },
    tags: { custom_tags: w.tags },
    state: w.state as WarehouseState,
    num_clusters: w.numClusters,
    num_active_sessions: 0,
    connection_string:
      w.location === 'local'
        ? `lakeward://${hostname}/warehouses/${w.id}`
        : `jdbc:databricks://${hostname}:443/default;transportMode=http;ssl=1;AuthMech=3;httpPath=${path};`,
    odbc_params: { hostname, path, protocol: 'https', port: 443 },
    jdbc_url: `jdbc:databricks://${hostname}:443/default;transportMode=http;ssl=1;AuthMech=3;httpPath=${path};`,
    creator_name: w.creatorName,
    created_at: w.createdAt.toISOString(),
    updated_at: w.updatedAt.toISOString(),
  };
}

const TARGET: Record<'start' | 'stop', WarehouseState[]> = {
  start: ['STARTING', 'RUNNING'],
  stop: ['STOPPING', 'STOPPED'],
};

/**
 * Asks the warehouse's workflow to start or stop it and answers at once: a warehouse already in (or moving to)
 * that state is left alone (accepted false).
 */
export async function requestTransition(deps: AppDeps, id: string, cmd: 'start' | 'stop') {
  const row = await requireWarehouse(deps, id);
  if (TARGET[cmd].includes(row.state as WarehouseState))
    return { id, state: row.state as WarehouseState, accepted: false, message: `already ${row.state}` };
  await sendCommand(deps, id, cmd);
  return { id, state: row.state as WarehouseState, accepted: true, message: `${cmd} requested` };
}

export async function sendCommand(deps: AppDeps, id: string, cmd: WarehouseCommand): Promise<void> {
  await temporalClient(deps).workflow.signalWithStart('warehouseWorkflow', {
    workflowId: warehouseWorkflowId(id),
    taskQueue: deps.config.temporal.task_queue,
    args: [{ warehouseId: id }],
    signal: warehouseCommandSignal,
    signalArgs: [cmd],
  });
}

/**
 * Creates the warehouse in the configured Databricks workspace (POST /api/2.0/sql/warehouses, no waiting) and
 * answers its id. A refused body is 422 with the workspace's message; anything else 502.
 */
export async function createInDatabricks(deps: AppDeps, spec: WarehouseSpec): Promise<string> {
  const ws = await deps.workspaces.default();
  if (!(ws instanceof DatabricksWorkspace))
    throw new HttpError(502, 'WORKSPACE_UNREACHABLE', 'the configured Databricks workspace could not be opened');
  try {
    return await ws.rest.warehouses.createNoWait(warehouseRequestOf(spec));
  } catch (err) {
    if (isPlatformError(err) && err.code === 'INVALID_INPUT')
      throw new HttpError(422, 'VALIDATION_ERROR', `Databricks refused the warehouse: ${err.message}`, [
        { path: 'body', message: err.message },
      ]);
    throw new HttpError(
      502,
      'WORKSPACE_UNREACHABLE',
      `Databricks did not create the warehouse: ${(err as Error).message}`,
    );
  }
}
