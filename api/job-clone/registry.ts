import { mergeJobPage, type Json } from '../../activities/job-clone/logic/settings';
import type { WorkspaceApi } from '../../platform/databricks/rest/workspace-api';
import { isPlatformError } from '../../platform/errors';
import { HttpError, notFound } from '../middleware/http-error';

/** A job as the job-clone endpoints show it: its id and its Jobs API 2.2 settings. */
export interface RegistryJob {
  job_id: string;
  settings: Json;
  creator_user_name?: string | null;
  created_time?: number | null;
}

/**
 * The job registry port: where jobs live. A Databricks workspace's Jobs API (databricksRegistry), or the local
 * lakehouse's pipelines and schedules as Jobs-shaped settings (local-registry.ts). Clone, diff, backup and restore
 * go through this port only.
 */
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
