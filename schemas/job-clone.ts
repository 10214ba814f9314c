import { z } from 'zod';

/** /api/job-clone: Jobs API 2.2 jobs (or, locally, Lakeward pipelines as Jobs-shaped settings) cloned and compared. */

const JobId = z.string().min(1).max(120);
const Settings = z.record(z.string(), z.unknown());

export const JobListQuerySchema = z.object({
  name: z.string().min(1).max(500).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

export const RegistryJobSchema = z
  .object({
    job_id: z.string(),
    settings: Settings,
    creator_user_name: z.string().nullable().optional(),
    created_time: z.number().nullable().optional(),
  })
  .meta({ id: 'RegistryJob' });

export const JobCloneBodySchema = z.strictObject({
  job_id: JobId,
  /** Default `<name>_clone`. */
  new_name: z.string().min(1).max(4096).optional(),
  /** Top-level settings keys set on the clone (after the read-only ones are dropped). */
  overrides: Settings.default({}),
});

const RemapSchema = z
  .strictObject({
    clusters: z.record(z.string(), z.string().min(1)).optional(),
    warehouses: z.record(z.string(), z.string().min(1)).optional(),
  })
  .default({});

export const CrossCloneBodySchema = z
  .strictObject({
    job_id: JobId,
    /** A saved target (`/api/targets`) naming the destination workspace; its sealed credentials are used. */
    dest_target: z.string().min(1).max(200).optional(),
    /** Or the destination workspace (https://…) with a token used for this call only and never stored. */
    dest_host: z.string().min(1).max(500).optional(),
    dest_token: z.string().min(1).max(2000).optional(),
    new_name: z.string().min(1).max(4096).optional(),
    overrides: Settings.default({}),
    /** Source id → destination id of clusters and warehouses the tasks name. */
    remap: RemapSchema,
  })
  .superRefine((b, ctx) => {
    const inline = b.dest_host !== undefined || b.dest_token !== undefined;
    if (b.dest_target !== undefined && inline)
      ctx.addIssue({
        code: 'custom',
        path: ['dest_target'],
        message: 'give dest_target or dest_host + dest_token, not both',
      });
    else if (b.dest_target === undefined)
      for (const k of ['dest_host', 'dest_token'] as const)
        if (b[k] === undefined)
          ctx.addIssue({ code: 'custom', path: [k], message: 'required unless dest_target names a saved target' });
  });

export const CloneResultSchema = z.object({
  source_job_id: z.string(),
  new_job_id: z.string(),
  name: z.string(),
  settings: Settings,
  warnings: z.array(z.string()),
});

export const DiffBodySchema = z.strictObject({ job_id_a: JobId, job_id_b: JobId });
export const DiffResultSchema = z.object({
  job_id_a: z.string(),
  job_id_b: z.string(),
  identical: z.boolean(),
  diffs: z.array(
    z.object({ path: z.string(), kind: z.enum(['added', 'removed', 'changed']), a: z.unknown(), b: z.unknown() }),
  ),
});

export const BackupBodySchema = z.strictObject({ job_ids: z.array(JobId).min(1).max(100) });
export const BackupResultSchema = z.object({
  definitions: z.array(z.object({ job_id: z.string(), settings: Settings })),
  results: z.array(z.object({ job_id: z.string(), status: z.enum(['ok', 'failed']), error: z.string().optional() })),
});

export const RestoreBodySchema = z.strictObject({
  definitions: z
    .array(z.object({ job_id: z.string().optional(), settings: Settings }))
    .min(1)
    .max(100),
});
export const RestoreResultSchema = z.object({
  results: z.array(
    z.object({
      source_job_id: z.string().nullable(),
      new_job_id: z.string().nullable(),
      status: z.enum(['ok', 'failed']),
      error: z.string().optional(),
    }),
  ),
});
