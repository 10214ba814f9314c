import { mergeJobPage, type Json } from '../../activities/job-clone/logic/settings';
import type { WorkspaceApi } from '../../platform/databricks/rest/workspace-api';
import { isPlatformError } from '../../platform/errors';
import type { Step } from '../../schemas/pipeline';
import type { Db } from '../../store/db';
import { getPipeline, insertPipeline, listPipelines } from '../../store/pipeline/repo';
import { HttpError, notFound } from '../middleware/http-error';

/** A job as the job-clone endpoints show it: its id and its Jobs API 2.2 settings. */
export interface RegistryJob {
  job_id: string;
  settings: Json;
  creator_user_name?: string | null;
  created_time?: number | null;
}

/** Where jobs live: a Databricks workspace's Jobs API, or the local lakehouse's registry of Lakeward pipelines. */
export interface JobRegistry {
  kind: 'databricks' | 'local';
  list(q: { name?: string; limit: number }): Promise<RegistryJob[]>;
  get(jobId: string): Promise<RegistryJob>;
  create(settings: Json): Promise<string>;
}

const numericId = (id: string) => {
  if (!/^\d{1,19}$/.test(id))
    throw new HttpError(400, 'VALIDATION_ERROR', `job_id ${id} is not a Databricks job id`, [
      { path: 'job_id', message: 'digits' },
    ]);
  return Number(id);
};

/** Jobs API 2.2: list one page, get every page of a job merged, create. */
export function databricksRegistry(api: WorkspaceApi): JobRegistry {
  return {
    kind: 'databricks',
    async list(q) {
      const page = await api.listJobsPage(q);
      return (page.jobs ?? []).map((j) => ({
        job_id: String(j.job_id),
        settings: j.settings ?? {},
        creator_user_name: j.creator_user_name ?? null,
        created_time: j.created_time ?? null,
      }));
    },
    async get(jobId) {
      const id = numericId(jobId);
      let job: Json;
      try {
        job = await api.getJobPage(id);
      } catch (err) {
        if (isPlatformError(err) && err.code === 'NOT_FOUND') throw notFound(`no job ${jobId}`);
        throw err;
      }
      for (let token = job.next_page_token as string | undefined, n = 0; token && n < 1000; n++) {
        const page = await api.getJobPage(id, token);
        job = mergeJobPage(job, page);
        token = page.next_page_token as string | undefined;
      }
      return {
        job_id: String(job.job_id),
        settings: (job.settings as Json | undefined) ?? {},
        creator_user_name: (job.creator_user_name as string | undefined) ?? null,
        created_time: (job.created_time as number | undefined) ?? null,
      };
    },
    async create(settings) {
      return String((await api.createJob(settings)).job_id);
    },
  };
}

/** A pipeline as Jobs-shaped settings: one task per step (task_key = step name, depending on the step before). */
export function pipelineSettings(name: string, description: string, steps: Step[]): Json {
  return {
    name,
    description,
    max_concurrent_runs: 1,
    tasks: steps.map((s, i) => ({
      task_key: s.name,
      ...(i ? { depends_on: [{ task_key: steps[i - 1].name }] } : {}),
      lakeward_step: { type: s.type, config: s.config, on_failure: s.on_failure },
    })),
  };
}

function stepsOf(settings: Json): Step[] {
  const tasks = (settings.tasks as Json[] | undefined) ?? [];
  return tasks.map((t) => {
    const step = t.lakeward_step as { type?: string; config?: Json; on_failure?: Step['on_failure'] } | undefined;
    if (!step?.type)
      throw new HttpError(
        422,
        'UNSUPPORTED',
        `task ${String(t.task_key)} is not a Lakeward pipeline step (lakeward_step)`,
      );
    return {
      type: step.type,
      name: String(t.task_key),
      config: step.config ?? {},
      on_failure: step.on_failure ?? 'stop',
    };
  });
}

/**
 * The local lakehouse's jobs: Lakeward's pipelines shown as Jobs-shaped settings (`job_id` = `pipeline:<id>`), so
 * list, get, clone, diff, backup and restore work offline. Creating one stores a new pipeline.
 */
export function localRegistry(
  db: Db,
  createdBy: () => string,
  check: (body: { name: string; description: string; steps: Step[] }) => {
    name: string;
    description: string;
    steps: Step[];
  },
): JobRegistry {
  const view = (p: {
    pipelineId: string;
    name: string;
    description: string;
    steps: Step[];
    createdBy: string;
    createdAt: Date;
  }): RegistryJob => ({
    job_id: `pipeline:${p.pipelineId}`,
    settings: pipelineSettings(p.name, p.description, p.steps),
    creator_user_name: p.createdBy,
    created_time: p.createdAt.getTime(),
  });
  return {
    kind: 'local',
    async list(q) {
      const rows = (await listPipelines(db)).filter((p) => !q.name || p.name === q.name);
      return rows.slice(0, q.limit).map(view);
    },
    async get(jobId) {
      const m = /^pipeline:(.+)$/.exec(jobId);
      const p = m ? await getPipeline(db, m[1]) : undefined;
      if (!p) throw notFound(`no job ${jobId}`);
      return view(p);
    },
    async create(settings) {
      const body = check({
        name: String(settings.name ?? 'job'),
        description: String(settings.description ?? ''),
        steps: stepsOf(settings),
      });
      const row = await insertPipeline(db, {
        pipelineId: crypto.randomUUID().replace(/-/g, '').slice(0, 12),
        name: body.name,
        description: body.description,
        steps: body.steps,
        createdBy: createdBy(),
      });
      return `pipeline:${row.pipelineId}`;
    },
  };
}
