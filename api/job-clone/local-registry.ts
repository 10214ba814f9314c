import {
  LocalJobError,
  pausedIn,
  pipelineBodyOf,
  pipelineJobSettings,
  scheduleDefinitionOf,
  scheduleJobSettings,
  type ScheduleDefinition,
} from '../../activities/job-clone/logic/local-jobs';
import type { Json } from '../../activities/job-clone/logic/settings';
import { cloneRequestSchema } from '../../schemas/clone';
import { PipelineBodySchema, type PipelineBody } from '../../schemas/pipeline';
import { getPipeline, listPipelines, type PipelineRow } from '../../store/pipeline/repo';
import { getSchedule, listSchedules, type ScheduleRow } from '../../store/schedules/repo';
import type { AppDeps } from '../deps';
import { assertCloneAllowed } from '../governance/clone-access';
import { currentCaller } from '../middleware/auth';
import { HttpError, notFound } from '../middleware/http-error';
import { zodDetails } from '../middleware/validate';
import { createPipeline } from '../pipeline/service';
import { createSchedule, scheduleSpecOf } from '../schedules/service';
import type { JobRegistry, RegistryJob } from './registry';

const PIPELINE = 'pipeline:';
const SCHEDULE = 'schedule:';

const refused = (err: LocalJobError) =>
  new HttpError(422, 'UNSUPPORTED', err.message, [{ path: err.path, message: err.message }]);

function pipelineJob(p: PipelineRow): RegistryJob {
  return {
    job_id: `${PIPELINE}${p.pipelineId}`,
    settings: pipelineJobSettings(p),
    creator_user_name: p.createdBy,
    created_time: p.createdAt.getTime(),
  };
}

/** A schedule's spec as its job shows it: `enabled` is the job's pause_status, not a second copy. */
function definitionOf(r: ScheduleRow): ScheduleDefinition {
  const spec = structuredClone(r.spec);
  if (spec.schedule && typeof spec.schedule === 'object') delete (spec.schedule as Json).enabled;
  return {
    kind: r.kind as ScheduleDefinition['kind'],
    spec,
    clone_request: r.cloneRequest,
    drift_check: r.driftCheck,
    max_runs: r.maxRuns,
  };
}

function scheduleJob(r: ScheduleRow): RegistryJob {
  return {
    job_id: `${SCHEDULE}${r.scheduleId}`,
    settings: scheduleJobSettings(r.name, definitionOf(r), r.status !== 'active'),
    creator_user_name: null,
    created_time: r.createdAt.getTime(),
  };
}

/** A clone schedule or persistent job from its job settings, created paused when the settings say so. */
async function createScheduleJob(deps: AppDeps, settings: Json, d: ScheduleDefinition): Promise<string> {
  const at = 'settings.tasks.0.lakeward_clone';
  const parsed = cloneRequestSchema.safeParse(d.clone_request);
  if (!parsed.success) {
    const details = zodDetails(parsed.error, `${at}.clone_request`);
    throw new HttpError(422, 'VALIDATION_ERROR', details.map((x) => `${x.path}: ${x.message}`).join('; '), details);
  }
  await assertCloneAllowed(deps, currentCaller(), parsed.data);
  const enabled = !pausedIn(settings);
  const spec = structuredClone(d.spec);
  let when;
  if (d.kind === 'job') {
    const quartz = spec.quartz_cron_expression;
    when =
      typeof quartz === 'string'
        ? scheduleSpecOf({ quartz, timezone: String(spec.timezone_id ?? 'UTC') }, `${at}.spec.quartz_cron_expression`)
        : {};
  } else {
    const s = (spec.schedule ?? {}) as { cron?: string; interval?: string; timezone?: string };
    spec.schedule = { ...s, enabled };
    when = scheduleSpecOf(
      { cron: s.cron, interval: s.interval, timezone: s.timezone },
      `${at}.spec.schedule.${s.interval ? 'interval' : 'cron'}`,
    );
  }
  const row = await createSchedule(deps, {
    kind: d.kind,
    name: String(settings.name ?? ''),
    spec,
    when,
    enabled,
    request: parsed.data,
    driftCheck: d.drift_check,
    maxRuns: d.max_runs,
    target: 'temporal',
    requestPath: `${at}.clone_request`,
  });
  return `${SCHEDULE}${row.scheduleId}`;
}

/** A Lakeward pipeline from its job settings (tasks in run order), its schedule paused when the settings say so. */
async function createPipelineJob(deps: AppDeps, settings: Json): Promise<string> {
  let body;
  try {
    body = pipelineBodyOf(settings);
  } catch (err) {
    if (err instanceof LocalJobError) throw refused(err);
    throw err;
  }
  const parsed = PipelineBodySchema.safeParse(body);
  if (!parsed.success) {
    const details = zodDetails(parsed.error, 'settings');
    throw new HttpError(422, 'INVALID_PIPELINE', details.map((x) => `${x.path}: ${x.message}`).join('; '), details);
  }
  const row = await createPipeline(deps, parsed.data as PipelineBody);
  return `${PIPELINE}${row.pipelineId}`;
}

/**
 * The local lakehouse's jobs: Lakeward's pipelines (`pipeline:<id>`, one task per step) and its clone schedules
 * and persistent scheduled jobs (`schedule:<id>`, one clone task), as Jobs API 2.2 settings, so list, get, clone,
 * diff, backup and restore work offline through the same port as a Databricks workspace's Jobs API. Creating one
 * creates the pipeline or the schedule (its Temporal Schedule paused when the settings are paused).
 */
export function localRegistry(deps: AppDeps): JobRegistry {
  const db = deps.store.db;
  return {
    kind: 'local',
    async list(q) {
      const [pipelines, schedules] = await Promise.all([listPipelines(db), listSchedules(db)]);
      const jobs = [
        ...pipelines.map(pipelineJob),
        ...schedules.filter((s) => s.target === 'temporal').map(scheduleJob),
      ].sort((a, b) => (b.created_time ?? 0) - (a.created_time ?? 0));
      return jobs.filter((j) => !q.name || j.settings.name === q.name).slice(0, q.limit);
    },
    async get(jobId) {
      if (jobId.startsWith(PIPELINE)) {
        const p = await getPipeline(db, jobId.slice(PIPELINE.length));
        if (p) return pipelineJob(p);
      } else if (jobId.startsWith(SCHEDULE)) {
        const s = await getSchedule(db, jobId.slice(SCHEDULE.length));
        if (s && s.target === 'temporal') return scheduleJob(s);
      }
      throw notFound(`no job ${jobId} (local jobs are pipeline:<id> and schedule:<id>)`);
    },
    async create(settings) {
      let schedule;
      try {
        schedule = scheduleDefinitionOf(settings);
      } catch (err) {
        if (err instanceof LocalJobError) throw refused(err);
        throw err;
      }
      return schedule ? createScheduleJob(deps, settings, schedule) : createPipelineJob(deps, settings);
    },
  };
}
