import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { CASE_TYPES, slaDueAt } from '../../activities/mdm/logic/sla';
import { openCases } from '../../store/mdm/cases';
import type { AutomationServices } from '../../activities/automation/services';
import { cloneRequestSchema } from '../../schemas/clone';
import { RunBodySchema } from '../../schemas/data-quality';
import { IncrementalSyncBodySchema } from '../../schemas/sync';
import { ValidateRequestSchema } from '../../schemas/analysis';
import { ConvertBodySchema } from '../../schemas/convert';
import { convertTables } from '../convert/service';
import { assertAllowed } from '../governance/access';
import { currentCaller } from '../middleware/auth';
import { validateCatalogs } from '../analysis/compare-service';
import { CatalogReader } from '../analysis/reader';
import type { AppDeps } from '../deps';
import { cancelJob } from '../jobs/service';
import { runPipeline } from '../pipeline/service';
import { submitClone } from '../clone/service';
import { startRun } from '../data-quality/run-service';
import { HttpError } from '../middleware/http-error';
import { pauseSchedule, requireSchedule, resumeSchedule } from '../schedules/service';
import { submitIncrementalSync } from '../sync/service';

const OpenCaseParams = z.strictObject({
  entity_type: z.string().min(1).max(100),
  type: z.enum(CASE_TYPES).default('stewardship_request'),
  records: z
    .array(z.strictObject({ system: z.string().min(1), record_id: z.string().min(1) }))
    .min(1)
    .max(100),
  details: z.record(z.string(), z.unknown()).optional(),
  assigned_to: z.string().min(1).optional(),
});

/** A refused request (bad params, unknown schedule, policy) is final: retrying the action cannot help. */
async function final<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof HttpError && err.status < 500 && err.status !== 429)
      throw ApplicationFailure.create({ nonRetryable: true, type: 'InvalidInput', message: err.message });
    throw err;
  }
}

function parse<S extends z.ZodType>(schema: S, params: Record<string, unknown>, action: string): z.infer<S> {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => `params.${i.path.join('.')}: ${i.message}`).join('; ');
  throw ApplicationFailure.create({ nonRetryable: true, type: 'InvalidInput', message: `${action}: ${issues}` });
}

/**
 * Playbook actions through the API's own services, as their routes run them (job kernel, access policies,
 * schedules); the worker process wires this in workers/stack.ts, activities never import the API.
 */
export function automationServices(deps: AppDeps): AutomationServices {
  return {
    startJob: (action, params) =>
      final(async () => {
        if (action === 'start_clone') {
          const out = (await submitClone(deps, parse(cloneRequestSchema, params, action))) as { job_id: string };
          return { job_id: out.job_id, job_type: 'clone' };
        }
        if (action === 'run_dq') {
          const { jobId } = await startRun(deps, parse(RunBodySchema, params, action));
          return { job_id: jobId, job_type: 'dq' };
        }
        if (action === 'start_sync') {
          const out = (await submitIncrementalSync(deps, parse(IncrementalSyncBodySchema, params, action))) as {
            job_id: string;
          };
          return { job_id: out.job_id, job_type: 'incremental_sync' };
        }
        const id = params.pipeline_id;
        if (typeof id !== 'string' || !id)
          throw new HttpError(422, 'INVALID', 'run_pipeline: params.pipeline_id is required');
        const out = await runPipeline(deps, id);
        return { job_id: out.job_id, job_type: 'pipeline' };
      }),
    cancelJob: async (jobId) => {
      try {
        await cancelJob(deps, jobId);
      } catch (err) {
        if (!(err instanceof HttpError && err.status === 409)) throw err;
      }
    },
    convertTables: (body) =>
      final(async () => {
        const parsed = parse(ConvertBodySchema, body, 'convert');
        for (const [i, t] of parsed.targets.entries()) {
          const [catalog, schema] = t.fqn.split('.');
          const request = { operation: 'write' as const, destination: catalog, schemas: [schema!] };
          await assertAllowed(deps, currentCaller(), request, `config.targets.${i}.fqn`);
        }
        const out = await convertTables(deps, await deps.workspaces.default(), parsed);
        return out as unknown as Record<string, unknown> & { failed: number };
      }),
    validateCatalogs: (body) =>
      final(async () => {
        const parsed = parse(ValidateRequestSchema, body, 'validate');
        const reader = CatalogReader.for(deps, await deps.workspaces.default());
        return validateCatalogs(reader, parsed) as unknown as Promise<Record<string, unknown> & { passed: boolean }>;
      }),
    openCase: async (params) => {
      const c = parse(OpenCaseParams, params, 'open_case');
      const out = await openCases(deps.store.db, [c], slaDueAt(deps.config.mdm.sla_calendar));
      return { opened: out.opened, existing: out.existing };
    },
    pauseSchedule: (id, note) =>
      final(async () => {
        await pauseSchedule(deps, await requireSchedule(deps, id), note);
        return { schedule_id: id, paused: true };
      }),
    resumeSchedule: (id, note) =>
      final(async () => {
        await resumeSchedule(deps, await requireSchedule(deps, id), note);
        return { schedule_id: id, paused: false };
      }),
  };
}
