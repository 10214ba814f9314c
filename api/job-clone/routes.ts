import { z } from 'zod';
import {
  BackupBodySchema,
  BackupResultSchema,
  CloneResultSchema,
  CrossCloneBodySchema,
  DiffBodySchema,
  DiffResultSchema,
  JobCloneBodySchema,
  JobListQuerySchema,
  RegistryJobSchema,
  RestoreBodySchema,
  RestoreResultSchema,
} from '../../schemas/job-clone';
import { defineRoutes, route } from '../middleware/route';
import {
  backupJobs,
  cloneJob,
  destinationRegistry,
  diffJobs,
  registryFor,
  restoreJobs,
  targetRegistry,
} from './service';

const JobIdParams = z.object({ job_id: z.string().min(1).max(120) });
const NOT_FOUND = { 404: 'No such job' };

/** /api/job-clone: list, read, clone (also to another workspace), diff, back up and restore jobs. */
export const jobCloneRoutes = defineRoutes({
  name: 'job-clone',
  tags: ['job-clone'],
  routes: [
    route({
      method: 'get',
      path: '/job-clone',
      summary: 'Jobs of the workspace (Databricks Jobs API 2.2; locally Lakeward pipelines as Jobs-shaped settings)',
      request: { query: JobListQuerySchema },
      response: { description: 'Jobs', schema: z.object({ jobs: z.array(RegistryJobSchema) }) },
      handler: async ({ deps, input }) => ({ jobs: await (await registryFor(deps)).list(input.query) }),
    }),
    route({
      method: 'get',
      path: '/job-clone/:job_id',
      summary: 'A job with every page of its tasks and job clusters merged',
      request: { params: JobIdParams },
      response: { description: 'The job', schema: RegistryJobSchema },
      errors: NOT_FOUND,
      handler: async ({ deps, input }) => (await registryFor(deps)).get(input.params.job_id),
    }),
    route({
      method: 'post',
      path: '/job-clone/clone',
      summary:
        'Clone a job in the same workspace: read-only fields dropped, renamed, overrides applied, schedule paused',
      request: { body: JobCloneBodySchema },
      response: { status: 201, description: 'The clone', schema: CloneResultSchema },
      errors: { ...NOT_FOUND, 422: 'The settings are refused' },
      handler: async ({ deps, input }) => cloneJob(deps, input.body),
    }),
    route({
      method: 'post',
      path: '/job-clone/clone-cross-workspace',
      summary:
        'Clone a job into another Databricks workspace (a saved target, or dest_host + dest_token never stored), remapping cluster and warehouse ids',
      request: { body: CrossCloneBodySchema },
      response: { status: 201, description: 'The clone', schema: CloneResultSchema },
      errors: { 404: 'No such job or saved target', 422: 'The saved target is not a Databricks workspace' },
      handler: async ({ deps, input: { body } }) => {
        const into = body.dest_target
          ? await targetRegistry(deps, body.dest_target)
          : await destinationRegistry(body.dest_host!, body.dest_token!);
        return cloneJob(deps, body, into, body.remap);
      },
    }),
    route({
      method: 'post',
      path: '/job-clone/diff',
      summary: 'Differences between two jobs (JSON Pointer paths; tasks matched by task_key, so a reorder is none)',
      role: 'viewer',
      request: { body: DiffBodySchema },
      response: { description: 'The differences', schema: DiffResultSchema },
      errors: NOT_FOUND,
      handler: async ({ deps, input }) => diffJobs(deps, input.body.job_id_a, input.body.job_id_b),
    }),
    route({
      method: 'post',
      path: '/job-clone/backup',
      summary: 'The writable settings of up to 100 jobs, with a result per job',
      role: 'viewer',
      request: { body: BackupBodySchema },
      response: { description: 'Definitions and results', schema: BackupResultSchema },
      handler: async ({ deps, input }) => backupJobs(deps, input.body.job_ids),
    }),
    route({
      method: 'post',
      path: '/job-clone/restore',
      summary: 'Create a job per backed-up definition (schedules paused), with a result per definition',
      request: { body: RestoreBodySchema },
      response: { description: 'Results', schema: RestoreResultSchema },
      handler: async ({ deps, input }) => restoreJobs(deps, input.body.definitions),
    }),
  ],
});
