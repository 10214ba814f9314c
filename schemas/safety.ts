import { z } from 'zod';

/** Request shapes of the safety endpoints: rollback, snapshots, templates and provenance. */

export const rollbackRequestSchema = z
  .object({
    job_id: z.string().min(1).max(200).optional(),
    log_id: z.string().uuid().optional(),
    /** Wait for the rollback workflow(s) to finish and return their results. */
    wait: z.boolean().default(false),
  })
  .strict()
  .refine((b) => Boolean(b.job_id) !== Boolean(b.log_id), {
    message: 'give job_id or log_id (exactly one)',
    path: ['job_id'],
  });

export const rollbackLogsQuerySchema = z.object({
  job_id: z.string().min(1).max(200).optional(),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});

export const logIdParamsSchema = z.object({ logId: z.string().uuid() });
export const jobIdParamsSchema = z.object({ jobId: z.string().min(1).max(200) });

export const snapshotCreateSchema = z
  .object({
    source_catalog: z.string().min(1).max(255),
    name: z.string().min(1).max(200).optional(),
    description: z.string().max(2000).optional(),
    exclude_schemas: z.array(z.string().min(1)).optional(),
  })
  .strict();

export const snapshotListQuerySchema = z.object({
  source_catalog: z.string().min(1).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(500),
});

export const snapshotParamsSchema = z.object({ snapshotId: z.string().uuid() });

export const templateParamsSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'letters, digits, - and _ only'),
});

export const provenanceSignSchema = z
  .object({
    job_id: z.string().min(1).max(200).optional(),
    source_catalog: z.string().min(1).optional(),
    destination_catalog: z.string().min(1).optional(),
    config: z.record(z.string(), z.unknown()).optional(),
    result: z.record(z.string(), z.unknown()).optional(),
  })
  .strict()
  .refine((b) => Boolean(b.job_id) || (Boolean(b.source_catalog) && Boolean(b.destination_catalog)), {
    message: 'give job_id, or source_catalog and destination_catalog',
    path: ['source_catalog'],
  });

/** Either the envelope itself, or `{envelope, public_key}` to verify against another key. */
export const provenanceVerifySchema = z.union([
  z.object({ envelope: z.record(z.string(), z.unknown()), public_key: z.string().min(1).optional() }).strict(),
  z.record(z.string(), z.unknown()),
]);
