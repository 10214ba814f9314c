import { z } from 'zod';
import { IdentifierSchema, PrintableTextSchema, paginationQuery } from './common';

/** Request shapes of the clone safety endpoints: rollback, snapshots, templates and provenance. */

export const rollbackRequestSchema = z
  .object({
    job_id: IdentifierSchema.optional(),
    log_id: z.string().uuid().optional(),
    /** Wait for the rollback workflow(s) to finish and return their results. */
    wait: z.boolean().default(false),
  })
  .strict()
  .refine((b) => Boolean(b.job_id) !== Boolean(b.log_id), {
    message: 'give job_id or log_id (exactly one)',
    path: ['job_id'],
  });

export const rollbackLogsQuerySchema = paginationQuery(100).extend({ job_id: IdentifierSchema.optional() });

export const logIdParamsSchema = z.object({ logId: z.string().uuid() });
export const jobIdParamsSchema = z.object({ jobId: IdentifierSchema });

export const snapshotCreateSchema = z
  .object({
    source_catalog: IdentifierSchema,
    name: PrintableTextSchema.min(1).max(200).optional(),
    description: PrintableTextSchema.max(2000).optional(),
    exclude_schemas: z.array(IdentifierSchema).optional(),
  })
  .strict();

export const snapshotListQuerySchema = paginationQuery(500).extend({ source_catalog: IdentifierSchema.optional() });

export const snapshotParamsSchema = z.object({ snapshotId: z.string().uuid() });

export const templateParamsSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, 'letters, digits, - and _ only'),
});

export const provenanceSignSchema = z
  .object({
    job_id: IdentifierSchema.optional(),
    source_catalog: IdentifierSchema.optional(),
    destination_catalog: IdentifierSchema.optional(),
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
