import { createHash } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { Client } from '@temporalio/client';
import { lagOf, splitTable, streamIdOf } from '../../activities/streams/logic/stream-plan';
import { cdfEnabled, mergeKeysOf } from '../../activities/sync/logic/classify';
import { NotFoundError } from '../../platform/errors';
import type { StreamStart } from '../../schemas/streams';
import { createStream, getStream, listStreams, updateStream, type StreamRow } from '../../store/streams/repo';
import type { WorkspaceRef } from '../../workflows/clone/definitions';
import { STREAM_WORKFLOW_TYPE, type StreamInput } from '../../workflows/streams/definitions';
import type { AppDeps } from '../deps';
import { HttpError, conflict, notFound } from '../middleware/http-error';

const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');
/** How long stop and restart wait for the running cycle to finish before terminating the run. */
const STOP_WAIT_MS = 60_000;

function client(deps: AppDeps): Client {
  if (!deps.temporal)
    throw new HttpError(503, 'TEMPORAL_UNAVAILABLE', 'Temporal is not configured; streams cannot run');
  return deps.temporal.client;
}

/** The configured workspace as the stream's activities resolve it (no secrets: they are read in the worker). */
function workspaceRef(deps: AppDeps): WorkspaceRef {
  const ws = deps.config.workspace;
  if (ws.kind === 'local') return { kind: 'local', root: ws.root };
  const warehouseId = ws.warehouse_id ?? deps.config.clone.warehouse_id;
  if (!ws.host || !warehouseId)
    throw new HttpError(422, 'VALIDATION_ERROR', 'the server has no Databricks host and warehouse configured');
  return { kind: 'databricks', host: ws.host, warehouseId };
}

/**
 * Checks every source table before anything starts: it exists (404 naming them), has change data feed on (400
 * naming those without) and has merge keys (400 naming those without). Returns each table's keys.
 */
async function checkTables(deps: AppDeps, sourceCatalog: string, tables: string[]): Promise<Record<string, string[]>> {
  const ws = await deps.workspaces.default();
  const missing: number[] = [];
  const noCdf: number[] = [];
  const noKeys: number[] = [];
  const keys: Record<string, string[]> = {};
  for (const [i, t] of tables.entries()) {
    const { schema, name } = splitTable(t);
    try {
      const d = await ws.describeTable({ catalog: sourceCatalog, schema, name });
      if (!cdfEnabled(d.properties)) noCdf.push(i);
      const k = mergeKeysOf(d.columns, d.properties);
      if (k) keys[t] = k;
      else noKeys.push(i);
    } catch (err) {
      if (!(err instanceof NotFoundError)) throw err;
      missing.push(i);
    }
  }
  const detail = (list: number[], message: string) =>
    list.map((i) => ({ path: `body.tables.${i}`, message: `${tables[i]}: ${message}` }));
  const names = (list: number[]) => list.map((i) => tables[i]).join(', ');
  if (missing.length)
    throw new HttpError(
      404,
      'NOT_FOUND',
      `Source tables not found in ${sourceCatalog}: ${names(missing)}`,
      detail(missing, 'not found'),
    );
  if (noCdf.length)
    throw new HttpError(
      400,
      'VALIDATION_ERROR',
      `Change data feed is off on: ${names(noCdf)} (set delta.enableChangeDataFeed = true)`,
      detail(noCdf, 'change data feed is not enabled (delta.enableChangeDataFeed)'),
    );
  if (noKeys.length)
    throw new HttpError(
      400,
      'VALIDATION_ERROR',
      `No merge keys for: ${names(noKeys)} (set the lakeward.merge_keys table property, or make the first column a NOT NULL id)`,
      detail(noKeys, 'no merge keys (lakeward.merge_keys property or a NOT NULL first column id / *_id)'),
    );
  return keys;
}

async function startRun(
  deps: AppDeps,
  row: Pick<StreamRow, 'streamId' | 'sourceCatalog' | 'destinationCatalog' | 'tables' | 'triggerMs'>,
) {
  const keys = await checkTables(deps, row.sourceCatalog, row.tables);
  const input: StreamInput = {
    streamId: row.streamId,
    workspace: workspaceRef(deps),
    sourceCatalog: row.sourceCatalog,
    destinationCatalog: row.destinationCatalog,
    tables: row.tables,
    keys,
    triggerMs: row.triggerMs,
  };
  const handle = await client(deps).workflow.start(STREAM_WORKFLOW_TYPE, {
    workflowId: row.streamId,
    taskQueue: deps.config.temporal.task_queue,
    args: [input],
  });
  await updateStream(deps.store.db, row.streamId, { runId: handle.firstExecutionRunId });
  return handle.firstExecutionRunId;
}

/** POST /api/continuous-sync/start. The same source, destination and tables always give the same stream id. */
export async function startStream(deps: AppDeps, body: StreamStart) {
  client(deps);
  const streamId = streamIdOf(body.source_catalog, body.destination_catalog, body.tables, sha1);
  const existing = await getStream(deps.store.db, streamId);
  if (existing && (await runningRunId(deps, streamId)))
    throw conflict(`Stream ${streamId} is already running; restart or stop it`);
  const fields = {
    sourceCatalog: body.source_catalog,
    destinationCatalog: body.destination_catalog,
    tables: body.tables,
    triggerMs: body.trigger_ms,
  };
  await checkTables(deps, body.source_catalog, body.tables);
  if (existing) await updateStream(deps.store.db, streamId, { ...fields, status: 'starting', error: null });
  else await createStream(deps.store.db, { streamId, ...fields, status: 'starting' });
  const runId = await startRun(deps, { streamId, ...fields });
  return { stream_id: streamId, run_id: runId, status: 'starting' as const };
}

