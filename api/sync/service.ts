import { workspaceKey } from '../../activities/clone/logic/workspace-key';
import { planCatalogSync } from '../../activities/sync/logic/catalog-plan';
import { checkSchema } from '../../activities/sync/logic/check';
import {
  estimatedSeconds,
  selectiveBlock,
  throughputOf,
  type SchemaCheck,
  type TableSyncStatus,
} from '../../activities/sync/logic/classify';
import { NotFoundError } from '../../platform/errors';
import type { Workspace } from '../../platform/port';
import type { CloneRequestInput } from '../../schemas/clone';
import type {
  EstimateBody,
  EstimateResult,
  IncrementalCheckBody,
  IncrementalSyncBody,
  SyncBody,
} from '../../schemas/sync';
import { recordedSourceVersions } from '../../store/sync/recorded';
import { recentCloneRuns } from '../../store/sync/throughput';
import type { CloneJobInput } from '../../workflows/clone/definitions';
import { metadataCacheFor } from '../cache';
import { buildCloneJob } from '../clone/build-input';
import { fieldNotFound, JobInputError } from '../clone/errors';
import type { AppDeps } from '../deps';
import { newJobId } from '../jobs/job-id';
import { submitJob } from '../jobs/service';
import { assertAllowed } from '../governance/access';
import { currentCaller } from '../middleware/auth';
import { HttpError } from '../middleware/http-error';
import { catalogSyncJobType, incrementalSyncJobType } from './job-type';

/**
 * Sync reads and jobs. Every request is turned into the clone input its copies would run with (the clone's
 * own checks: names the workspace can hold, the source catalog exists), so a request that could not sync is
 * refused before anything is read or queued.
 */
async function cloneInputFor(
  deps: AppDeps,
  req: Partial<CloneRequestInput> & { source_catalog: string; destination_catalog: string },
  jobId: string,
  now: Date,
): Promise<CloneJobInput> {
  try {
    return (await buildCloneJob(deps, req as CloneRequestInput, jobId, now)).input;
  } catch (err) {
    if (!(err instanceof JobInputError)) throw err;
    const own = 'status' in err && typeof err.status === 'number' ? err.status : undefined;
    const status = own ?? (err.field.startsWith('workspace.') ? 422 : 400);
    const code = status === 404 ? 'NOT_FOUND' : 'VALIDATION_ERROR';
    throw new HttpError(status, code, err.message, [{ path: `body.${err.field}`, message: err.message }]);
  }
}

/** Sync works within the configured workspace: the source and the destination catalog both live there. */
const workspaceOf = (deps: AppDeps) => deps.workspaces.default();

function recordedFor(deps: AppDeps, input: CloneJobInput, schema: string) {
  const target = input.targets[0];
  return recordedSourceVersions(deps.store.db, {
    destWorkspace: workspaceKey(target.workspace),
    destCatalog: target.destinationCatalog,
    schemaName: schema,
    sourceWorkspace: workspaceKey(input.source),
    sourceCatalog: input.options.source_catalog,
  });
}

async function checkOne(deps: AppDeps, ws: Workspace, input: CloneJobInput, schema: string, field?: string) {
  try {
    return await checkSchema(ws, ws, {
      sourceCatalog: input.options.source_catalog,
      destinationCatalog: input.targets[0].destinationCatalog,
      schema,
      recorded: await recordedFor(deps, input, schema),
    });
  } catch (err) {
    if (err instanceof NotFoundError && field) throw fieldNotFound(field, err.message);
    throw err;
  }
}

/** POST /api/incremental/check: the schema's tables, each new, changed (and how a sync would bring it), or in sync. */
export async function incrementalCheck(deps: AppDeps, body: IncrementalCheckBody): Promise<SchemaCheck> {
  const input = await cloneInputFor(deps, checkRequest(body), 'incremental-check', new Date());
  return checkOne(deps, await workspaceOf(deps), input, body.schema_name, 'schema_name');
}

