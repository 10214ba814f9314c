import { z } from 'zod';
import {
  MaintenanceAcceptedSchema,
  MaintenanceResultSchema,
  OptimizeBodySchema,
  PredictiveBodySchema,
  PredictiveResultSchema,
  StorageMetricsBodySchema,
  StorageMetricsResultSchema,
  VacuumBodySchema,
  type MaintenanceOperation,
  type OptimizeBody,
  type VacuumBody,
  MAX_MAINTENANCE_TABLES,
} from '../../schemas/storage';
import type { AppDeps } from '../deps';
import { newJobId } from '../jobs/job-id';
import { submitJob } from '../jobs/service';
import { HttpError } from '../middleware/http-error';
import { assertAllowed } from '../governance/access';
import { callerOf } from '../middleware/auth';
import { defineRoutes, route } from '../middleware/route';
import { waitForJob } from '../data-quality/run-service';
import { storageJobType } from './job-type';
import { catalogTables, measureCatalog, predictiveCheck, storageWorkspace } from './service';

/** Queues OPTIMIZE or VACUUM of the chosen tables (all of the catalog when none are named) as a storage job. */
async function startMaintenance(deps: AppDeps, operation: MaintenanceOperation, body: OptimizeBody | VacuumBody) {
  const ws = await storageWorkspace(deps);
  await ws.getCatalog(body.source_catalog);
  const listed =
    body.tables ?? (await catalogTables(ws, body.source_catalog)).map((t) => ({ schema: t.schema, table: t.name }));
  // A table named twice is maintained once.
  const seen = new Set<string>();
  const tables = listed.filter((t) => {
    const key = `${t.schema.toLowerCase()}.${t.table.toLowerCase()}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (tables.length > MAX_MAINTENANCE_TABLES)
    throw new HttpError(
      422,
      'TOO_MANY_TABLES',
      `${body.source_catalog} has ${tables.length} tables; one ${operation} job takes at most ${MAX_MAINTENANCE_TABLES}: name the tables (for example one schema's) in several requests`,
      [{ path: 'body.tables', message: `at most ${MAX_MAINTENANCE_TABLES} tables a job` }],
    );
  if (tables.length === 0)
    throw new HttpError(409, 'NO_TABLES', `${body.source_catalog} has no tables to ${operation}`, [
      { path: 'body.source_catalog', message: 'no tables' },
    ]);
  const retentionHours = operation === 'vacuum' ? (body as VacuumBody).retention_hours : null;
  const jobId = newJobId('storage');
  const input = {
    jobId,
    operation,
    catalog: body.source_catalog,
    tables,
    retentionHours,
    dryRun: body.dry_run,
    parallelism: 4,
  };
  const request = {
    operation,
    source_catalog: body.source_catalog,
    tables: body.tables ?? null,
    dry_run: body.dry_run,
    retention_hours: retentionHours,
  };
  await submitJob(deps, storageJobType, {
    jobId,
    input,
    createdAt: new Date(),
    row: { request, sourceCatalog: body.source_catalog },
  });
  return jobId;
}

function maintenanceRoute(operation: MaintenanceOperation) {
  const body = operation === 'optimize' ? OptimizeBodySchema : VacuumBodySchema;
  return route({
    method: 'post',
    path: `/${operation}`,
    summary:
      operation === 'optimize'
        ? 'OPTIMIZE (compact small files) of the chosen tables, or all of a catalog, as a storage job; waits for it'
        : 'VACUUM (delete files past retention) of the chosen tables, or all of a catalog, as a storage job; waits for it',
    request: { body: body as typeof OptimizeBodySchema },
    response: {
      description: 'The job result, per table',
      schema: z.union([MaintenanceResultSchema, MaintenanceAcceptedSchema]),
    },
    otherResponses: {
      202: { description: 'Still running after wait_seconds: follow it by job_id', schema: MaintenanceAcceptedSchema },
    },
    errors: {
      403: 'An access policy refuses writing the catalog (names the rule)',
      404: 'No such catalog',
      409: 'The catalog has no tables',
      422: 'More tables than one job takes (1,000)',
      429: 'Too many storage jobs waiting',
    },
    handler: async ({ deps, input, res, req }) => {
      const b = input.body as OptimizeBody | VacuumBody;
      // OPTIMIZE and VACUUM rewrite or delete the catalog's files: a write, checked before the job is queued.
      const schemas = b.tables ? { schemas: [...new Set(b.tables.map((t) => t.schema))] } : {};
      const request = { operation: 'write' as const, destination: b.source_catalog, ...schemas };
      await assertAllowed(deps, callerOf(req), request, 'body.source_catalog');
      const jobId = await startMaintenance(deps, operation, b);
      const job = await waitForJob(deps, jobId, b.wait_seconds * 1000);
      if (!job || !job.summary || !Array.isArray((job.summary as { results?: unknown }).results)) {
        res.status(202);
        const status = job?.status ?? 'running';
        const message = job
          ? `storage job ${jobId} ended ${status}${job.error ? `: ${job.error}` : ''}`
          : `storage job ${jobId} is still running`;
        return { job_id: jobId, status, message };
      }
      return { ...(job.summary as z.infer<typeof MaintenanceResultSchema>), job_id: jobId, status: job.status };
    },
  });
}

export const storageRoutes = defineRoutes({
  name: 'storage',
  routes: [
    route({
      method: 'post',
      path: '/storage-metrics',
      role: 'viewer',
      summary:
        'Total, active, time-travel and vacuumable bytes of a catalog, per table and schema, with the top tables',
      request: { body: StorageMetricsBodySchema },
      response: { description: 'Storage metrics result', schema: StorageMetricsResultSchema },
      errors: { 404: 'No such catalog' },
      handler: async ({ deps, input: { body } }) =>
        measureCatalog(await storageWorkspace(deps), body.source_catalog, body),
    }),
    maintenanceRoute('optimize'),
    maintenanceRoute('vacuum'),
    route({
      method: 'post',
      path: '/check-predictive-optimization',
      role: 'viewer',
      summary:
        'Per table: predictive optimization enabled, disabled or inherited, and what to run by hand (small files, vacuumable share)',
      request: { body: PredictiveBodySchema },
      response: { description: 'Settings and recommendations', schema: PredictiveResultSchema },
      errors: { 404: 'No such catalog' },
      handler: async ({ deps, input: { body } }) =>
        predictiveCheck(await storageWorkspace(deps), body.source_catalog, body),
    }),
  ],
});
