import { z } from 'zod';
import { cloneRequestSchema, type CloneRequestInput } from '../../schemas/clone';
import {
  CreateJobBodySchema,
  CreateJobResultSchema,
  JobIdParamsSchema,
  RunJobResultSchema,
  ScheduleViewSchema,
  cloneFieldsOf,
  type CreateJobBody,
} from '../../schemas/schedules';
import { updateSchedule } from '../../store/schedules/repo';
import type { AppDeps } from '../deps';
import { assertCloneAllowed } from '../governance/clone-access';
import { callerOf } from '../middleware/auth';
import { badRequest } from '../middleware/http-error';
import { route } from '../middleware/route';
import { zodDetails } from '../middleware/validate';
import { upsertDatabricksJob, runDatabricksJob } from './databricks-jobs';
import {
  createSchedule,
  requireSchedule,
  scheduleSpecOf,
  triggerSchedule,
  updateScheduleConfig,
  type ScheduleDraft,
} from './service';
import { listScheduleViews, scheduleView } from './view';

/** The clone request inside a create-job body, checked like POST /api/clone (400 naming body.<field>). */
function cloneRequestOf(body: CreateJobBody): CloneRequestInput {
  const parsed = cloneRequestSchema.safeParse(cloneFieldsOf(body as Record<string, unknown>));
  if (!parsed.success) {
    const details = zodDetails(parsed.error, 'body');
    throw badRequest(`Invalid input: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`, details);
  }
  return parsed.data;
}

function jobDraft(body: CreateJobBody, name: string): ScheduleDraft {
  const parsed = cloneRequestOf(body);
  // timeout_seconds bounds each clone the job runs: the clone's own max_duration_min (checked between schemas),
  // unless the request sets one. Databricks gets the seconds as the job's and task's timeout_seconds.
  const request: CloneRequestInput =
    body.timeout_seconds > 0 && parsed.max_duration_min === undefined && body.target === 'temporal'
      ? { ...parsed, max_duration_min: Math.ceil(body.timeout_seconds / 60) }
      : parsed;
  const { schedule, timezone } = body;
  return {
    kind: 'job',
    name,
    spec: {
      quartz_cron_expression: schedule ?? null,
      timezone_id: timezone,
      notification_emails: body.notification_emails,
      max_retries: body.max_retries,
      timeout_seconds: body.timeout_seconds,
      tags: body.tags,
    },
    // A job created for run_now only has no schedule: a Temporal Schedule with no times fires only when triggered.
    when: schedule ? scheduleSpecOf({ quartz: schedule, timezone }, 'body.schedule') : {},
    enabled: true,
    request,
    driftCheck: body.drift_check,
    maxRuns: body.max_runs,
    target: body.target,
    requestPath: 'body',
  };
}

/**
 * POST /api/generate/create-job: creates (or, with update_job_id, updates) a persistent scheduled clone job.
 * target temporal: a Temporal Schedule like POST /api/schedule's; target databricks-jobs: a Databricks Job in
 * the configured workspace through the Jobs API (jobs/create or jobs/reset), schedule in Quartz cron.
 */
async function createOrUpdateJob(deps: AppDeps, body: CreateJobBody) {
  const existing = body.update_job_id ? await requireSchedule(deps, body.update_job_id, 'job') : undefined;
  const name = existing?.name ?? body.job_name ?? `${body.source_catalog}-to-${body.destination_catalog}`;
  const draft = jobDraft(body, name);
  if (existing && existing.target !== body.target)
    throw badRequest('a job keeps its target', [{ path: 'body.target', message: `must be ${existing.target}` }]);
  const row = existing ? await updateScheduleConfig(deps, existing, draft) : await createSchedule(deps, draft);
  let externalJobId = row.externalJobId;
  let run = { triggered: false, run_id: null as string | null };
  if (row.target === 'databricks-jobs') {
    externalJobId = await upsertDatabricksJob(deps, { name, body, request: draft.request, jobId: externalJobId });
    await updateSchedule(deps.store.db, row.scheduleId, { externalJobId });
    if (body.run_now) run = { triggered: true, run_id: await runDatabricksJob(deps, externalJobId) };
  } else if (body.run_now) {
    await triggerSchedule(deps, row);
    run = { triggered: true, run_id: null };
  }
  const view = row.target === 'temporal' ? await scheduleView(deps, row) : null;
  return {
    job_id: row.scheduleId,
    name,
    target: row.target as 'temporal' | 'databricks-jobs',
    external_job_id: externalJobId,
    created: !existing,
    quartz_cron_expression: body.schedule ?? null,
    timezone_id: body.timezone,
    next_run_times: view?.next_run_times ?? [],
    run,
  };
}

export const jobRoutes = [
  route({
    method: 'post',
    path: '/generate/create-job',
    summary:
      'Create or update (update_job_id) a persistent scheduled clone job: every clone field plus a Quartz cron schedule',
    request: { body: CreateJobBodySchema },
    response: { description: 'The job', schema: CreateJobResultSchema },
    errors: {
      403: 'An access policy refuses the clone (names the rule)',
      404: 'Unknown update_job_id or source catalog',
      409: 'A job with this name exists',
      422: 'target databricks-jobs on a workspace that is not Databricks',
      503: 'Temporal is not configured or not reachable',
    },
    handler: async ({ deps, input, req }) => {
      await assertCloneAllowed(deps, callerOf(req), input.body);
      return createOrUpdateJob(deps, input.body);
    },
  }),
  route({
    method: 'post',
    path: '/generate/run-job/:id',
    summary: 'Run a persistent scheduled job now',
    request: { params: JobIdParamsSchema },
    response: { description: 'The run was started', schema: RunJobResultSchema },
    errors: { 404: 'Unknown job', 503: 'Temporal is not configured or not reachable' },
    handler: async ({ deps, input }) => {
      const row = await requireSchedule(deps, input.params.id, 'job');
      if (row.target === 'databricks-jobs') {
        const runId = await runDatabricksJob(deps, row.externalJobId!);
        return { job_id: row.scheduleId, triggered: true, run_id: runId, message: `Databricks job run ${runId}` };
      }
      const { message } = await triggerSchedule(deps, row);
      return { job_id: row.scheduleId, triggered: true, run_id: null, message };
    },
  }),
  route({
    method: 'get',
    path: '/generate/clone-jobs',
    summary: 'Persistent scheduled clone jobs created by the service',
    response: { description: 'Jobs', schema: z.array(ScheduleViewSchema) },
    handler: ({ deps }) => listScheduleViews(deps, 'job'),
  }),
];