const checkRequest = (body: IncrementalCheckBody & Partial<Pick<IncrementalSyncBody, 'serverless' | 'volume'>>) => ({
  source_catalog: body.source_catalog,
  destination_catalog: body.destination_catalog,
  clone_type: body.clone_type,
  include_schemas: [body.schema_name],
  ...(body.warehouse_id ? { warehouse_id: body.warehouse_id } : {}),
  ...(body.serverless !== undefined ? { serverless: body.serverless } : {}),
  ...(body.volume ? { volume: body.volume } : {}),
});

/** POST /api/incremental/sync: an `incremental_sync` job of the tables the check lists. */
export async function submitIncrementalSync(deps: AppDeps, body: IncrementalSyncBody) {
  const scope = { source: body.source_catalog, destination: body.destination_catalog, schemas: [body.schema_name] };
  await assertAllowed(deps, currentCaller(), { operation: 'sync', ...scope }); // access policies: 403 naming the rule
  const now = new Date();
  const jobId = newJobId(incrementalSyncJobType.type, now);
  const clone = await cloneInputFor(deps, checkRequest(body), jobId, now);
  // The schema must exist in the source before a job is queued.
  await checkSchemaExists(await workspaceOf(deps), body.source_catalog, body.schema_name);
  await submitJob(deps, incrementalSyncJobType, {
    jobId,
    createdAt: now,
    input: {
      jobId,
      sourceCatalog: body.source_catalog,
      destinationCatalog: body.destination_catalog,
      schema: body.schema_name,
      dryRun: body.dry_run,
      clone: clone as unknown as Record<string, unknown>,
    },
    row: {
      sourceCatalog: body.source_catalog,
      destinationCatalog: body.destination_catalog,
      cloneType: body.clone_type,
      request: { ...body },
    },
  });
  return {
    job_id: jobId,
    status: 'queued',
    message: `incremental sync of ${body.source_catalog}.${body.schema_name} into ${body.destination_catalog} queued`,
  };
}

async function checkSchemaExists(ws: Workspace, catalog: string, schema: string) {
  try {
    await ws.getSchema(catalog, schema);
  } catch (err) {
    if (err instanceof NotFoundError) throw fieldNotFound('schema_name', err.message);
    throw err;
  }
}

function syncRequest(body: SyncBody) {
  return {
    source_catalog: body.source_catalog,
    destination_catalog: body.destination_catalog,
    clone_type: body.clone_type,
    ...(body.include_schemas ? { include_schemas: body.include_schemas } : {}),
    ...(body.exclude_schemas ? { exclude_schemas: body.exclude_schemas } : {}),
    ...(body.warehouse_id ? { warehouse_id: body.warehouse_id } : {}),
  };
}

/** POST /api/sync: the plan (dry_run: nothing changes) or a `sync` job carrying it out. */
export async function catalogSync(deps: AppDeps, body: SyncBody) {
  await assertAllowed(deps, currentCaller(), {
    operation: 'sync',
    source: body.source_catalog,
    destination: body.destination_catalog,
    ...(body.include_schemas?.length ? { schemas: body.include_schemas } : {}),
  }); // access policies: 403 naming the rule
  const now = new Date();
  if (body.dry_run) {
    const input = await cloneInputFor(deps, syncRequest(body), 'sync-dry-run', now);
    const ws = await workspaceOf(deps);
    const { plan } = await planCatalogSync(ws, ws, {
      sourceCatalog: body.source_catalog,
      destinationCatalog: body.destination_catalog,
      includeSchemas: body.include_schemas ?? null,
      excludeSchemas: body.exclude_schemas ?? [],
      dropExtra: body.drop_extra,
      recorded: (schema) => recordedFor(deps, input, schema),
    });
    return { ...plan, dry_run: true as const };
  }
  const jobId = newJobId(catalogSyncJobType.type, now);
  const clone = await cloneInputFor(deps, syncRequest(body), jobId, now);
  await submitJob(deps, catalogSyncJobType, {
    jobId,
    createdAt: now,
    input: {
      jobId,
      sourceCatalog: body.source_catalog,
      destinationCatalog: body.destination_catalog,
      includeSchemas: body.include_schemas ?? null,
      excludeSchemas: body.exclude_schemas ?? [],
      dropExtra: body.drop_extra,
      clone: clone as unknown as Record<string, unknown>,
    },
    row: {
      sourceCatalog: body.source_catalog,
      destinationCatalog: body.destination_catalog,
      cloneType: body.clone_type,
      request: { ...body },
    },
  });
  return {
    job_id: jobId,
    status: 'queued',
    message: `sync of ${body.source_catalog} into ${body.destination_catalog} queued`,
  };
}