/** The run id of the stream's running workflow, or null. */
async function runningRunId(deps: AppDeps, streamId: string): Promise<string | null> {
  try {
    const d = await client(deps).workflow.getHandle(streamId).describe();
    return d.status.name === 'RUNNING' ? firstRunOf(d) : null;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}

/** The first run id of the workflow's chain (continue-as-new keeps it): the stream's run id. */
function firstRunOf(d: { runId: string; raw: { workflowExecutionInfo?: { firstRunId?: string | null } | null } }) {
  return d.raw.workflowExecutionInfo?.firstRunId || d.runId;
}

/** Cancels the running run and waits for it to end (its cycle's write finishes); terminates it after a minute. */
async function endRun(deps: AppDeps, streamId: string): Promise<void> {
  if (!(await runningRunId(deps, streamId))) return;
  const handle = client(deps).workflow.getHandle(streamId);
  await handle.cancel();
  let timer: NodeJS.Timeout | undefined;
  const ended = await Promise.race([
    handle.result().then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), STOP_WAIT_MS))),
  ]);
  clearTimeout(timer);
  if (!ended) await handle.terminate('stream stop: the running cycle did not end within a minute');
}

async function requireStream(deps: AppDeps, streamId: string): Promise<StreamRow> {
  const row = await getStream(deps.store.db, streamId);
  if (!row) throw notFound(`No stream ${streamId}`);
  return row;
}

/** POST …/streams/{id}/stop: the run is cancelled and the stream is stopped (a stopped stream stays stopped). */
export async function stopStream(deps: AppDeps, streamId: string) {
  await requireStream(deps, streamId);
  await endRun(deps, streamId);
  await updateStream(deps.store.db, streamId, { status: 'stopped' });
  return { stream_id: streamId, status: 'stopped' as const };
}

/** POST …/streams/{id}/restart: the running run is cancelled, a new run (new run id, same stream id) resumes. */
export async function restartStream(deps: AppDeps, streamId: string) {
  const row = await requireStream(deps, streamId);
  const previous = row.runId;
  await endRun(deps, streamId);
  await updateStream(deps.store.db, streamId, { status: row.cycles > 0 ? 'running' : 'starting', error: null });
  const runId = await startRun(deps, row);
  return {
    stream_id: streamId,
    run_id: runId,
    previous_run_id: previous,
    status: row.cycles > 0 ? ('running' as const) : ('starting' as const),
  };
}

type Status = 'starting' | 'running' | 'stopped' | 'failed' | 'unknown';

/** The stream's state as Temporal has it (refresh=true): a running workflow keeps the recorded state. */
async function refreshed(deps: AppDeps, row: StreamRow): Promise<StreamRow> {
  let status: Status;
  let runId = row.runId;
  try {
    const d = await client(deps).workflow.getHandle(row.streamId).describe();
    const name = d.status.name;
    runId = firstRunOf(d);
    status =
      name === 'RUNNING'
        ? row.status === 'starting'
          ? 'starting'
          : 'running'
        : name === 'FAILED' || name === 'TIMED_OUT'
          ? 'failed'
          : 'stopped';
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
    status = row.status === 'stopped' ? 'stopped' : 'unknown';
  }
  const sourceVersions = { ...row.sourceVersions };
  const ws = await deps.workspaces.default().catch(() => null);
  for (const t of row.tables) {
    const v = await ws
      ?.describeTable({ catalog: row.sourceCatalog, ...splitTable(t) })
      .then((d) => d.version)
      .catch(() => null);
    if (typeof v === 'number') sourceVersions[t] = v;
  }
  if (status !== row.status || runId !== row.runId) await updateStream(deps.store.db, row.streamId, { status, runId });
  return { ...row, status, runId, sourceVersions };
}

function view(row: StreamRow) {
  const lag = lagOf(row.tables, row.sourceVersions, row.applied);
  return {
    stream_id: row.streamId,
    run_id: row.runId,
    status: row.status as Status,
    source_catalog: row.sourceCatalog,
    destination_catalog: row.destinationCatalog,
    tables: row.tables,
    trigger_ms: row.triggerMs,
    applied_versions: row.applied,
    source_versions: row.sourceVersions,
    lag: lag.total,
    table_lag: lag.tables,
    cycles: row.cycles,
    last_cycle_at: row.lastCycleAt?.toISOString() ?? null,
    error: row.error,
    created_at: row.createdAt.toISOString(),
  };
}

/** GET …/streams: from the store; refresh=true re-reads each run from Temporal and the source versions. */
export async function listStreamViews(deps: AppDeps, refresh: boolean) {
  const rows = await listStreams(deps.store.db);
  const out = [];
  for (const row of rows) out.push(view(refresh ? await refreshed(deps, row) : row));
  return out;
}

export async function getStreamView(deps: AppDeps, streamId: string) {
  return view(await refreshed(deps, await requireStream(deps, streamId)));
}