/**
 * Listings through the metadata cache (entries tagged with the catalog; a finished clone, sync or incremental
 * sync of the catalog drops them). The watcher applies job ends first, so a job that just ended is seen.
 */
async function cachedTables(deps: AppDeps, ws: Workspace, catalog: string, schemas: string[] | null) {
  const { cache, watcher } = metadataCacheFor(deps);
  await watcher.sync();
  const key = (...parts: string[]) => ['sync', ws.id, ...parts].map((p) => p.toLowerCase()).join('\u0000');
  const all = await cache.getOrLoad(key('schemas', catalog), catalog, () => ws.listSchemas(catalog));
  const wanted = schemas ? new Set(schemas.map((s) => s.toLowerCase())) : null;
  const chosen = all
    .map((s) => s.name)
    .filter((s) => s !== 'information_schema' && (!wanted || wanted.has(s.toLowerCase())))
    .sort();
  const out: { schema: string; tables: Awaited<ReturnType<Workspace['listTables']>> }[] = [];
  for (const schema of chosen)
    out.push({
      schema,
      tables: await cache.getOrLoad(key('tables', catalog, schema), catalog, () => ws.listTables(catalog, schema)),
    });
  return out;
}

/** POST /api/estimate: size and files per table, durations from recorded throughput, and the selective block. */
export async function estimate(deps: AppDeps, body: EstimateBody): Promise<EstimateResult> {
  const ws = await workspaceOf(deps);
  try {
    await ws.getCatalog(body.source_catalog);
  } catch (err) {
    if (err instanceof NotFoundError) throw fieldNotFound('source_catalog', err.message);
    throw err;
  }
  const listed = await cachedTables(deps, ws, body.source_catalog, body.include_schemas ?? null);
  const tables: EstimateResult['tables'] = [];
  for (const { schema, tables: list } of listed)
    for (const t of list.filter((x) => x.tableType === 'MANAGED' || x.tableType === 'EXTERNAL')) {
      const d = await ws.describeTable({ catalog: body.source_catalog, schema, name: t.name });
      tables.push({ schema, table: t.name, size_bytes: d.sizeBytes ?? null, num_files: d.numFiles ?? null });
    }
  const totalBytes = tables.reduce((a, t) => a + (t.size_bytes ?? 0), 0);
  const throughput = throughputOf(await recentCloneRuns(deps.store.db));
  let selective: EstimateResult['selective'] = null;
  if (body.destination_catalog && (await catalogExists(ws, body.destination_catalog))) {
    const input = await cloneInputFor(
      deps,
      {
        source_catalog: body.source_catalog,
        destination_catalog: body.destination_catalog,
        ...(body.include_schemas ? { include_schemas: body.include_schemas } : {}),
      },
      'estimate',
      new Date(),
    );
    const statuses: TableSyncStatus[] = [];
    for (const { schema } of listed) statuses.push(...(await checkOne(deps, ws, input, schema)).tables);
    selective = selectiveBlock(statuses);
  }
  return {
    source_catalog: body.source_catalog,
    destination_catalog: body.destination_catalog ?? null,
    total_tables: tables.length,
    total_bytes: totalBytes,
    total_files: tables.reduce((a, t) => a + (t.num_files ?? 0), 0),
    tables,
    throughput,
    estimated_seconds: estimatedSeconds(tables.length, totalBytes, throughput),
    selective,
  };
}

async function catalogExists(ws: Workspace, catalog: string): Promise<boolean> {
  try {
    await ws.getCatalog(catalog);
    return true;
  } catch (err) {
    if (err instanceof NotFoundError) return false;
    throw err;
  }
}
